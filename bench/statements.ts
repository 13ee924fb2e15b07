/**
 * `npm run bench:statements`: a big firm's year of charges (250,000 journal rows by default,
 * `--rows=N`, over `--days=N`, default 365, up to yesterday), read back as the CSV and as GraphQL pages of 500, from a production start of the
 * service on SQLite. Reports the CSV's time and the service's memory growth while it streams
 * (from a replica just started, and again after it has served the pages),
 * and each page's time at every position (first, middle, last). Puts its figures in
 * bench/RESULTS.md under "Statements at scale", in place of its last ones.
 *
 * The rows are written straight into the journal table (one transaction) rather than bought one by
 * one: buying 250,000 titles through the emulator would take the bench an hour and measure the
 * purchases, not the statements.
 */
import { DatabaseSync } from 'node:sqlite';
import { join } from 'node:path';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { request } from 'undici';
import { SqliteIdempotencyStore } from '../src/storage/idempotency/sqlite-store';
import { killAll, peakRss, startEmulatorProcess, startService } from './lib/procs';
import { putSectionInResults } from './lib/report';
import { SEPARATE_BENCH_HEADINGS } from './lib/results-sections';

const ROWS = Number(/--rows=(\d+)/.exec(process.argv.join(' '))?.[1] ?? 250_000);
const DAYS = Number(/--days=(\d+)/.exec(process.argv.join(' '))?.[1] ?? 365);
/** The year up to yesterday: the journal's retention keeps it (an older seed would be purged at start). */
const FIRST_DAY = Date.parse(`${new Date(Date.now() - DAYS * 86_400_000).toISOString().slice(0, 10)}T00:00:00Z`);
const dayOf = (i: number) => new Date(FIRST_DAY + Math.floor((i * DAYS) / ROWS) * 86_400_000).toISOString().slice(0, 10);
const FROM = dayOf(0);
const TO = dayOf(ROWS - 1);
const AUTH = { authorization: 'Bearer dev-key-a' };

async function seed(dataDir: string) {
  await new SqliteIdempotencyStore(dataDir).close(); // creates the tables and indexes as a start would
  const db = new DatabaseSync(join(dataDir, 'idempotency.sqlite'));
  const insert = db.prepare(
    `INSERT INTO charge_journal (scope, key, status, operation, fas, title_number, charge, day, recorded_at, reference, product, amount_pence, caller, caller_name)
     VALUES ('client-a', ?, 'CHARGED', 'purchaseTitleDetails', '0877', ?, ?, ?, ?, ?, 'TITLE_DATA_AND_PLANS', 300, 'dev-key-a', NULL)`,
  );
  db.exec('BEGIN');
  for (let i = 0; i < ROWS; i++) {
    const day = dayOf(i);
    const charge = JSON.stringify({ productType: 'TITLE_DATA_AND_PLANS', fee: '3.00', fas: '0877', transactionNumber: `RT${i}` });
    insert.run(`k${i}`, `BLK${(i % 5000) + 1}`, charge, day, Date.parse(`${day}T09:00:00Z`) + i, `matter ${i % 900}`);
  }
  db.exec('COMMIT');
  db.close();
}

