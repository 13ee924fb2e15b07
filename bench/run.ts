/**
 * `npm run bench`: what the GraphQL layer costs, how few register calls it makes, streaming,
 * and two peers side by side (GraphQL Mesh + Hive Gateway; Apollo Server 5 +
 * `@apollo/datasource-rest` written as its docs show), on loopback, bounded in time.
 * Writes bench/RESULTS.md, bench/results.json and bench/chart.svg.
 *
 * Every comparison is made within one run, as a ratio or a difference, with the compared
 * targets interleaved (request by request, or round by round), because the machine is shared.
 *
 * Options: --only=economy,latency,throughput,gateways,streaming,batching,apq-flood,spend-cpu,peer-pdf,profile (a subset;
 * the report then holds only those), --no-peer (neither peer), --quick (shorter rounds, for
 * development), --baseline <git ref> (another commit, built in a temporary git worktree with the
 * dependencies of its own lock file, whose service joins the throughput rounds beside ours and the peers':
 * each ratio is printed against the peer and against the baseline, and recorded in RESULTS.md),
 * --report-only (RESULTS.md and chart.svg written again from bench/results.json, nothing run).
 */
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { meros } from 'meros/browser';
import { request } from 'undici';
import { apqFloodPhase } from './lib/apq-flood';
import { baselineCheckout, type BaselineCheckout } from './lib/baseline';
import { spendCpuPhase } from './lib/spend-cpu';
import { probe, registerToken, sequentialLatency, throughput, type LatencyStats, type Target, type Throughput } from './lib/load';
import {
  cpuMs,
  killAll,
  LOG_DIR,
  PEER_DIR,
  peakRss,
  ROOT,
  startApolloPeer,
  startBareRelay,
  startEmulatorProcess,
  startGateway,
  startPeer,
  startService,
  type Emulator,
  type Peer,
  type Service,
} from './lib/procs';
import { profileSideBySide, summariseProfile, type ProfileSummary } from './lib/profile';
import { ratioLines, sideBySideRatios, writeReport, type Results } from './lib/report';
import { median } from './lib/stats';
import {
  BATCH_QUERY,
  BATCH_QUERY_NO_SECURITIES,
  PAGE_QUERY,
  PAGE_TITLES,
  PEER_DOWNLOAD_PLAN,
  PEER_TITLE_QUERY,
  PURCHASE_PLANS,
  STREAM_QUERY,
  TITLE_QUERY,
  TYPENAME_QUERY,
} from './queries';

const argv = process.argv.slice(2);
const onlyArg = argv.find((a) => a.startsWith('--only='));
const ONLY = onlyArg ? new Set(onlyArg.slice(7).split(',')) : undefined;
const QUICK = argv.includes('--quick');
const baselineAt = argv.findIndex((a) => a === '--baseline' || a.startsWith('--baseline='));
const BASELINE_REF = baselineAt < 0 ? undefined : argv[baselineAt]!.includes('=') ? argv[baselineAt]!.slice(11) : argv[baselineAt + 1];
if (baselineAt >= 0 && !BASELINE_REF) throw new Error('--baseline needs a git ref, e.g. --baseline f34c3b8');
const WANT_PEER = !argv.includes('--no-peer');
const run = (phase: string) => !ONLY || ONLY.has(phase);

const T0 = Date.now();
const log = (msg: string) => console.log(`[bench ${((Date.now() - T0) / 1000).toFixed(1).padStart(5)} s] ${msg}`);

const TITLE = 'MID15313';
const APOLLO_TARGET = 'apollo title';
const BASELINE_TARGET = 'baseline title';
const GATEWAY_TARGETS = { direct: 'direct', hive: 'through Hive Gateway', apollo: 'through Apollo Gateway' } as const;
const API_KEY = 'dev-key-a';
const CONNECTIONS = 16;
const ROUND_S = QUICK ? 2 : 2;
const ROUNDS = QUICK ? 2 : 5;
const PLAN_BYTES = 50 * 1024 * 1024;

// ------------------------------------------------------------------ helpers

const json = { 'content-type': 'application/json', accept: 'application/json' };

function gqlTarget(name: string, base: string, query: string, variables?: Record<string, unknown>, key: string = API_KEY): Target {
  return {
    name,
    url: `${base}/graphql`,
    method: 'POST',
    headers: { ...json, authorization: `Bearer ${key}` },
    body: JSON.stringify(variables ? { query, variables } : { query }),
    check(status, body) {
      const parsed = JSON.parse(body) as { data?: Record<string, unknown>; errors?: unknown };
      if (status !== 200 || parsed.errors || !parsed.data || Object.values(parsed.data).some((v) => v === null)) {
        throw new Error(`${name}: HTTP ${status}: ${body.slice(0, 400)}`);
      }
    },
  };
}

function restTarget(name: string, url: string, token: string): Target {
  return { name, url, method: 'GET', headers: { accept: 'application/json', authorization: `Bearer ${token}` } };
}

