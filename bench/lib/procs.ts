/**
 * Child processes of the benchmark: the register emulator, the service (the real entry point,
 * src/main.ts, in production mode), the peers (Hive Gateway, Apollo Server) and the bare Node relay
 * of the streaming phase; their CPU time and memory from /proc.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { build, type Plugin } from 'esbuild';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { BARE_RELAY_FILE } from './bare-relay';

export const ROOT = new URL('../..', import.meta.url).pathname.replace(/\/$/, '');
export const LOG_DIR = join(ROOT, 'bench', '.logs');

const children = new Set<ChildProcess>();

/** Ends every child this benchmark started (by pid), e.g. on an error. */
export function killAll(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}
process.on('exit', killAll);

export interface Emulator {
  url: string;
  origin: string;
  pid: number;
  stop(): Promise<void>;
}

export async function startEmulatorProcess(latencyMs = 0, largePlanBytes = 50 * 1024 * 1024): Promise<Emulator> {
  const child = fork(join(ROOT, 'bench', 'emulator.ts'), [], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, BENCH_LATENCY_MS: String(latencyMs), BENCH_LARGE_PLAN_BYTES: String(largePlanBytes), NODE_ENV: 'production' },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  children.add(child);
  const ready = await readyMessage<{ url: string; origin: string }>(child, 'emulator');
  return { ...ready, pid: child.pid!, stop: () => stopChild(child) };
}

/** The first IPC message of a forked child, which it sends once it listens. */
function readyMessage<T>(child: ChildProcess, what: string): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${what} did not start within 30 s`)), 30_000);
    child.once('message', (m) => {
      clearTimeout(timer);
      resolve(m as T);
    });
    child.once('exit', (code) => reject(new Error(`${what} exited (${code})`)));
  });
}

export interface BareRelay {
  url: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * The bare Node relay (bench/lib/bare-relay.ts): every GET on `url` fetches `upstream` with
 * `headers` (undici) and pipes the body to the response, nothing else.
 */
export async function startBareRelay(upstream: string, headers: Record<string, string>): Promise<BareRelay> {
  const child = fork(BARE_RELAY_FILE, [], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, NODE_ENV: 'production', BARE_RELAY_UPSTREAM: upstream, BARE_RELAY_HEADERS: JSON.stringify(headers) },
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  children.add(child);
  const ready = await readyMessage<{ url: string }>(child, 'bare Node relay');
  return { url: ready.url, pid: child.pid!, stop: () => stopChild(child) };
}

async function stopChild(child: ChildProcess, graceMs = 10_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
  children.delete(child);
}

/** Waits until something accepts connections on `port` of loopback; returns the port. */
async function waitForPort(port: number, child: ChildProcess, timeoutMs: number, what: string): Promise<number> {
  const { connect } = await import('node:net');
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = connect(port, '127.0.0.1');
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (open) return port;
    if (child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode})`);
    await sleep(100);
  }
  throw new Error(`${what} did not listen on ${port} within ${timeoutMs / 1000} s`);
}

/** Waits until `file` contains a line matching `pattern`; returns the match. */
async function waitForLine(file: string, pattern: RegExp, child: ChildProcess, timeoutMs: number, what: string): Promise<RegExpMatchArray> {
  const until = Date.now() + timeoutMs;
  while (Date.now() < until) {
    const text = readFileSync(file, 'utf8');
    const m = pattern.exec(text);
    if (m) return m;
    if (child.exitCode !== null) throw new Error(`${what} exited (${child.exitCode}):\n${text.slice(-2000)}`);
    await sleep(100);
  }
  throw new Error(`${what} did not start within ${timeoutMs / 1000} s:\n${readFileSync(file, 'utf8').slice(-2000)}`);
}

export interface Service {
  name: string;
  base: string;
  pid: number;
  log: string;
  /** Date.now() when the process was spawned. */
  spawnedAt: number;
  stop(): Promise<void>;
}

const sha256Hex = (v: string) => createHash('sha256').update(v, 'utf8').digest('hex');

/** The API key the benchmark's gateways compose the supergraph with (a router key). */
export const BENCH_ROUTER_KEY = 'bench-router-key';

/** The API keys the benchmark's services accept: the embedded emulator's dev keys and clients. */
export const BENCH_TENANTS = [
  { name: 'dev-key-a', apiKeySha256: sha256Hex('dev-key-a'), clientId: 'client-a', clientSecret: 'secret-a', organisation: 'ORG-A' },
  { name: 'dev-key-a2', apiKeySha256: sha256Hex('dev-key-a2'), clientId: 'client-a2', clientSecret: 'secret-a2', organisation: 'ORG-A' },
  { name: 'dev-key-b', apiKeySha256: sha256Hex('dev-key-b'), clientId: 'client-b', clientSecret: 'secret-b', organisation: 'ORG-B' },
];

/**
 * The gateways' key (bench/gateway.ts): it reads `_service { sdl }` to compose, nothing else.
 * Only this checkout's service gets it: an older commit's tenants file may know no router keys.
 */
