/**
 * `npm run soak [-- --seconds 120 --concurrency 8 --sample-seconds 5 --database-url postgres://…]`
 *
 * A bounded soak of the real service (`src/main.ts`, production settings) in a child process,
 * in front of the register emulator in this process, all on loopback. Workers drive a mix of
 * free queries and idempotent mutations (new keys, replays of earlier keys, cases) for the
 * given time; every few seconds the service's RSS and heap (after a full GC) are sampled.
 * Reports requests, errors (must be zero), throughput and the memory slope, then stops the
 * service with SIGTERM (must exit 0). Exits 1 on any error, on heap growth after warm-up beyond
 * the bound, or on an unclean shutdown.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startEmulator } from '../src/emulator';
import { DEV_API_KEYS } from '../src/services/callers';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '120' },
    concurrency: { type: 'string', default: '8' },
    'sample-seconds': { type: 'string', default: '5' },
    'warmup-seconds': { type: 'string' },
    /** Allowed heap growth (after GC) from the end of warm-up to the end, in MiB and as a fraction; the larger applies. */
    'max-heap-growth-mb': { type: 'string', default: '8' },
    'max-heap-growth-ratio': { type: 'string', default: '0.15' },
    'database-url': { type: 'string' },
    seed: { type: 'string', default: '1' },
  },
});

const num = (name: keyof typeof args, min: number) => {
  const value = Number(args[name]);
  if (!Number.isFinite(value) || value < min) throw new Error(`--${name} must be a number >= ${min}`);
  return value;
};
const SECONDS = num('seconds', 1);
const CONCURRENCY = Math.floor(num('concurrency', 1));
const SAMPLE_MS = num('sample-seconds', 0.5) * 1000;
const WARMUP_MS = args['warmup-seconds'] !== undefined ? num('warmup-seconds', 0) * 1000 : Math.min(30_000, SECONDS * 250);
const MAX_GROWTH_MB = num('max-heap-growth-mb', 0);
const MAX_GROWTH_RATIO = num('max-heap-growth-ratio', 0);
const ROOT = resolve(import.meta.dirname, '..');
const MiB = 1024 * 1024;

// Seeded PRNG (mulberry32): the same mix for the same --seed.
let state = Number(args.seed) >>> 0 || 1;
const random = () => {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};
const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
const blk = () => `BLK${1 + Math.floor(random() * 5000)}`;

const Q = {
  title: `query Title($titleNumber: TitleNumber!) { title(titleNumber: $titleNumber) { titleNumber status right { description addresses { street town postcode } } plans { description } applications { applicationNumber } } }`,
  titles: `query Titles($titleNumbers: [TitleNumber!]!) { titles(titleNumbers: $titleNumbers) { titleNumber status } }`,
  securities: `query Securities($titleNumber: TitleNumber!) { title(titleNumber: $titleNumber) { titleNumber securities { id specification dateOfRegistration } } }`,
  creditors: `query Creditors($query: String!) { creditors(query: $query) { designation creditorCode } }`,
  referenceList: `query ReferenceList($path: String!) { referenceList(path: $path) { name items(includeInactive: true) { label value active } } }`,
  purchase: `mutation PurchaseTitleDetails($fas: FasNumber!, $input: PurchaseTitleInput!) { purchaseTitleDetails(fas: $fas, input: $input) { details { titleNumber proprietorships { description } securities { creditor } } charges { productType fee fas transactionNumber } userErrors { code message field } } }`,
  createCase: `mutation CreateCase($fas: FasNumber!, $input: CreateCaseInput!) { createCase(fas: $fas, input: $input) { case { id reference titleNumbers } userErrors { code message field } } }`,
};

interface Op {
  name: string;
  query: string;
  variables: Record<string, unknown>;
  key: string;
  /** Checks the data; returns a problem, or undefined. */
  check(data: any): string | undefined;
}

/** Results of mutations already done, keyed by idempotency key, for replays (bounded). */
const done = new Map<string, { op: Op; data: string }>();
const recentKeys: string[] = [];
let keyCounter = 0;
const newKey = (label: string) => `soak-${label}-${process.pid}-${++keyCounter}`;
const userErrorsOf = (payload: { userErrors?: unknown[] } | undefined) =>
  payload?.userErrors && payload.userErrors.length > 0 ? `userErrors ${JSON.stringify(payload.userErrors)}` : undefined;