async function gql<T = Record<string, unknown>>(
  base: string,
  query: string,
  variables?: Record<string, unknown>,
  key = API_KEY,
): Promise<T> {
  const res = await request(`${base}/graphql`, {
    method: 'POST',
    headers: { ...json, authorization: `Bearer ${key}` },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await res.body.json()) as { data?: T; errors?: { message: string }[] };
  if (body.errors?.length || !body.data) throw new Error(`GraphQL ${res.statusCode}: ${JSON.stringify(body.errors ?? body).slice(0, 500)}`);
  return body.data;
}

interface CallRecord {
  route: string;
  status: number;
}

async function emulatorCalls(emu: Emulator): Promise<CallRecord[]> {
  const res = await request(`${emu.origin}/__control/calls`);
  return ((await res.body.json()) as { calls: CallRecord[] }).calls;
}

async function resetCalls(emu: Emulator): Promise<void> {
  const res = await request(`${emu.origin}/__control/reset-calls`, { method: 'POST' });
  await res.body.dump();
}

function countByRoute(calls: CallRecord[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of calls) {
    const key = c.status === 304 ? `${c.route} (304)` : c.route;
    out[key] = (out[key] ?? 0) + 1;
  }
  return out;
}

/** Downloads `url`, discarding the bytes as they come (optionally hashing them). */
async function download(url: string, headers: Record<string, string>, hash = false) {
  const start = process.hrtime.bigint();
  const res = await request(url, { headers, bodyTimeout: 60_000, headersTimeout: 60_000 });
  const h = hash ? createHash('sha256') : undefined;
  let bytes = 0;
  for await (const chunk of res.body) {
    bytes += (chunk as Buffer).length;
    h?.update(chunk as Buffer);
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  return { status: res.statusCode, bytes, seconds, mbPerS: bytes / 1048576 / seconds, sha256: h?.digest('hex') };
}

// ------------------------------------------------------------------ peers (Mesh Compose + Hive Gateway; Apollo Server)

function npmCommand(): { cmd: string; args: string[] } {
  const cli = process.env.npm_execpath;
  return cli?.endsWith('.js') ? { cmd: process.execPath, args: [cli] } : { cmd: 'npm', args: [] };
}

/** The packages the peers run from bench/peers/node_modules. */
const PEER_PACKAGES = ['@graphql-hive/gateway', '@graphql-mesh/compose-cli', '@apollo/server', '@apollo/datasource-rest'];

/** Installs bench/peers (its own package.json and lockfile) when a peer's package is missing. */
function ensurePeerInstalled(): { ok: true } | { ok: false; error: string } {
  if (PEER_PACKAGES.every((p) => existsSync(join(PEER_DIR, 'node_modules', p, 'package.json')))) return { ok: true };
  log('installing the peers (npm ci --prefix bench/peers): once per clone');
  const npm = npmCommand();
  const r = spawnSync(npm.cmd, [...npm.args, 'ci', '--prefix', PEER_DIR, '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: ROOT,
    stdio: ['ignore', 'inherit', 'pipe'],
    timeout: 600_000,
    encoding: 'utf8',
  });
  if (r.status !== 0)
    return { ok: false, error: `npm ci --prefix bench/peers failed (${r.status ?? r.signal}): ${(r.stderr ?? '').slice(-1500)}` };
  return { ok: true };
}

/** Mesh Compose turns the emulator's /v1/openapi.json into a supergraph for Hive Gateway. */
function composePeer(emu: Emulator): { ok: true; supergraph: string } | { ok: false; error: string } {
  const supergraph = join(PEER_DIR, 'supergraph.graphql');
  rmSync(supergraph, { force: true });
  const bin = join(PEER_DIR, 'node_modules', '@graphql-mesh', 'compose-cli', 'esm', 'bin.js');
  const r = spawnSync(process.execPath, [bin, '--output', supergraph], {
    cwd: PEER_DIR,
    env: { ...process.env, REGISTER_ORIGIN: emu.origin },
    encoding: 'utf8',
    timeout: 120_000,
  });
  if (r.status !== 0 || !existsSync(supergraph)) {
    return { ok: false, error: `mesh-compose failed (${r.status ?? r.signal}): ${`${r.stdout}\n${r.stderr}`.slice(-1500)}` };
  }
  return { ok: true, supergraph };
}

// ------------------------------------------------------------------ phases

async function economyPhase(emu: Emulator, svc: Service): Promise<NonNullable<Results['economy']>> {
  const variables = { titleNumbers: PAGE_TITLES, first: PAGE_TITLES[0] };
  const scenarios: NonNullable<Results['economy']>['scenarios'] = [];
  const NOT_LISTED = new Set(['CLOSED', 'CANCELLED', 'AMALGAMATED', 'DRAFT']);

  // The issue's minimum: one call per distinct title and route. With SECURITIES_PREFETCH on (the
  // default) every title's listing is fetched alongside its summary; off, titles whose status
  // lists no securities are skipped, at the price of a second round of calls.
  const loadTwice = async (
    label: string,
    service: Service,
    settings: string,
    expectRefs: 'cached' | 'revalidated',
    summariesCached: boolean,
    prefetch = true,
  ) => {
    for (let load = 1; load <= 2; load++) {
      await resetCalls(emu);
      const data = await gql<{ list: { titleNumber: string; status: string }[] }>(service.base, PAGE_QUERY, variables);
      const calls = countByRoute(await emulatorCalls(emu));
      const distinct = new Set(data.list.map((t) => t.titleNumber)).size;
      const listed = new Set(data.list.filter((t) => !NOT_LISTED.has(t.status)).map((t) => t.titleNumber)).size;
      const expected: Record<string, number> = {
        titleSummary: load === 2 && summariesCached ? 0 : distinct,
        securities: prefetch ? distinct : listed,
      };
      if (load === 1) {
        expected.listPaths = 1;
        expected.referenceList = 1;
      } else if (expectRefs === 'revalidated') {
        expected.listPaths = 1;
        expected['referenceList (304)'] = 1;
      }
      if (calls.token) expected.token = calls.token; // a fresh process fetches its register token once
      const total = Object.values(calls).reduce((a, b) => a + b, 0);
      const minimum = Object.values(expected).reduce((a, b) => a + b, 0);
      const same = Object.keys({ ...calls, ...expected }).every((k) => (calls[k] ?? 0) === (expected[k] ?? 0));
      scenarios.push({ label, settings, load, calls, total, expected, minimum, met: same });
      log(`economy ${label} load ${load}: ${total} calls ${JSON.stringify(calls)} (expected ${minimum})`);
    }
  };

  await loadTwice('default', svc, 'summary cache off, REFERENCE_LIST_TTL_MS=60000 (defaults)', 'cached', false);
  const cached = await startService('economy-summary-cache', emu.url, { SUMMARY_CACHE_TTL_MS: '10000' });
  try {
    await loadTwice('summary cache', cached, 'SUMMARY_CACHE_TTL_MS=10000', 'cached', true);
  } finally {
    await cached.stop();
  }
  const statusAware = await startService('economy-no-prefetch', emu.url, { SECURITIES_PREFETCH: 'false' });
  try {
    await loadTwice('securities prefetch off', statusAware, 'SECURITIES_PREFETCH=false', 'cached', false, false);
  } finally {
    await statusAware.stop();
  }
  const revalidating = await startService('economy-ref-ttl-0', emu.url, { REFERENCE_LIST_TTL_MS: '0' });
  try {
    await loadTwice('reference lists revalidated', revalidating, 'REFERENCE_LIST_TTL_MS=0 (always revalidate)', 'revalidated', false);
  } finally {
    await revalidating.stop();
  }
  return { titles: PAGE_TITLES, query: PAGE_QUERY, scenarios };
}

async function latencyPhase(targets: Target[]): Promise<Record<string, LatencyStats>> {
  for (const t of targets) await probe(t);
  const res = await sequentialLatency(targets, { warmup: 300, maxRequests: QUICK ? 1000 : 3000, maxMs: QUICK ? 8_000 : 20_000 });
  for (const [name, s] of Object.entries(res)) log(`latency ${name}: p50 ${s.p50.toFixed(3)} ms, p99 ${s.p99.toFixed(3)} ms (n=${s.n})`);
  return res;
}

interface RoundResult extends Throughput {
  cpuMsPerRequest: Record<string, number>;
}

async function throughputPhase(emu: Emulator, targets: Target[], pids: Record<string, number>): Promise<Record<string, RoundResult[]>> {
  for (const t of targets) await probe(t);
  const out: Record<string, RoundResult[]> = Object.fromEntries(targets.map((t) => [t.name, []]));
  for (const t of targets) await throughput(t, CONNECTIONS, 1); // warm-up: JIT, pools, token
  for (let round = 1; round <= ROUNDS; round++) {
    for (const t of targets) {
      await resetCalls(emu); // keeps the emulator's call log small
      const before = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, cpuMs(pid)]));
      const r = await throughput(t, CONNECTIONS, ROUND_S);
      const cpu = Object.fromEntries(Object.entries(pids).map(([k, pid]) => [k, (cpuMs(pid) - before[k]!) / Math.max(1, r.requests)]));
      out[t.name]!.push({ ...r, cpuMsPerRequest: cpu });
      log(`throughput round ${round} ${t.name}: ${r.rps.toFixed(0)} req/s (non-2xx ${r.non2xx}, errors ${r.errors})`);
    }
  }
  return out;
}