const ROUTER_TENANT = { name: 'bench-router', apiKeySha256: sha256Hex(BENCH_ROUTER_KEY), router: true };

/**
 * A load run makes far more calls than the register's 2,000 a day (the bench emulator lifts its
 * quota): lift the service's too, and its per-client burst budget, or they would refuse the load.
 */
export const UNLIMITED_QUOTA = { REGISTER_DAILY_QUOTA: '1000000000', CLIENT_BUDGET_BURST: '0' };

const compiled = new Map<string, string>();

/**
 * A deep import without its file extension (`graphql/execution/values`), which tsx resolves and
 * Node's ESM loader does not: kept external with the `.js` that names the file. Older commits
 * (the release f34c3b8 among them) import so; this checkout's sources no longer do.
 */
const deepImportsWithExtension = (root: string): Plugin => ({
  name: 'deep-imports-with-extension',
  setup(build) {
    build.onResolve({ filter: /^(@[^/]+\/)?[^./][^/]*\/[^.]+$/ }, ({ path }) =>
      existsSync(join(root, 'node_modules', `${path}.js`)) ? { path: `${path}.js`, external: true } : undefined,
    );
  },
});

/**
 * The service compiled as the image runs it: esbuild bundles `src/main.ts` with the options of
 * scripts/build.mjs (ESM, node26, packages external) into `dist/bench/` of that checkout, once per
 * run. Built here rather than by the checkout's own `npm run build`, so that an older commit (one
 * without that script, the release f34c3b8 among them) is compiled exactly like this one and the
 * comparison is of the code, not of the way it was started.
 */
async function compiledEntry(root: string): Promise<string> {
  const cached = compiled.get(root);
  if (cached) return cached;
  const outfile = join(root, 'dist', 'bench', 'main.js');
  await build({
    entryPoints: [join(root, 'src', 'main.ts')],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node26',
    packages: 'external',
    plugins: [deepImportsWithExtension(root)],
    logLevel: 'warning',
  });
  compiled.set(root, outfile);
  return outfile;
}

/**
 * The service exactly as deployed: `src/main.ts` compiled as the image compiles it, with
 * NODE_ENV=production, against the emulator (REGISTER_BASE_URL + a tenants file), on a free port. `env` adds settings; `nodeArgs` e.g.
 * --cpu-prof. Logs go to bench/.logs/<name>.log.
 */
export async function startService(
  name: string,
  registerUrl: string,
  env: Record<string, string> = {},
  nodeArgs: string[] = [],
  /** Another checkout to run (bench/experiments/ab.ts compares two commits). */
  root: string = ROOT,
): Promise<Service> {
  mkdirSync(LOG_DIR, { recursive: true });
  const work = mkdtempSync(join(tmpdir(), 'titlegraph-bench-'));
  const tenantsFile = join(work, 'tenants.json');
  writeFileSync(tenantsFile, JSON.stringify({ tenants: root === ROOT ? [...BENCH_TENANTS, ROUTER_TENANT] : BENCH_TENANTS }));
  const log = join(LOG_DIR, `${name}.log`);
  const fd = openSync(log, 'w');
  // A service that logs nothing at info never writes the line with its port: it gets one chosen here.
  const quiet = env.LOG_LEVEL !== undefined && !['trace', 'debug', 'info'].includes(env.LOG_LEVEL);
  const port = quiet ? await freePort() : 0;
  const spawnedAt = Date.now();
  const child = spawn(process.execPath, [...nodeArgs, await compiledEntry(root)], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: join(work, 'data'),
      REGISTER_BASE_URL: registerUrl,
      TITLEGRAPH_TENANTS_FILE: tenantsFile,
      ...UNLIMITED_QUOTA,
      ...env,
    },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  children.add(child);
  const listening = quiet
    ? String(await waitForPort(port, child, 60_000, `service ${name}`))
    : (await waitForLine(log, /GraphQL at http:\/\/localhost:(\d+)\/graphql/, child, 60_000, `service ${name}`))[1];
  const stop = async () => {
    await stopChild(child, 30_000);
    rmSync(work, { recursive: true, force: true });
  };
  return { name, base: `http://127.0.0.1:${listening}`, pid: child.pid!, log, spawnedAt, stop };
}

export interface Peer {
  base: string;
  pid: number;
  stop(): Promise<void>;
}

export const PEER_DIR = join(ROOT, 'bench', 'peers');

/**
 * A Node program started as one of this benchmark's children, its output in bench/.logs/<name>.log
 * (where waitForLine reads it), killed by killAll if the run ends early.
 */
function spawnLogged(name: string, args: string[], cwd: string, env: Record<string, string>): { child: ChildProcess; log: string } {
  mkdirSync(LOG_DIR, { recursive: true });
  const log = join(LOG_DIR, `${name}.log`);
  const fd = openSync(log, 'w');
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, NODE_ENV: 'production', ...env }, stdio: ['ignore', fd, fd] });
  closeSync(fd);
  children.add(child);
  return { child, log };
}