function nextOp(): Op {
  const r = random();
  const key = random() < 0.5 ? 'dev-key-a' : 'dev-key-b';
  const fas = key === 'dev-key-a' ? { title: '0877', case: '1877' } : { title: '5555', case: '5877' };
  if (r < 0.25) {
    const titleNumber = random() < 0.2 ? pick(['MID15313', 'MID1234', 'LAN50']) : blk();
    return {
      name: 'title',
      query: Q.title,
      variables: { titleNumber },
      key,
      check: (d) => (d?.title?.titleNumber === titleNumber ? undefined : 'title missing'),
    };
  }
  if (r < 0.37) {
    const titleNumbers = Array.from({ length: 1 + Math.floor(random() * 10) }, blk);
    return {
      name: 'titles',
      query: Q.titles,
      variables: { titleNumbers },
      key,
      check: (d) => (d?.titles?.length === titleNumbers.length ? undefined : 'titles length'),
    };
  }
  if (r < 0.47) {
    const titleNumber = blk();
    return {
      name: 'securities',
      query: Q.securities,
      variables: { titleNumber },
      key,
      check: (d) => (Array.isArray(d?.title?.securities) ? undefined : 'securities missing'),
    };
  }
  if (r < 0.55) {
    return {
      name: 'creditors',
      query: Q.creditors,
      variables: { query: pick(['Santander', 'Bank', 'Building', 'Lloyds', 'Nationwide']) },
      key,
      check: (d) => (Array.isArray(d?.creditors) ? undefined : 'creditors missing'),
    };
  }
  if (r < 0.6) {
    return {
      name: 'referenceList',
      query: Q.referenceList,
      variables: { path: 'lr/application/deed/type' },
      key,
      check: (d) => (d?.referenceList?.items?.length ? undefined : 'reference list empty'),
    };
  }
  if (r < 0.72 && recentKeys.length > 0) {
    // Replay: the same key and input again → the first result, byte for byte.
    const previous = done.get(pick(recentKeys))!;
    return {
      ...previous.op,
      name: `replay:${previous.op.name}`,
      check: (d) => (JSON.stringify(d) === previous.data ? undefined : 'replay differs from the first result'),
    };
  }
  if (r < 0.92) {
    const idempotencyKey = newKey('details');
    const titleNumber = blk();
    return {
      name: 'purchaseTitleDetails',
      query: Q.purchase,
      variables: { fas: fas.title, input: { titleNumber, reference: 'soak', idempotencyKey } },
      key,
      check: (d) =>
        userErrorsOf(d?.purchaseTitleDetails) ??
        (d?.purchaseTitleDetails?.details?.titleNumber === titleNumber ? undefined : 'details missing'),
    };
  }
  const idempotencyKey = newKey('case');
  return {
    name: 'createCase',
    query: Q.createCase,
    variables: {
      fas: fas.case,
      input: {
        reference: `Soak ${keyCounter}`,
        contactEmail: 'cases@soak.example',
        contactTelephone: '0131 496 0000',
        titleNumbers: [blk()],
        idempotencyKey,
      },
    },
    key,
    check: (d) => userErrorsOf(d?.createCase) ?? (/^RLP/.test(d?.createCase?.case?.id ?? '') ? undefined : 'case id missing'),
  };
}

interface Sample {
  t: number;
  rss: number;
  heapUsed: number;
}