/**
 * CPU per request of each target's own process with all of them loaded at the same time (8
 * connections each), round after round: whatever else the shared machine does then falls on all
 * alike, which the one-after-the-other rounds of the throughput phase cannot promise.
 */
async function sideBySidePhase(
  emu: Emulator,
  entries: { target: Target; process: string; pid: number }[],
): Promise<NonNullable<Results['sideBySide']>> {
  const connections = 8;
  for (const { target } of entries) await probe(target);
  await Promise.all(entries.map(({ target }) => throughput(target, connections, 1)));
  const rounds: NonNullable<Results['sideBySide']>['rounds'] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    await resetCalls(emu);
    const before = entries.map(({ pid }) => cpuMs(pid));
    const runs = await Promise.all(entries.map(({ target }) => throughput(target, connections, ROUND_S)));
    rounds.push(
      Object.fromEntries(
        entries.map(({ target, process, pid }, i) => [
          target.name,
          {
            process,
            rps: runs[i]!.rps,
            cpuMsPerRequest: (cpuMs(pid) - before[i]!) / Math.max(1, runs[i]!.requests),
            non2xx: runs[i]!.non2xx,
          },
        ]),
      ),
    );
    log(
      `side by side round ${round}: ${entries.map(({ target }) => `${target.name} ${(rounds.at(-1)![target.name]!.cpuMsPerRequest * 1000).toFixed(0)} µs`).join(', ')}`,
    );
  }
  return { connections, rounds };
}

/**
 * The same `title` query straight to the service and through each federation gateway in front of
 * it (bench/gateway.ts), in interleaved rounds: what a gateway adds, in CPU per request of its
 * own process, and what the service spends on the gateway's subgraph request.
 */
