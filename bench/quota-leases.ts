/**
 * `npm run bench:leases`: quota leases on PostgreSQL, two replicas: how many register calls one
 * ledger transaction carries under load, and how long a call waits for its admission (p50, p99),
 * with leases and call by call (issue 49's targets: at least 20 calls a transaction, and no
 * database round trip for the common call). Each replica is a QuotaGuard on its own PgQuotaStore
 * over one database; 16 callers per replica ask for free reads as fast as they are admitted.
 * Puts its figures in bench/RESULTS.md under "Quota leases on PostgreSQL", in place of its last ones.
 *
 *   TEST_DATABASE_URL=postgres://… npm run bench:leases -- [--seconds=5]
 */
import pg from 'pg';
import { ROUTES } from '../src/register/contract/routes';
import { msToLondonMidnight, QuotaGuard } from '../src/services/quota';
import type { QuotaPolicy } from '../src/services/settings';
import { PgQuotaStore } from '../src/storage/quota/pg-store';
import type { AdmitRequest, LeaseReturn } from '../src/storage/quota/store';
import { putSectionInResults } from './lib/report';
import { SEPARATE_BENCH_HEADINGS } from './lib/results-sections';

const seconds = Number(/--seconds=(\d+)/.exec(process.argv.join(' '))?.[1] ?? 5);
const admin = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function database(name: string): Promise<string> {
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await client.query(`CREATE DATABASE ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return url.toString();
}

async function run(leaseMs: number): Promise<string> {
  const url = await database(`titlegraph_bench_leases_${leaseMs}`);
  let transactions = 0;
  const replicas = await Promise.all(
    [0, 1].map(async () => {
      const store = new PgQuotaStore({ connectionString: url, msToMidnight: msToLondonMidnight, maxConnections: 4 });
      await store.ready();
      // Every write to the ledger: a lease taken (or a call admitted on its own), and a lease given back.
      const admit = store.admit.bind(store);
      store.admit = (request: AdmitRequest) => {
        transactions++;
        return admit(request);
      };
      const endLease = store.endLease.bind(store);
      store.endLease = (lease: LeaseReturn) => {
        transactions++;
        return endLease(lease);
      };
      const policy: QuotaPolicy = { dailyQuota: 1e9, freeShare: 0.9, clientBurst: 0, clientPerMinute: 1, leaseMs };
      return { store, guard: new QuotaGuard(store, policy) };
    }),
  );
  const waits: number[] = [];
  const until = performance.now() + seconds * 1000;
  await Promise.all(
    replicas.flatMap(({ guard }, r) =>
      Array.from({ length: 16 }, async () => {
        const hooks = guard.forClient({ id: `client-${r}`, organisation: 'ORG-A' });
        while (performance.now() < until) {
          const started = performance.now();
          await hooks.admit(ROUTES.titleSummary);
          waits.push(performance.now() - started);
        }
      }),
    ),
  );
  for (const { guard, store } of replicas) {
    await guard.close();
    await store.close();
  }
  waits.sort((a, b) => a - b);
  const at = (q: number) => waits[Math.min(waits.length - 1, Math.floor(q * waits.length))]!.toFixed(3);
  return `| ${leaseMs === 0 ? 'call by call (QUOTA_LEASE_MS=0)' : `leases (QUOTA_LEASE_MS=${leaseMs}, adaptive)`} | ${waits.length} | ${transactions} | ${(waits.length / transactions).toFixed(1)} | ${at(0.5)} / ${at(0.99)} ms |`;
}

const callByCall = await run(0);
const leased = await run(250);
putSectionInResults(
  [
    '',
    `${SEPARATE_BENCH_HEADINGS.leases} (${new Date().toISOString().slice(0, 10)}, \`npm run bench:leases\`)`,
    '',
    `Two replicas, each a QuotaGuard on its own PgQuotaStore over one PostgreSQL database, 16 callers each asking for free reads of one organisation as fast as they are admitted, ${seconds} s per way of admitting. Targets (issue 49): at least 20 register calls per ledger transaction under load, and no database round trip for the common call. How to read it: [docs/performance.md](../docs/performance.md).`,
    '',
    '| admission | calls admitted | ledger transactions (leases taken and given back) | calls per transaction | wait for admission p50 / p99 |',
    '|---|---|---|---|---|',
    callByCall,
    leased,
    '',
  ].join('\n'),
);