async function main() {
  const emulator = await startEmulator({ port: 0, dailyQuota: 100_000_000 });
  const dataDir = mkdtempSync(join(tmpdir(), 'titlegraph-soak-'));
  const tenantsFile = join(dataDir, 'tenants.json');
  writeFileSync(tenantsFile, JSON.stringify({ tenants: DEV_API_KEYS }));

  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of ['DATABASE_URL', 'REGISTER_CLIENT_ID', 'REGISTER_CLIENT_SECRET', 'TITLEGRAPH_API_KEY_SHA256']) delete env[name];
  Object.assign(env, {
    NODE_ENV: 'production',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    REGISTER_BASE_URL: emulator.url,
    TITLEGRAPH_TENANTS_FILE: tenantsFile,
    // the emulator's quota is lifted for the soak: lift the service's and the client budget too
    REGISTER_DAILY_QUOTA: '1000000000',
    CLIENT_BUDGET_BURST: '0',
    ...(args['database-url']
      ? { DATABASE_URL: args['database-url'], DOWNLOAD_LINK_SECRET: 'soak-download-link-signing-key-32-chars-at-least' }
      : {}),
  });
  const service: ChildProcess = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', '--import', './bench/soak-probe.ts', 'src/main.ts'],
    {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    },
  );
  let serviceOutput = '';
  service.stdout!.setEncoding('utf8').on('data', (c: string) => (serviceOutput += c));
  service.stderr!.setEncoding('utf8').on('data', (c: string) => (serviceOutput += c));
  const exited = once(service, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;

  const port = await new Promise<number>((ok, fail) => {
    const timer = setInterval(() => {
      const m = /GraphQL at http:\/\/localhost:(\d+)\/graphql/.exec(serviceOutput);
      if (m) {
        clearInterval(timer);
        ok(Number(m[1]));
      }
    }, 50);
    void exited.then(([code]) => {
      clearInterval(timer);
      fail(new Error(`service exited (${code}) before listening:\n${serviceOutput}`));
    });
  });
  const url = `http://127.0.0.1:${port}/graphql`;
  console.log(
    `soak: ${SECONDS}s, ${CONCURRENCY} workers, service pid ${service.pid} at ${url}, emulator ${emulator.origin}, store ${args['database-url'] ? 'PostgreSQL' : 'SQLite'}`,
  );

  const samples: Sample[] = [];
  const started = Date.now();
  const sample = () =>
    new Promise<void>((ok) => {
      const onMessage = (m: any) => {
        if (m?.kind !== 'memory') return;
        service.off('message', onMessage);
        samples.push({ t: Date.now() - started, rss: m.rss, heapUsed: m.heapUsed });
        ok();
      };
      service.on('message', onMessage);
      service.send('sample');
    });

  const counts = new Map<string, number>();
  const errors: string[] = [];
  let total = 0;
  let errorCount = 0;
  const latencies: number[] = [];
  const endAt = started + SECONDS * 1000;

  async function worker() {
    while (Date.now() < endAt) {
      const op = nextOp();
      const t0 = performance.now();
      let problem: string | undefined;
      try {
        const response = await fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', authorization: `Bearer ${op.key}` },
          body: JSON.stringify({ query: op.query, variables: op.variables }),
        });
        const body = (await response.json()) as { data?: any; errors?: unknown[] };
        if (response.status !== 200) problem = `HTTP ${response.status} ${JSON.stringify(body).slice(0, 300)}`;
        else if (body.errors) problem = `errors ${JSON.stringify(body.errors).slice(0, 300)}`;
        else problem = op.check(body.data);
        if (!problem && (op.name === 'purchaseTitleDetails' || op.name === 'createCase')) {
          const key = (op.variables.input as { idempotencyKey: string }).idempotencyKey;
          done.set(key, { op, data: JSON.stringify(body.data) });
          recentKeys.push(key);
          if (recentKeys.length > 500) done.delete(recentKeys.shift()!);
        }
      } catch (error) {
        problem = `request failed: ${(error as Error).message}`;
      }
      latencies.push(performance.now() - t0);
      total++;
      counts.set(op.name, (counts.get(op.name) ?? 0) + 1);
      if (problem) {
        errorCount++;
        if (errors.length < 20) errors.push(`${op.name}: ${problem}`);
      }
    }
  }

  await sample();
  const sampler = setInterval(async () => {
    emulator.calls.reset(); // the emulator's call log is this process's memory, not the service's
    await sample();
    const last = samples.at(-1)!;
    console.log(
      `  t=${String(Math.round(last.t / 1000)).padStart(4)}s requests=${total} errors=${errorCount} rss=${(last.rss / MiB).toFixed(1)}MiB heap=${(last.heapUsed / MiB).toFixed(1)}MiB`,
    );
  }, SAMPLE_MS);
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  clearInterval(sampler);
  await sample();
  const elapsed = (Date.now() - started) / 1000;

  service.kill('SIGTERM');
  const [exitCode, exitSignal] = await Promise.race([
    exited,
    new Promise<[number | null, NodeJS.Signals | null]>((ok) => setTimeout(() => ok([null, 'SIGKILL']), 30_000)),
  ]);
  if (exitSignal === 'SIGKILL') service.kill('SIGKILL');
  await emulator.close();
  rmSync(dataDir, { recursive: true, force: true });

  // Memory: heap (after GC) at the end of warm-up vs at the end; and the least-squares slope after warm-up.
  const steady = samples.filter((s) => s.t >= WARMUP_MS);
  const baseline = steady[0] ?? samples[0]!;
  const last = samples.at(-1)!;
  const growth = last.heapUsed - baseline.heapUsed;
  const allowed = Math.max(MAX_GROWTH_MB * MiB, MAX_GROWTH_RATIO * baseline.heapUsed);
  const slope = (key: 'heapUsed' | 'rss') => {
    if (steady.length < 2) return 0;
    const n = steady.length;
    const mt = steady.reduce((a, s) => a + s.t, 0) / n;
    const mv = steady.reduce((a, s) => a + s[key], 0) / n;
    const num = steady.reduce((a, s) => a + (s.t - mt) * (s[key] - mv), 0);
    const den = steady.reduce((a, s) => a + (s.t - mt) ** 2, 0);
    return den === 0 ? 0 : (num / den) * 60_000; // bytes per minute
  };
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]?.toFixed(1);

  console.log('\nsoak results');
  console.log(`  duration           ${elapsed.toFixed(1)} s (${CONCURRENCY} workers, warm-up ${(WARMUP_MS / 1000).toFixed(0)} s)`);
  console.log(`  requests           ${total} (${(total / elapsed).toFixed(0)}/s), latency p50 ${pct(0.5)} ms, p99 ${pct(0.99)} ms`);
  console.log(
    `  mix                ${[...counts]
      .sort((a, b) => b[1] - a[1])
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}`,
  );
  console.log(`  errors             ${errorCount}`);
  for (const e of errors) console.log(`    ${e}`);
  console.log(`  register           ${emulator.ledger.count()} charges, ${emulator.state.cases.size} cases in the emulator`);
  console.log(
    `  heap (after GC)    start ${(samples[0]!.heapUsed / MiB).toFixed(1)} MiB, after warm-up ${(baseline.heapUsed / MiB).toFixed(1)} MiB, end ${(last.heapUsed / MiB).toFixed(1)} MiB, growth ${(growth / MiB).toFixed(2)} MiB (allowed ${(allowed / MiB).toFixed(1)}), slope ${(slope('heapUsed') / MiB).toFixed(2)} MiB/min`,
  );
  console.log(
    `  rss                start ${(samples[0]!.rss / MiB).toFixed(1)} MiB, after warm-up ${(baseline.rss / MiB).toFixed(1)} MiB, end ${(last.rss / MiB).toFixed(1)} MiB, slope ${(slope('rss') / MiB).toFixed(2)} MiB/min`,
  );
  console.log(`  shutdown           exit ${exitCode ?? exitSignal}`);

  const failures = [
    ...(errorCount > 0 ? [`${errorCount} errors`] : []),
    ...(total === 0 ? ['no requests completed'] : []),
    ...(growth > allowed ? [`heap grew ${(growth / MiB).toFixed(2)} MiB after warm-up (allowed ${(allowed / MiB).toFixed(1)})`] : []),
    ...(exitCode !== 0 ? [`service exit ${exitCode ?? exitSignal} on SIGTERM`] : []),
  ];
  if (failures.length > 0) {
    console.log(`\nsoak FAILED: ${failures.join('; ')}`);
    if (exitCode !== 0) console.log(serviceOutput.slice(-2000));
    process.exit(1);
  }
  console.log('\nsoak passed');
}

await main();
