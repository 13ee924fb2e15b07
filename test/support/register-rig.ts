/** Shared set-up for the register client's tests: a real emulator over HTTP on port 0. */
import { startEmulator } from '../../src/emulator/index';
import type { Emulator, EmulatorOptions } from '../../src/emulator/types';
import {
  RegisterClient,
  RegisterError,
  RegisterTransport,
  type RegisterCallEvent,
  type RegisterTransportOptions,
} from '../../src/register/client';

export const CLIENT_A = { clientId: 'client-a', clientSecret: 'secret-a' } as const;
export const CLIENT_B = { clientId: 'client-b', clientSecret: 'secret-b' } as const;

/** Generous timeouts for tests without faults: a loaded CI box must not turn them into retries. */
export const CALM: Partial<RegisterTransportOptions> = { timeouts: { headersMs: 5000, bodyMs: 5000, deadlineMs: 10_000 } };

/** Small timeouts so that fault tests stay fast. */
export const FAST: Omit<RegisterTransportOptions, 'baseUrl'> = {
  connections: 16,
  timeouts: { connectMs: 1000, headersMs: 500, bodyMs: 1000, deadlineMs: 4000 },
  retry: { attempts: 3, baseDelayMs: 5, maxDelayMs: 20 },
  breaker: { failureThreshold: 5, openMs: 300 },
};

export interface Rig {
  emu: Emulator;
  events: RegisterCallEvent[];
  transports: RegisterTransport[];
  /** A transport on this emulator, closed by `close()`. */
  transport(opts?: Partial<RegisterTransportOptions>): RegisterTransport;
  /** A client whose token clock is the emulator's clock. */
  client(t: RegisterTransport, creds?: { clientId: string; clientSecret: string }): RegisterClient;
  close(): Promise<void>;
}

export async function rig(emuOpts: EmulatorOptions = {}): Promise<Rig> {
  const emu = await startEmulator({ port: 0, ...emuOpts });
  const events: RegisterCallEvent[] = [];
  const transports: RegisterTransport[] = [];
  return {
    emu,
    events,
    transports,
    transport(opts = {}) {
      const t = new RegisterTransport({
        ...FAST,
        ...opts,
        timeouts: { ...FAST.timeouts, ...opts.timeouts },
        retry: { ...FAST.retry, ...opts.retry },
        breaker: { ...FAST.breaker, ...opts.breaker },
        baseUrl: emu.url,
        onCall: (e) => {
          events.push(e);
          opts.onCall?.(e);
        },
      });
      transports.push(t);
      return t;
    },
    client(t, creds = CLIENT_A) {
      return new RegisterClient(t, { ...creds }, { now: () => emu.clock.now().getTime() });
    },
    async close() {
      await Promise.all(transports.map((t) => t.close()));
      await emu.close();
    },
  };
}

/** The rejection of `p`, asserted to be a RegisterError. */
export async function registerError(p: Promise<unknown>): Promise<RegisterError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof RegisterError) return e;
    throw e;
  }
  throw new Error('expected a RegisterError, the call succeeded');
}

export async function readAll(stream: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** Every string an error exposes: message, stack, cause and its JSON form. */
export function exposedText(e: RegisterError): string {
  const cause = e.cause instanceof Error ? `${e.cause.name} ${e.cause.message} ${e.cause.stack ?? ''}` : String(e.cause ?? '');
  return [e.message, e.stack ?? '', cause, JSON.stringify(e), e.field ?? ''].join('\n');
}