async function gatewaysPhase(emu: Emulator, svc: Service): Promise<NonNullable<Results['gateways']>> {
  const hive = await startGateway('hive', svc.base);
  const apolloGateway = await startGateway('apollo', svc.base);
  try {
    const variables = { titleNumber: TITLE };
    const targets = [
      gqlTarget(GATEWAY_TARGETS.direct, svc.base, TITLE_QUERY, variables),
      gqlTarget(GATEWAY_TARGETS.hive, hive.base, TITLE_QUERY, variables),
      gqlTarget(GATEWAY_TARGETS.apollo, apolloGateway.base, TITLE_QUERY, variables),
    ];
    const rounds = await throughputPhase(emu, targets, {
      service: svc.pid,
      emulator: emu.pid,
      'Hive Gateway': hive.pid,
      'Apollo Gateway': apolloGateway.pid,
    });
    const direct = median(rounds[GATEWAY_TARGETS.direct]!.map((r) => r.cpuMsPerRequest.service!));
    for (const [target, gateway] of [
      [GATEWAY_TARGETS.hive, 'Hive Gateway'],
      [GATEWAY_TARGETS.apollo, 'Apollo Gateway'],
    ] as const) {
      const own = median(rounds[target]!.map((r) => r.cpuMsPerRequest[gateway]!));
      const service = median(rounds[target]!.map((r) => r.cpuMsPerRequest.service!));
      log(
        `gateways: through ${gateway}: gateway ${own.toFixed(3)} + service ${service.toFixed(3)} ms CPU per request, ${((own + service) / direct).toFixed(2)}× direct (${direct.toFixed(3)} ms)`,
      );
    }
    return { query: TITLE_QUERY, rounds };
  } finally {
    await apolloGateway.stop();
    await hive.stop();
  }
}

async function streamingPhase(
  emu: Emulator,
  svc: Service,
  peer: Peer | undefined,
  token: string,
): Promise<NonNullable<Results['streaming']>> {
  const bought = await gql<{ purchaseTitlePlans: { plans: { planId: string; downloadUrl: string }[]; userErrors: unknown[] } }>(
    svc.base,
    PURCHASE_PLANS,
    { key: `bench-plans-${Date.now()}` },
  );
  const plan = bought.purchaseTitlePlans.plans[0];
  if (!plan) throw new Error(`purchaseTitlePlans gave no plan: ${JSON.stringify(bought)}`);
  const viaService = plan.downloadUrl; // absolute and signed: the service's own origin
  const direct = `${emu.url}/titles/LAN50/plans/${plan.planId}`;
  const directHeaders = { authorization: `Bearer ${token}`, accept: 'application/pdf' };
  const serviceHeaders = { authorization: `Bearer ${API_KEY}` };

  // The first direct download renders the plan in the emulator; both must give the same bytes.
  const first = await download(direct, directHeaders, true);
  const proxied = await download(viaService, serviceHeaders, true);
  if (first.bytes !== PLAN_BYTES || proxied.bytes !== PLAN_BYTES || first.sha256 !== proxied.sha256) {
    throw new Error(`streaming: bytes differ (direct ${first.bytes} ${first.sha256}, service ${proxied.bytes} ${proxied.sha256})`);
  }
  // The bare Node relay (bench/lib/bare-relay.ts): the ceiling of any Node relay through one more loopback hop.
  const relay = await startBareRelay(direct, directHeaders);
  const runs: NonNullable<Results['streaming']>['runs'] = [];
  try {
    const relayed = await download(relay.url, {}, true);
    if (relayed.bytes !== PLAN_BYTES || relayed.sha256 !== first.sha256) {
      throw new Error(`streaming: bytes differ (direct ${first.bytes} ${first.sha256}, bare relay ${relayed.bytes} ${relayed.sha256})`);
    }
    /** CPU ms of each process over one download: where the bytes cost (ms per 50 MB). */
    const cpuOf = async (fn: () => Promise<{ mbPerS: number }>) => {
      const before = { emulator: cpuMs(emu.pid), service: cpuMs(svc.pid), relay: cpuMs(relay.pid), client: process.cpuUsage() };
      const r = await fn();
      const client = process.cpuUsage(before.client);
      return {
        ...r,
        cpu: {
          emulator: cpuMs(emu.pid) - before.emulator,
          service: cpuMs(svc.pid) - before.service,
          relay: cpuMs(relay.pid) - before.relay,
          client: (client.user + client.system) / 1000,
        },
      };
    };
    for (let i = 0; i < (QUICK ? 2 : 6); i++) {
      const d = await cpuOf(() => download(direct, directHeaders));
      const peak = peakRss(svc.pid);
      const s = await cpuOf(() => download(viaService, serviceHeaders));
      const hwm = peak.stop();
      const b = await cpuOf(() => download(relay.url, {}));
      runs.push({
        directMBps: d.mbPerS,
        serviceMBps: s.mbPerS,
        relayMBps: b.mbPerS,
        serviceRssBaseline: peak.baseline,
        serviceRssPeak: hwm,
        serviceRssGrowth: hwm - peak.baseline,
        directCpuMs: d.cpu,
        serviceCpuMs: s.cpu,
        relayCpuMs: b.cpu,
      });
      log(
        `streaming run ${i + 1}: direct ${d.mbPerS.toFixed(0)} MB/s, service ${s.mbPerS.toFixed(0)} MB/s, bare relay ${b.mbPerS.toFixed(0)} MB/s, service RSS +${((hwm - peak.baseline) / 1048576).toFixed(1)} MB`,
      );
    }
  } finally {
    await relay.stop();
  }
  let peerDownload: NonNullable<Results['streaming']>['peer'];
  if (peer) peerDownload = await peerPdf(peer, token, plan.planId);
  const diagnosis = QUICK ? undefined : await streamingDiagnosis(emu);
  return { bytes: PLAN_BYTES, sha256: first.sha256!, runs, peer: peerDownload, diagnosis };
}

