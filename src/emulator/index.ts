/**
 * The register emulator: a faithful, stateful emulator of the register's REST API
 * (docs/emulator.md), for tests, benchmarks and the embedded default.
 */
import type { AddressInfo } from 'node:net';
import { londonDate } from '../register/contract/london-day';
import { createClock } from './clock';
import type { Env, ResolvedOptions } from './context';
import { handleControl } from './control';
import { FaultBook } from './faults';
import { Ledger } from './ledger';
import { createEmulatorServer } from './server';
import { IN_MEMORY, openStateFile } from './state-file';
import { Store } from './store';
import type { Emulator, EmulatorOptions, EmulatorState } from './types';

export type {
  Emulator,
  EmulatorOptions,
  Fault,
  RouteName,
} from './types';
export { EmulatorStateError } from './state-file';

function resolve(options: EmulatorOptions): ResolvedOptions {
  const positive = (name: string, v: number | undefined, def: number, min = 0) => {
    const value = v ?? def;
    if (!Number.isFinite(value) || value < min) throw new RangeError(`EmulatorOptions.${name} must be a number >= ${min}`);
    return value;
  };
  return {
    host: options.host ?? '127.0.0.1',
    port: positive('port', options.port, 0),
    latencyMs: positive('latencyMs', options.latencyMs, 0),
    dailyQuota: positive('dailyQuota', options.dailyQuota, 2000),
    tokenTtlSeconds: positive('tokenTtlSeconds', options.tokenTtlSeconds, 300, 1),
    largePlanBytes: positive('largePlanBytes', options.largePlanBytes, 50 * 1024 * 1024),
  };
}

export async function startEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  const resolved = resolve(options);
  const clock = createClock(options.now);
  const kept = options.stateFile === undefined ? undefined : openStateFile(options.stateFile);
  const sink = kept?.sink ?? IN_MEMORY;
  const store = new Store(resolved.tokenTtlSeconds, sink);
  const ledger = new Ledger(options.fees, sink);
  if (kept) {
    store.restore(kept.state, clock.now());
    ledger.restore(kept.state.charges, kept.state.lastSequence);
  }
  const faults = new FaultBook();
  const env: Env = { store, ledger, options: resolved, now: () => clock.now() };

  const state: EmulatorState = {
    cases: store.cases,
    get deeds() {
      return store.deeds;
    },
    documents: store.documents,
    quotaUsed: (organisation, day = londonDate(clock.now())) => store.quotaUsed(organisation, day),
    tokenCount: () => store.liveTokens(clock.now()),
  };
  const controls = {
    clock,
    ledger: {
      get charges() {
        return ledger.charges;
      },
      count: (filter?: Parameters<Ledger['count']>[0]) => ledger.count(filter),
    },
    calls: {
      list: () => store.calls.slice(),
      count: (filter?: Parameters<Store['countCalls']>[0]) => store.countCalls(filter),
      reset: () => {
        store.calls.length = 0;
      },
    },
    faults: {
      inject: (...args: Parameters<FaultBook['inject']>) => faults.inject(...args),
      clear: () => faults.clear(),
    },
    state,
  };

  let baseUrl = '';
  const { server, sockets } = createEmulatorServer({
    env,
    faults,
    control: (req, res, path, body) => handleControl(controls, req, res, path, body),
    baseUrl: () => baseUrl,
  });

  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(resolved.port, resolved.host, () => {
      server.off('error', fail);
      ok();
    });
  }).catch((error: unknown) => {
    sink.close();
    throw error;
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const origin = `http://${host}:${address.port}`;
  baseUrl = `${origin}/v1`;

  let closing: Promise<void> | undefined;
  return {
    url: baseUrl,
    origin,
    port: address.port,
    ...controls,
    close() {
      closing ??= new Promise<void>((ok) => {
        // The state file is let go only once no request can still change the state.
        server.close(() => {
          sink.close();
          ok();
        });
        for (const s of sockets) s.destroy();
        server.closeAllConnections();
      });
      return closing;
    },
  };
}
