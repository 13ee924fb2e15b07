/** Child processes for the multi-process tests: TypeScript entry points run by tsx on this Node. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';

export const ROOT = resolve(import.meta.dirname, '../..');

/** Unsets what would point a started service away from the embedded emulator and SQLite. */
export const EMBEDDED_ENV: Record<string, string | undefined> = {
  HOST: '127.0.0.1',
  NODE_ENV: 'test',
  REGISTER_BASE_URL: undefined,
  DATABASE_URL: undefined,
  TITLEGRAPH_TENANTS_FILE: undefined,
  REGISTER_CLIENT_ID: undefined,
  REGISTER_CLIENT_SECRET: undefined,
  TITLEGRAPH_API_KEY_SHA256: undefined,
};

export interface Child {
  process: ChildProcess;
  /** Everything written to stdout and stderr so far (for failure messages). */
  output(): string;
  /** Resolves with the first stdout line matching `pattern` (its match), or rejects on exit / timeout. */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<RegExpMatchArray>;
  /** The exit code (or the signal that ended it). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM (or `signal`) and wait for the exit; SIGKILL after `graceMs`. */
  stop(signal?: NodeJS.Signals, graceMs?: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function spawnTs(entry: string, args: string[] = [], env: Record<string, string | undefined> = {}): Child {
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined)
      delete childEnv[name]; // unset, not the string "undefined"
    else childEnv[name] = value;
  }
  return spawnNode(['--import', 'tsx', entry, ...args], { cwd: ROOT, env: childEnv });
}

/** This Node with `args`, in `cwd`, with exactly `env` (nothing of this process's own). */
export function spawnNode(args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Child {
  const child = spawn(process.execPath, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const lines: string[] = [];
  const listeners = new Set<(line: string) => void>();
  let partial = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
    partial += chunk;
    const parts = partial.split('\n');
    partial = parts.pop()!;
    for (const line of parts) {
      lines.push(line);
      for (const l of listeners) l(line);
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    out += chunk;
  });
  const exited = once(child, 'exit').then(([code, signal]) => ({ code: code as number | null, signal: signal as NodeJS.Signals | null }));
  return {
    process: child,
    output: () => out,
    exited,
    waitFor(pattern, timeoutMs = 30_000) {
      const seen = lines.map((l) => l.match(pattern)).find(Boolean);
      if (seen) return Promise.resolve(seen);
      return new Promise((ok, fail) => {
        const timer = setTimeout(() => done(new Error(`timed out waiting for ${pattern}; output:\n${out}`)), timeoutMs);
        const listener = (line: string) => {
          const m = line.match(pattern);
          if (m) done(undefined, m);
        };
        const done = (error?: Error, match?: RegExpMatchArray) => {
          clearTimeout(timer);
          listeners.delete(listener);
          if (error) fail(error);
          else ok(match!);
        };
        listeners.add(listener);
        void exited.then(({ code, signal }) => done(new Error(`exited (${code ?? signal}) before ${pattern}; output:\n${out}`)));
      });
    },
    async stop(signal = 'SIGTERM', graceMs = 30_000) {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill(signal);
        const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
        try {
          return await exited;
        } finally {
          clearTimeout(timer);
        }
      }
      return exited;
    },
  };
}

export const PURCHASE_DETAILS = `mutation PurchaseTitleDetails($fas: FasNumber!, $input: PurchaseTitleInput!) {
  purchaseTitleDetails(fas: $fas, input: $input) {
    details { titleNumber status }
    charges { productType fee fas transactionNumber }
    userErrors { code message field }
  }
}`;

export const CREATE_CASE = `mutation CreateCase($fas: FasNumber!, $input: CreateCaseInput!) {
  createCase(fas: $fas, input: $input) {
    case { id reference titleNumbers }
    userErrors { code message field }
  }
}`;

export const CHARGE_RECORDS = `query ChargeRecords($day: Date!) {
  chargeRecords(day: $day) { status operation idempotencyKey fas titleNumber charge { transactionNumber fee } recordedAt }
}`;