/** The same 50 MB plan through the peer: its schema offers `downloadPlan` as a String. */
async function peerPdf(peer: Peer, token: string, planId: string): Promise<NonNullable<Results['streaming']>['peer']> {
  const peak = peakRss(peer.pid);
  const start = process.hrtime.bigint();
  try {
    const res = await request(`${peer.base}/graphql`, {
      method: 'POST',
      headers: { ...json, authorization: `Bearer ${token}` },
      body: JSON.stringify({ query: PEER_DOWNLOAD_PLAN, variables: { titleNumber: 'LAN50', planId } }),
      signal: AbortSignal.timeout(120_000),
      bodyTimeout: 120_000,
      headersTimeout: 120_000,
    });
    const text = await res.body.text();
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    const hwm = peak.stop();
    let outcome = 'unparseable response';
    let pdfDelivered = false;
    try {
      const body = JSON.parse(text) as { data?: { downloadPlan?: { String?: string } | null }; errors?: { message: string }[] };
      const s = body.data?.downloadPlan?.String;
      pdfDelivered = typeof s === 'string' && s.startsWith('%PDF-') && Buffer.byteLength(s, 'latin1') === PLAN_BYTES;
      outcome = body.errors?.length
        ? `GraphQL error: "${body.errors[0]!.message}"`
        : typeof s === 'string'
          ? `PDF as a JSON string of ${s.length} characters${pdfDelivered ? '' : ' (not the original bytes)'}`
          : `no PDF: ${JSON.stringify(body.data).slice(0, 200)}`;
    } catch {
      // keep the default outcome
    }
    log(
      `peer PDF: HTTP ${res.statusCode}, ${(text.length / 1048576).toFixed(1)} MB response in ${seconds.toFixed(1)} s, RSS +${((hwm - peak.baseline) / 1048576).toFixed(0)} MB: ${outcome}`,
    );
    return {
      status: res.statusCode,
      responseBytes: Buffer.byteLength(text),
      seconds,
      rssBaseline: peak.baseline,
      rssPeak: hwm,
      rssGrowth: hwm - peak.baseline,
      pdfDelivered,
      outcome,
    };
  } catch (error) {
    const hwm = peak.stop();
    return {
      status: 0,
      responseBytes: 0,
      seconds: Number(process.hrtime.bigint() - start) / 1e9,
      rssBaseline: peak.baseline,
      rssPeak: hwm,
      rssGrowth: hwm - peak.baseline,
      pdfDelivered: false,
      outcome: `request failed: ${(error as Error).message}`,
    };
  }
}

/**
 * Diagnosis of the RSS growth: the same downloads through a second service process whose V8
 * collects young garbage far more often (--max-semi-space-size=1). If the growth is garbage
 * awaiting collection, it disappears there; buffering would not. Not a configuration: that
 * flag costs GraphQL throughput (bench/experiments/node-flags.ts).
 */
async function streamingDiagnosis(emu: Emulator): Promise<NonNullable<Results['streaming']>['diagnosis']> {
  const nodeArgs = ['--max-semi-space-size=1'];
  const svc = await startService('streaming-diagnosis', emu.url, {}, nodeArgs);
  try {
    const bought = await gql<{ purchaseTitlePlans: { plans: { downloadUrl: string }[] } }>(svc.base, PURCHASE_PLANS, {
      key: `bench-diagnosis-${Date.now()}`,
    });
    const url = bought.purchaseTitlePlans.plans[0]!.downloadUrl;
    const runs: { mbPerS: number; rssGrowth: number; serviceCpuMs: number }[] = [];
    for (let i = 0; i < 4; i++) {
      const cpu = cpuMs(svc.pid);
      const peak = peakRss(svc.pid);
      const d = await download(url, { authorization: `Bearer ${API_KEY}` });
      if (d.bytes !== PLAN_BYTES) throw new Error(`diagnosis download: ${d.bytes} bytes`);
      runs.push({ mbPerS: d.mbPerS, rssGrowth: peak.stop() - peak.baseline, serviceCpuMs: cpuMs(svc.pid) - cpu });
    }
    log(
      `streaming diagnosis (${nodeArgs.join(' ')}): ${runs.map((r) => `${r.mbPerS.toFixed(0)} MB/s +${(r.rssGrowth / 1048576).toFixed(1)} MB`).join(', ')}`,
    );
    return { nodeArgs, runs };
  } finally {
    await svc.stop();
  }
}

interface StreamPart {
  data?: { titles?: unknown[] };
  incremental?: { items?: unknown[]; errors?: unknown[] }[];
  errors?: unknown[];
  hasNext?: boolean;
}

/**
 * One page of titles with @stream (multipart/mixed, read with meros as urql and Relay do): the
 * time to the first part that carries a title, and to the end of the response.
 */
