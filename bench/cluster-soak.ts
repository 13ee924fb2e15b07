/**
 * `npm run soak:cluster [-- --seconds 60 --concurrency 12 --database-url postgres://…]`
 *
 * titlegraph as it is deployed beyond one machine: three replicas of `src/main.ts` on one
 * PostgreSQL database, behind HAProxy (Debian's `haproxy`, installed with apt-get when missing),
 * in front of one register emulator (in this process, so its ledger can be read). Workers send
 * mixed traffic from three API clients of two organisations: free title queries, purchases with
 * new keys and replays, cases, and document downloads. Mid-run one replica is killed (SIGKILL)
 * and started again. Afterwards it checks, on the emulator's own records:
 * - no double charge: at most one ledger charge per key (each key buys its own title);
 * - every ledger charge is in the journal (`chargeRecords`), CHARGED or OUTCOME_UNKNOWN for its key;
 * - `registerUsage` is the same on every replica, and equal to the emulator's own count, give
 *   or take the calls cut by the kill: a call is counted when admitted, just before it is sent,
 *   so a replica killed between the two leaves it counted though the register never saw it
 *   (the count errs on the safe side: it never falls below the register's).
 * Prints the figures; exits 1 when a check fails.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { startEmulator } from '../src/emulator';
import { londonDate } from '../src/register/contract/london-day';
import { startService, type Service } from './lib/procs';

const { values: args } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    concurrency: { type: 'string', default: '12' },
    'database-url': { type: 'string', default: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres' },
  },
});
const SECONDS = Number(args.seconds);
const CONCURRENCY = Number(args.concurrency);
const CALLERS = [
  { key: 'dev-key-a', organisation: 'ORG-A', fas: '0877', caseFas: '1877' },
  { key: 'dev-key-a2', organisation: 'ORG-A', fas: '1234', caseFas: '1877' },
  { key: 'dev-key-b', organisation: 'ORG-B', fas: '5555', caseFas: '5877' },
] as const;
type Caller = (typeof CALLERS)[number];

function ensureHaproxy(): string {
  const found = spawnSync('sh', ['-c', 'command -v haproxy'], { encoding: 'utf8' }).stdout.trim();
  if (found) return found;
  console.log('haproxy not found: installing Debian package haproxy (apt-get)');
  const install = spawnSync(
    'sh',
    ['-c', 'apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends haproxy'],
    {
      stdio: 'inherit',
    },
  );
  const after = spawnSync('sh', ['-c', 'command -v haproxy'], { encoding: 'utf8' }).stdout.trim();
  if (install.status !== 0 || !after) throw new Error('haproxy is needed: apt-get install haproxy');
  return after;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function createDatabase(adminUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `titlegraph_cluster_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

async function graphql(base: string, caller: Caller, query: string, variables: unknown = {}) {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${caller.key}` },
    body: JSON.stringify({ query, variables }),
  });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) as { data?: any; errors?: { extensions?: { code?: string } }[] } };
  } catch {
    return { status: response.status, body: { errors: [{ extensions: { code: `HTTP_${response.status}` } }] } };
  }
}

const Q = {
  title: 'query ($t: TitleNumber!) { title(titleNumber: $t) { titleNumber status right { addresses { town } } } }',
  purchase:
    'mutation ($fas: FasNumber!, $input: PurchaseTitleInput!) { purchaseTitleDetails(fas: $fas, input: $input) { details { titleNumber } charges { transactionNumber fee } userErrors { code } } }',
  order:
    'mutation ($fas: FasNumber!, $input: OrderTitleDocumentInput!) { orderTitleDocument(fas: $fas, input: $input) { document { downloadUrl } charges { transactionNumber } userErrors { code } } }',
  createCase:
    'mutation ($fas: FasNumber!, $input: CreateCaseInput!) { createCase(fas: $fas, input: $input) { case { id } userErrors { code } } }',
  usage: '{ registerUsage { day calls blockedUntil } }',
  journal: 'query ($day: Date!) { chargeRecords(day: $day) { status idempotencyKey titleNumber charge { transactionNumber } } }',
};

async function main() {
  const haproxy = ensureHaproxy();
  const database = await createDatabase(args['database-url']!);
  const emulator = await startEmulator({ port: 0, dailyQuota: 1e9, largePlanBytes: 1024 * 1024 });
  const work = mkdtempSync(join(tmpdir(), 'titlegraph-cluster-'));
  const ports = await Promise.all([freePort(), freePort(), freePort()]);
  const linkSecret = randomBytes(32).toString('base64url');
  const lbPort = await freePort();
  // Shared by every replica: the database; the quota policy (here lifted for load, but the same
  // everywhere); the tenants. Each replica has its own data folder and port.
  const env = (port: number) => ({
    PORT: String(port),
    DATABASE_URL: database.url,
    // one signing key for all: a download link made by one replica is followed on another
    DOWNLOAD_LINK_SECRET: linkSecret,
    REGISTER_DAILY_QUOTA: '1000000000',
    CLIENT_BUDGET_BURST: '0',
    LOG_LEVEL: 'warn',
  });
  const replicas: Service[] = await Promise.all(ports.map((port, i) => startService(`cluster-${i}`, emulator.url, env(port))));
  const config = join(work, 'haproxy.cfg');
  writeFileSync(
    config,
    [
      'global',
      '  maxconn 2048',
      'defaults',
      '  mode http',
      '  timeout connect 2s',
      '  timeout client 60s',
      '  timeout server 60s',
      // Only a connection that never reached a replica is tried on another: never a request a replica may have run.
      '  retries 2',
      '  option redispatch',
      'frontend api',
      `  bind 127.0.0.1:${lbPort}`,
      '  default_backend replicas',
      'backend replicas',
      '  balance roundrobin',
      '  option httpchk GET /health',
      ...ports.map((port, i) => `  server r${i} 127.0.0.1:${port} check inter 500ms fall 2 rise 2`),
      '',
    ].join('\n'),
  );
  const lb: ChildProcess = spawn(haproxy, ['-f', config, '-db'], { stdio: ['ignore', 'ignore', 'inherit'] });
  const base = `http://127.0.0.1:${lbPort}`;
  for (let i = 0; i < 100; i++) {
    if ((await fetch(`${base}/health`).catch(() => undefined))?.ok) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  const counts = new Map<string, number>();
  const count = (name: string) => counts.set(name, (counts.get(name) ?? 0) + 1);
  const keyOfTitle = new Map<string, string>();
  const answered: { caller: Caller; variables: unknown; first: string }[] = [];
  let titleSeq = 0;
  let keySeq = 0;
  const nextTitle = () => `BLK${1 + (titleSeq++ % 5000)}`;
  const pick = <T>(items: readonly T[]) => items[Math.floor(Math.random() * items.length)]!;
  let killedAt = 0;
  let restartedAt = 0;
  const started = performance.now();
  const until = started + SECONDS * 1000;

  async function step() {
    const caller = pick(CALLERS);
    const r = Math.random();
    if (r < 0.45) {
      const { status, body } = await graphql(base, caller, Q.title, { t: `BLK${1 + Math.floor(Math.random() * 5000)}` });
      count(status === 200 && !body.errors ? 'title ok' : `title ${body.errors?.[0]?.extensions?.code ?? status}`);
    } else if (r < 0.7) {
      const titleNumber = nextTitle();
      const idempotencyKey = `cluster-${process.pid}-${++keySeq}`;
      keyOfTitle.set(`${caller.organisation}/${titleNumber}`, idempotencyKey);
      const variables = { fas: caller.fas, input: { titleNumber, reference: 'cluster soak', idempotencyKey } };
      const { status, body } = await graphql(base, caller, Q.purchase, variables);
      const payload = body.data?.purchaseTitleDetails;
      if (status === 200 && payload) {
        count(payload.userErrors.length ? `purchase ${payload.userErrors[0].code}` : 'purchase ok');
        answered.push({ caller, variables, first: JSON.stringify(body.data) });
      } else count(`purchase ${body.errors?.[0]?.extensions?.code ?? status}`);
    } else if (r < 0.8 && answered.length > 0) {
      const earlier = pick(answered);
      const { body } = await graphql(base, earlier.caller, Q.purchase, earlier.variables);
      count(JSON.stringify(body.data) === earlier.first ? 'replay identical' : 'replay DIFFERENT');
    } else if (r < 0.88) {
      const { status, body } = await graphql(base, caller, Q.createCase, {
        fas: caller.caseFas,
        input: {
          reference: 'Cluster',
          contactEmail: 'c@soak.example',
          contactTelephone: '0131',
          titleNumbers: ['MID15313'],
          idempotencyKey: `cluster-case-${process.pid}-${++keySeq}`,
        },
      });
      count(
        status === 200 && body.data?.createCase?.case
          ? 'case ok'
          : `case ${body.data?.createCase?.userErrors?.[0]?.code ?? body.errors?.[0]?.extensions?.code ?? status}`,
      );
    } else {
      const titleNumber = nextTitle();
      const idempotencyKey = `cluster-doc-${process.pid}-${++keySeq}`;
      keyOfTitle.set(`${caller.organisation}/${titleNumber}`, idempotencyKey);
      const { body } = await graphql(base, caller, Q.order, {
        fas: caller.fas,
        input: { titleNumber, titleSheet: { include: true }, idempotencyKey },
      });
      const url = body.data?.orderTitleDocument?.document?.downloadUrl as string | undefined;
      if (!url)
        return count(`order ${body.data?.orderTitleDocument?.userErrors?.[0]?.code ?? body.errors?.[0]?.extensions?.code ?? 'failed'}`);
      // a signed link, made by whichever replica answered, followed through the load balancer
      const link = new URL(url);
      const file = await fetch(`${base}${link.pathname}${link.search}`);
      const bytes = new Uint8Array(await file.arrayBuffer().catch(() => new ArrayBuffer(0)));
      count(file.status === 200 && new TextDecoder().decode(bytes.slice(0, 5)) === '%PDF-' ? 'download ok' : `download ${file.status}`);
    }
  }

  const worker = async () => {
    while (performance.now() < until) {
      try {
        await step();
      } catch (error) {
        count(`transport ${(error as Error).name}`);
      }
    }
  };
  const chaos = (async () => {
    await new Promise((resolve) => setTimeout(resolve, (SECONDS * 1000) / 3));
    const victim = replicas[1]!;
    process.kill(victim.pid, 'SIGKILL');
    killedAt = performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    replicas[1] = await startService('cluster-1-restarted', emulator.url, env(ports[1]!));
    restartedAt = performance.now() - started;
  })();
  await Promise.all([...Array.from({ length: CONCURRENCY }, worker), chaos]);
  const elapsed = (performance.now() - started) / 1000;
  // let in-flight bookkeeping (un-counting refused calls) land
  await new Promise((resolve) => setTimeout(resolve, 1_000));

  // ---------------------------------------------------------------- checks on the register's records
  const day = londonDate(emulator.clock.now());
  const problems: string[] = [];
  const ledger = emulator.ledger.charges;
  const perKey = new Map<string, number>();
  for (const entry of ledger) {
    const key = keyOfTitle.get(`${entry.organisation}/${entry.titleNumber}`) ?? `?${entry.titleNumber}`;
    perKey.set(key, (perKey.get(key) ?? 0) + 1);
  }
  const doubles = [...perKey.values()].filter((n) => n > 1).length;
  if (doubles > 0) problems.push(`${doubles} keys charged twice`);

  const journal: { status: string; idempotencyKey: string; charge: { transactionNumber: string } | null }[] = [];
  for (const caller of CALLERS) {
    const { body } = await graphql(base, caller, Q.journal, { day });
    journal.push(...(body.data?.chargeRecords ?? []));
  }
  let missing = 0;
  let unknown = 0;
  for (const entry of ledger) {
    const key = keyOfTitle.get(`${entry.organisation}/${entry.titleNumber}`);
    const charged = journal.some((r) => r.status === 'CHARGED' && r.charge?.transactionNumber === entry.charge.transactionNumber);
    const asUnknown = journal.some((r) => r.status === 'OUTCOME_UNKNOWN' && r.idempotencyKey === key);
    if (asUnknown && !charged) unknown++;
    if (!charged && !asUnknown) missing++;
  }
  if (missing > 0) problems.push(`${missing} ledger charges missing from the journal`);

  const usage: Record<string, number[]> = {};
  for (const organisation of ['ORG-A', 'ORG-B']) {
    const caller = CALLERS.find((c) => c.organisation === organisation)!;
    usage[organisation] = await Promise.all(
      ports.map(async (port) => (await graphql(`http://127.0.0.1:${port}`, caller, Q.usage)).body.data?.registerUsage?.calls as number),
    );
    const register = emulator.state.quotaUsed(organisation);
    if (new Set(usage[organisation]).size !== 1)
      problems.push(`${organisation}: replicas disagree on registerUsage ${usage[organisation]!.join(', ')}`);
    const over = usage[organisation]![0]! - register;
    if (over < 0 || over > cutByKill())
      problems.push(`${organisation}: registerUsage ${usage[organisation]![0]} but the register counted ${register}`);
  }
  function cutByKill() {
    return [...counts.entries()]
      .filter(([name]) => name.startsWith('transport') || / (HTTP_)?50[234]$/.test(name))
      .reduce((n, [, c]) => n + c, 0);
  }
  if ((counts.get('replay DIFFERENT') ?? 0) > 0) problems.push('a replay differed from the first answer');

  const requests = [...counts.values()].reduce((a, b) => a + b, 0);
  console.log(`\ncluster soak: 3 replicas on PostgreSQL behind HAProxy, ${CONCURRENCY} workers, ${elapsed.toFixed(1)} s`);
  console.log(`replica r1 killed (SIGKILL) at ${(killedAt / 1000).toFixed(1)} s, back at ${(restartedAt / 1000).toFixed(1)} s`);
  console.log(`requests: ${requests} (${(requests / elapsed).toFixed(0)}/s)`);
  for (const [name, n] of [...counts.entries()].sort()) console.log(`  ${name.padEnd(36)} ${n}`);
  console.log(`ledger charges: ${ledger.length}; keys charged twice: ${doubles}`);
  console.log(
    `journal: ${journal.length} entries; ledger charges in it: ${ledger.length - missing} (${unknown} as OUTCOME_UNKNOWN for their key); missing: ${missing}`,
  );
  for (const [organisation, calls] of Object.entries(usage)) {
    console.log(
      `registerUsage ${organisation}: replicas ${calls.join(' / ')}; register's own count ${emulator.state.quotaUsed(organisation)}`,
    );
  }
  console.log(`requests cut by the kill: ${cutByKill()} (a call admitted by the killed replica but never sent stays counted)`);
  console.log(problems.length === 0 ? 'PASS' : `FAIL: ${problems.join('; ')}`);

  lb.kill('SIGTERM');
  await Promise.all(replicas.map((r) => r.stop()));
  await emulator.close();
  await database.drop();
  rmSync(work, { recursive: true, force: true });
  process.exit(problems.length === 0 ? 0 : 1);
}

await main();