/** Hive Gateway (one process, no forks) serving the supergraph Mesh Compose generated. */
export async function startPeer(supergraph: string): Promise<Peer> {
  const port = await freePort();
  const bin = join(PEER_DIR, 'node_modules', '@graphql-hive', 'gateway', 'dist', 'bin.js');
  const args = [bin, 'supergraph', supergraph, '--port', String(port), '--host', '127.0.0.1', '--fork', '1'];
  const { child, log } = spawnLogged('peer', args, PEER_DIR, {});
  await waitForLine(log, /Listening on/, child, 60_000, 'peer gateway');
  return { base: `http://127.0.0.1:${port}`, pid: child.pid!, stop: () => stopChild(child) };
}

/**
 * The second peer: Apollo Server 5 + `@apollo/datasource-rest` as Apollo's docs write it
 * (bench/peers/apollo-peer.mjs, run with bench/peers' own node_modules, one process). Like the Mesh
 * peer it forwards the caller's Authorization header (a register bearer token) to `registerUrl`.
 */
export async function startApolloPeer(registerUrl: string): Promise<Peer> {
  const { child, log } = spawnLogged('apollo-peer', [join(PEER_DIR, 'apollo-peer.mjs')], PEER_DIR, {
    REGISTER_BASE_URL: registerUrl,
    PORT: '0',
    HOST: '127.0.0.1',
  });
  const m = await waitForLine(log, /Apollo peer at (http:\/\/\S+?)\/?$/m, child, 60_000, 'Apollo peer');
  return { base: m[1]!, pid: child.pid!, stop: () => stopChild(child) };
}

/**
 * graphql-yoga with none of titlegraph's features (bench/experiments/bare-yoga-server.ts, run by
 * Node itself, on this checkout's node_modules): the floor that bench/experiments/yoga-floor.ts
 * compares titlegraph and the Apollo peer with. Like the peers, it forwards the caller's
 * Authorization to `registerUrl`.
 */
export async function startBareYoga(registerUrl: string): Promise<Peer> {
  const { child, log } = spawnLogged('bare-yoga', [join(ROOT, 'bench', 'experiments', 'bare-yoga-server.ts')], ROOT, {
    REGISTER_BASE_URL: registerUrl,
    PORT: '0',
  });
  const m = await waitForLine(log, /Bare yoga at (http:\/\/\S+)/, child, 60_000, 'bare graphql-yoga');
  return { base: m[1]!, pid: child.pid!, stop: () => stopChild(child) };
}

/**
 * A federation gateway in front of the service at `serviceBase` (bench/gateway.ts): Hive Gateway's
 * runtime or Apollo Gateway, in a process of its own, forwarding each caller's Authorization.
 */
export async function startGateway(kind: 'hive' | 'apollo', serviceBase: string): Promise<Peer> {
  mkdirSync(LOG_DIR, { recursive: true });
  const log = join(LOG_DIR, `gateway-${kind}.log`);
  const fd = openSync(log, 'w');
  const child = fork(join(ROOT, 'bench', 'gateway.ts'), [], {
    cwd: ROOT,
    execArgv: ['--import', 'tsx'],
    env: {
      ...process.env,
      NODE_ENV: 'production',
      BENCH_GATEWAY: kind,
      TITLEGRAPH_URL: `${serviceBase}/graphql`,
      BENCH_ROUTER_KEY,
    },
    stdio: ['ignore', fd, fd, 'ipc'],
  });
  closeSync(fd);
  children.add(child);
  const ready = await readyMessage<{ url: string }>(child, `${kind} gateway`);
  return { base: ready.url, pid: child.pid!, stop: () => stopChild(child) };
}

export async function freePort(): Promise<number> {
  const { createServer } = await import('node:net');
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

// ------------------------------------------------------------------ /proc

const PAGE = 4096;
const TICK_MS = 10; // USER_HZ = 100 on Linux

/** CPU time (user + system) of a process so far, in ms. */
export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

export function rssBytes(pid: number): number {
  return Number(readFileSync(`/proc/${pid}/statm`, 'utf8').split(' ')[1]) * PAGE;
}

function statusKb(pid: number, field: string): number {
  const m = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) * 1024 : NaN;
}

/**
 * Peak RSS over an interval, from the kernel's high-water mark (VmHWM): reset it (clear_refs 5),
 * then read it. Exact, no sampling. Falls back to 5 ms sampling where clear_refs is refused.
 */
export function peakRss(pid: number): { baseline: number; stop(): number } {
  let exact = true;
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    exact = false;
  }
  const baseline = rssBytes(pid);
  let sampled = baseline;
  const timer = exact
    ? undefined
    : setInterval(() => {
        sampled = Math.max(sampled, rssBytes(pid));
      }, 5);
  return {
    baseline,
    stop() {
      if (timer) clearInterval(timer);
      return exact ? statusKb(pid, 'VmHWM') : Math.max(sampled, rssBytes(pid));
    },
  };
}