async function streamedPage(base: string, titleNumbers: string[]): Promise<{ firstItemMs: number; totalMs: number; parts: number }> {
  const start = performance.now();
  const res = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'multipart/mixed', authorization: `Bearer ${API_KEY}` },
    body: JSON.stringify({ query: STREAM_QUERY, variables: { titleNumbers } }),
  });
  const type = res.headers.get('content-type') ?? '';
  if (!type.startsWith('multipart/mixed')) throw new Error(`@stream: HTTP ${res.status}, ${type}: ${(await res.text()).slice(0, 300)}`);
  const stream = (await meros<StreamPart>(res)) as AsyncIterable<{ json: boolean; body: StreamPart }>;
  let firstItemMs: number | undefined;
  let items = 0;
  let parts = 0;
  for await (const part of stream) {
    parts++;
    const body = part.body;
    if (body.errors?.length || body.incremental?.some((i) => i.errors?.length)) {
      throw new Error(`@stream: errors in part ${parts}: ${JSON.stringify(body).slice(0, 300)}`);
    }
    const n = (body.data?.titles?.length ?? 0) + (body.incremental ?? []).reduce((a, i) => a + (i.items?.length ?? 0), 0);
    if (n > 0 && firstItemMs === undefined) firstItemMs = performance.now() - start;
    items += n;
  }
  const totalMs = performance.now() - start;
  if (firstItemMs === undefined || items !== titleNumbers.length) throw new Error(`@stream: ${items} titles of ${titleNumbers.length}`);
  return { firstItemMs, totalMs, parts };
}

async function batchingPhase(emu0: Emulator, svc0: Service): Promise<NonNullable<Results['batching']>> {
  // The same requests with no register latency: the processing time that the waves add to, at
  // steady state (each document run past GRAPHQL_JIT_AFTER first, as below).
  for (let i = 0; i < 11; i++) {
    for (const query of [BATCH_QUERY, BATCH_QUERY_NO_SECURITIES]) await gql(svc0.base, query, { titleNumbers: ['BLK4999', 'BLK4998'] });
  }
  const atZero: { withSecurities: boolean; ms: number }[] = [];
  for (let i = 0; i < 3; i++) {
    for (const withSecurities of [true, false]) {
      const titleNumbers = Array.from({ length: 100 }, (_, k) => `BLK${3000 + i * 100 + k + 1}`);
      const start = performance.now();
      await gql(svc0.base, withSecurities ? BATCH_QUERY : BATCH_QUERY_NO_SECURITIES, { titleNumbers });
      atZero.push({ withSecurities, ms: performance.now() - start });
    }
  }
  await resetCalls(emu0);
  const latencyMs = 50;
  const emu = await startEmulatorProcess(latencyMs);
  const svc = await startService('batching', emu.url, { REGISTER_CONCURRENCY: '16' });
  try {
    const concurrency = 16;
    // Steady state, as for a front end's page query sent all day: the token fetched, V8 warm, and
    // each document run past GRAPHQL_JIT_AFTER (default 10) so that graphql-jit executes it.
    for (let i = 0; i < 11; i++) {
      for (const query of [BATCH_QUERY, BATCH_QUERY_NO_SECURITIES]) await gql(svc.base, query, { titleNumbers: ['BLK4999', 'BLK4998'] });
    }
    const runs: NonNullable<Results['batching']>['runs'] = [];
    for (let i = 0; i < (QUICK ? 2 : 3); i++) {
      for (const withSecurities of [true, false]) {
        const offset = 1000 + (i * 2 + (withSecurities ? 0 : 1)) * 100;
        const titleNumbers = Array.from({ length: 100 }, (_, k) => `BLK${offset + k + 1}`);
        await resetCalls(emu);
        const start = performance.now();
        const data = await gql<{ titles: ({ status: string } | null)[] }>(
          svc.base,
          withSecurities ? BATCH_QUERY : BATCH_QUERY_NO_SECURITIES,
          { titleNumbers },
        );
        const ms = performance.now() - start;
        const calls = countByRoute(await emulatorCalls(emu));
        if (data.titles.filter(Boolean).length !== 100) throw new Error('batching: not 100 titles');
        runs.push({ withSecurities, ms, calls });
        log(`batching ${withSecurities ? 'with' : 'without'} securities: ${ms.toFixed(0)} ms, calls ${JSON.stringify(calls)}`);
      }
    }
    // The same page of summaries with @stream: the first title should not wait for the page.
    const stream: NonNullable<NonNullable<Results['batching']>['stream']>['runs'] = [];
    for (let i = 0; i < (QUICK ? 2 : 3); i++) {
      const titleNumbers = Array.from({ length: 100 }, (_, k) => `BLK${2000 + i * 100 + k + 1}`);
      const r = await streamedPage(svc.base, titleNumbers);
      stream.push(r);
      log(`@stream titles(100): first title after ${r.firstItemMs.toFixed(0)} ms, all after ${r.totalMs.toFixed(0)} ms (${r.parts} parts)`);
    }
    return { latencyMs, concurrency, titles: 100, runs, atZeroLatency: atZero, stream: { query: STREAM_QUERY, runs: stream } };
  } finally {
    await svc.stop();
    await emu.stop();
  }
}