/** The CSV, whole, read as fast as the bench can: its time, size, and the replica's memory high-water mark meanwhile. */
async function wholeCsv(base: string, pid: number): Promise<{ ms: number; bytes: number; growth: number }> {
  const memory = peakRss(pid);
  const started = performance.now();
  const csv = await request(`${base}/statements.csv?from=${FROM}&to=${TO}`, { headers: AUTH });
  let bytes = 0;
  let lines = 0;
  for await (const chunk of csv.body) {
    bytes += (chunk as Buffer).length;
    for (const byte of chunk as Buffer) if (byte === 10) lines++;
  }
  const ms = performance.now() - started;
  const peak = memory.stop();
  if (csv.statusCode !== 200 || lines !== ROWS + 1) throw new Error(`CSV: status ${csv.statusCode}, ${lines} lines for ${ROWS} rows`);
  return { ms, bytes, growth: peak - memory.baseline };
}

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(p * values.length))]!;

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'titlegraph-statements-'));
  const seededAt = performance.now();
  await seed(dataDir);
  const seedMs = performance.now() - seededAt;
  const emulator = await startEmulatorProcess();
  const service = await startService('statements', emulator.url, { DATA_DIR: dataDir });
  try {
    // A warmed replica, as in service: one day's CSV and one page first (module loading and the
    // first compilations are the process's, not the statement's).
    await (await request(`${service.base}/statements.csv?from=${TO}&to=${TO}`, { headers: AUTH })).body.text();
    await (
      await request(`${service.base}/graphql`, {
        method: 'POST',
        headers: { ...AUTH, 'content-type': 'application/json' },
        body: JSON.stringify({ query: `{ chargeStatement(from: "${TO}", to: "${TO}", first: 500) { records { titleNumber } } }` }),
      })
    ).body.text();
    const fresh = await wholeCsv(service.base, service.pid);
    // Every GraphQL page of 500, front to back, each timed.
    const query = `query($from: Date!, $to: Date!, $after: String) { chargeStatement(from: $from, to: $to, first: 500, after: $after) {
      records { titleNumber status caller charge { fee transactionNumber } } nextCursor } }`;
    const pageMs: number[] = [];
    let after: string | null = null;
    let records = 0;
    do {
      const started = performance.now();
      const response = await request(`${service.base}/graphql`, {
        method: 'POST',
        headers: { ...AUTH, 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables: { from: FROM, to: TO, after } }),
      });
      const body = (await response.body.json()) as { data: { chargeStatement: { records: unknown[]; nextCursor: string | null } } };
      pageMs.push(performance.now() - started);
      records += body.data.chargeStatement.records.length;
      after = body.data.chargeStatement.nextCursor;
    } while (after);
    if (records !== ROWS) throw new Error(`GraphQL pages: ${records} records for ${ROWS} rows`);
    // The same CSV again, from a replica that has now served traffic (the 500 pages): as a replica
    // in service would stream it, its young generation already in use.
    const served = await wholeCsv(service.base, service.pid);

    const middle = pageMs[Math.floor(pageMs.length / 2)]!;
    const report = [
      '',
      `${SEPARATE_BENCH_HEADINGS.statements} (${new Date().toISOString().slice(0, 10)}, \`npm run bench:statements\`)`,
      '',
      `${ROWS.toLocaleString('en-GB')} journal rows of one organisation over ${DAYS} register days, SQLite, production start (seeded in ${(seedMs / 1000).toFixed(1)} s).`,
      '',
      '| measure | result | goal |',
      '|---|---|---|',
      `| CSV of the whole year: a replica just started / after serving the 500 pages below | ${(fresh.ms / 1000).toFixed(2)} / ${(served.ms / 1000).toFixed(2)} s, ${(fresh.bytes / 1e6).toFixed(1)} MB | ≤ 5 s |`,
      `| replica memory while streaming it (peak RSS − RSS before): just started / after serving | ${(fresh.growth / 1e6).toFixed(1)} / ${(served.growth / 1e6).toFixed(1)} MB | < 50 MB |`,
      `| GraphQL page of 500: first / middle / last | ${pageMs[0]!.toFixed(1)} / ${middle.toFixed(1)} / ${pageMs.at(-1)!.toFixed(1)} ms | ≤ 50 ms at any position |`,
      `| GraphQL pages (${pageMs.length}): p50 / p95 / max | ${percentile(pageMs, 0.5).toFixed(1)} / ${percentile(pageMs, 0.95).toFixed(1)} / ${Math.max(...pageMs).toFixed(1)} ms | |`,
      '',
      'How it is measured and how to read it: [Statements at scale](../docs/performance.md#statements-at-scale).',
      '',
    ].join('\n');
    putSectionInResults(report);
  } finally {
    await service.stop();
    await emulator.stop();
    killAll();
  }
}

await main();