async function profilePhase(emu: Emulator): Promise<NonNullable<Results['profiles']>> {
  const dir = join(LOG_DIR, 'profiles');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const out: NonNullable<Results['profiles']> = {};
  for (const [name, query, variables] of [
    ['title', TITLE_QUERY, { titleNumber: TITLE }],
    ['typename', TYPENAME_QUERY, undefined],
  ] as const) {
    const svc = await startService(`profile-${name}`, emu.url, {}, [
      '--cpu-prof',
      `--cpu-prof-dir=${dir}`,
      `--cpu-prof-name=${name}.cpuprofile`,
    ]);
    const t = gqlTarget(name, svc.base, query, variables);
    await probe(t);
    await throughput(t, CONNECTIONS, 1);
    const fromMs = Date.now() - svc.spawnedAt;
    const r = await throughput(t, CONNECTIONS, QUICK ? 3 : 5);
    const toMs = Date.now() - svc.spawnedAt;
    await svc.stop();
    const file = join(dir, `${name}.cpuprofile`);
    if (!existsSync(file)) throw new Error(`no profile written for ${name} (${readdirSync(dir).join(', ')})`);
    // only the measured load: start-up, module loading and warm-up are left out
    const summary: ProfileSummary = summariseProfile(file, 20, { fromMs, toMs });
    out[name] = { ...summary, requests: r.requests, rps: r.rps, busyMsPerRequest: summary.busyMs / Math.max(1, r.requests) };
    log(`profile ${name}: ${r.rps.toFixed(0)} req/s under --cpu-prof, ${(summary.busyMs / r.requests).toFixed(3)} ms busy per request`);
  }
  return out;
}

// ------------------------------------------------------------------ main

async function main() {
  const results: Results = {
    meta: {
      date: new Date().toISOString(),
      node: process.version,
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model ?? 'unknown',
      loadavgAtStart: loadavg(),
      commit: spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim(),
      dirty:
        spawnSync('git', ['status', '--porcelain', '--untracked-files=no', 'src'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim() !== '',
      quick: QUICK,
      only: ONLY ? [...ONLY] : undefined,
      connections: CONNECTIONS,
      roundSeconds: ROUND_S,
      rounds: ROUNDS,
    },
  };

  let peerError: string | undefined;
  let peer: Peer | undefined;
  let apolloError: string | undefined;
  let apollo: Peer | undefined;
  const needPeer = WANT_PEER && (run('latency') || run('throughput') || run('streaming'));
  const needApollo = WANT_PEER && (run('latency') || run('throughput'));
  if (needPeer) {
    const installed = ensurePeerInstalled();
    if (!installed.ok) peerError = apolloError = installed.error;
  } else if (!WANT_PEER) peerError = apolloError = 'skipped (--no-peer)';

  log('starting the register emulator and the service (NODE_ENV=production, src/main.ts compiled)');
  const emu = await startEmulatorProcess(0);
  const svc = await startService('service', emu.url);
  let baseline: (BaselineCheckout & { svc: Service }) | undefined;
  try {
    if (BASELINE_REF && run('throughput')) {
      const checkout = baselineCheckout(BASELINE_REF);
      log(`starting the baseline: ${checkout.ref} (${checkout.sha}) from a git worktree at ${checkout.root}`);
      baseline = { ...checkout, svc: await startService('baseline', emu.url, {}, [], checkout.root) };
      results.meta.baseline = { ref: checkout.ref, sha: checkout.sha };
    }
    if (needPeer && !peerError) {
      log("composing the peer from the emulator's /v1/openapi.json (Mesh Compose) and starting Hive Gateway");
      const composed = composePeer(emu);
      if (composed.ok) {
        try {
          peer = await startPeer(composed.supergraph);
        } catch (e) {
          peerError = `Hive Gateway did not start: ${(e as Error).message}`;
        }
      } else peerError = composed.error;
      if (peerError) log(`peer unavailable: ${peerError}`);
    }
    results.peer = { available: !!peer, ...(peerError ? { error: peerError } : {}) };
    if (needApollo && !apolloError) {
      log('starting the second peer: Apollo Server 5 + @apollo/datasource-rest (bench/peers/apollo-peer.mjs)');
      try {
        apollo = await startApolloPeer(emu.url);
      } catch (e) {
        apolloError = `Apollo Server peer did not start: ${(e as Error).message}`;
        log(`Apollo peer unavailable: ${apolloError}`);
      }
    }
    if (needApollo || !WANT_PEER) results.apolloPeer = { available: !!apollo, ...(apolloError ? { error: apolloError } : {}) };

    if (run('economy')) {
      log('3. register economy');
      results.economy = await economyPhase(emu, svc);
    }

    let token = await registerToken(emu.url);
    const rest = restTarget('REST direct', `${emu.url}/titles/${TITLE}/summary`, token);
    const ours = gqlTarget('GraphQL title', svc.base, TITLE_QUERY, { titleNumber: TITLE });
    const baselineTitle = baseline ? [gqlTarget(BASELINE_TARGET, baseline.svc.base, TITLE_QUERY, { titleNumber: TITLE })] : [];
    const peerTitle = (tok: string) =>
      peer
        ? [
            {
              ...gqlTarget('peer title', peer.base, PEER_TITLE_QUERY, { titleNumber: TITLE }),
              headers: { ...json, authorization: `Bearer ${tok}` },
            },
          ]
        : [];
    // The Apollo Server peer takes our query text as it is; like the Mesh peer, it is given a register token.
    const apolloTitle = (tok: string) =>
      apollo
        ? [
            {
              ...gqlTarget(APOLLO_TARGET, apollo.base, TITLE_QUERY, { titleNumber: TITLE }),
              headers: { ...json, authorization: `Bearer ${tok}` },
            },
          ]
        : [];

    if (run('latency')) {
      log('1. added latency: one connection each, sequential, interleaved request by request');
      const floor = gqlTarget('GraphQL { __typename }', svc.base, TYPENAME_QUERY);
      results.latency = await latencyPhase([rest, ours, floor, ...peerTitle(token), ...apolloTitle(token)]);
    }

    if (run('throughput')) {
      log(`2. throughput: ${CONNECTIONS} connections, ${ROUNDS} interleaved rounds of ${ROUND_S} s`);
      token = await registerToken(emu.url);
      const typename = gqlTarget('GraphQL { __typename }', svc.base, TYPENAME_QUERY);
      const pids: Record<string, number> = {
        service: svc.pid,
        emulator: emu.pid,
        ...(peer ? { peer: peer.pid } : {}),
        ...(apollo ? { apollo: apollo.pid } : {}),
        ...(baseline ? { baseline: baseline.svc.pid } : {}),
      };
      results.throughput = await throughputPhase(
        emu,
        [
          typename,
          ours,
          // beside ours and the Apollo peer's, so that the ratios compare neighbours
          ...baselineTitle,
          ...apolloTitle(token),
          ...peerTitle(token),
          { ...rest, headers: { ...rest.headers, authorization: `Bearer ${token}` } },
        ],
        pids,
      );
      for (const line of ratioLines(results.throughput)) log(line);
      if (apollo) {
        log('2a. CPU per request side by side: ours, the Apollo peer (and the baseline) loaded at the same time, 8 connections each');
        results.sideBySide = await sideBySidePhase(emu, [
          { target: ours, process: 'service', pid: svc.pid },
          ...(baseline ? [{ target: baselineTitle[0]!, process: 'baseline', pid: baseline.svc.pid }] : []),
          { target: apolloTitle(token)[0]!, process: 'apollo', pid: apollo.pid },
        ]);
        for (const [a, b] of [
          ['GraphQL title', APOLLO_TARGET],
          [BASELINE_TARGET, APOLLO_TARGET],
          ['GraphQL title', BASELINE_TARGET],
        ]) {
          const ratios = sideBySideRatios(results.sideBySide, a!, b!);
          if (ratios.length)
            log(
              `side by side: ${a} ÷ ${b}: CPU per request ${[...ratios].sort((x, y) => x - y)[ratios.length >> 1]!.toFixed(2)} (rounds ${ratios.map((v) => v.toFixed(2)).join(', ')})`,
            );
        }
      }
    }

    if (run('gateways')) {
      log('2b. through federation gateways: the same `title` direct, through Hive Gateway and through Apollo Gateway, interleaved');
      results.gateways = await gatewaysPhase(emu, svc);
    }

    if (run('streaming')) {
      log('5. streaming a 50 MB plan: direct, through the service and through a bare Node relay, interleaved; then through the peer');
      token = await registerToken(emu.url);
      results.streaming = await streamingPhase(emu, svc, peer, token);
    }

    if (run('batching')) {
      log('4. batching latency: emulator latency 50 ms, titles(100) with and without securities');
      results.batching = await batchingPhase(emu, svc);
    }

    if (run('apq-flood')) {
      log("4b. persisted queries: one caller's hash-only hits, quiet and during registration floods");
      results.apqFlood = await apqFloodPhase(svc.base, { seconds: QUICK ? 3 : 8 });
    }

    if (run('spend-cpu')) {
      log('4c. spend control: CPU per purchase with and without spending limits, interleaved rounds');
      results.spendCpu = await spendCpuPhase(emu, { seconds: QUICK ? 2 : 4, rounds: QUICK ? 2 : 5 });
    }

    if (run('profile')) {
      log('profiles: the service under --cpu-prof, title and { __typename } at 16 connections');
      results.profiles = await profilePhase(emu);
      if (BASELINE_REF) {
        const checkout = baselineCheckout(BASELINE_REF);
        log(`profiles: title on this checkout and on the baseline ${checkout.sha}, side by side under --cpu-prof`);
        results.profileVsBaseline = await profileSideBySide(
          emu,
          [
            { name: 'this commit', root: ROOT },
            { name: `baseline ${checkout.sha}`, root: checkout.root },
          ],
          TITLE_QUERY,
          { titleNumber: TITLE },
          QUICK ? 3 : 6,
        );
      }
    }
  } finally {
    await baseline?.svc.stop();
    await apollo?.stop();
    await peer?.stop();
    await svc.stop();
    await emu.stop();
  }

  results.meta.seconds = (Date.now() - T0) / 1000;
  results.meta.loadavgAtEnd = loadavg();
  const written = writeReport(results, join(ROOT, 'bench'), { partial: !!ONLY });
  log(`done in ${results.meta.seconds.toFixed(0)} s: ${written.join(', ')}`);
}

// --report-only: RESULTS.md and chart.svg written again from bench/results.json (after the report's wording changed), nothing run.
if (argv.includes('--report-only')) {
  const saved = JSON.parse(readFileSync(join(ROOT, 'bench', 'results.json'), 'utf8')) as Results & { goals?: unknown };
  delete saved.goals;
  console.log(`[bench] written again: ${writeReport(saved, join(ROOT, 'bench'), { partial: false }).join(', ')}`);
  process.exit(0);
}

// Bounded in time whatever happens: a hung phase ends the run (and every child) after 10 minutes.
const watchdog = setTimeout(() => {
  console.error('[bench] still running after 10 minutes: stopping');
  killAll();
  process.exit(2);
}, 600_000);
watchdog.unref();

main().catch((error) => {
  console.error('[bench] failed:', error);
  killAll();
  process.exit(1);
});
