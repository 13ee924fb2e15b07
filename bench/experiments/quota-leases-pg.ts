/**
 * Quota leases on PostgreSQL, two replicas: how many register calls one ledger transaction carries
 * under load, and how long a call waits for its admission (p50, p99), with leases and call by call.
 * Each replica is a QuotaGuard on its own PgQuotaStore over one database; 16 callers per replica
 * ask for free reads as fast as they are admitted, for a few seconds.
 *
 *   TEST_DATABASE_URL=postgres://… npx tsx bench/experiments/quota-leases-pg.ts [SECONDS=5]
 */
import pg from 'pg';
import { ROUTES } from '../../src/register/contract/routes';
import { msToLondonMidnight, QuotaGuard } from '../../src/services/quota';
import type { QuotaPolicy } from '../../src/services/settings';
import { PgQuotaStore } from '../../src/storage/quota/pg-store';
import type { AdmitRequest } from '../../src/storage/quota/store';

const seconds = Number(process.argv[2] ?? 5);
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
      const admit = store.admit.bind(store);
      store.admit = (request: AdmitRequest) => {
        transactions++;
        return admit(request);
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

console.log('| admission | calls admitted | ledger transactions | calls per transaction | wait for admission p50 / p99 |');
console.log('|---|---|---|---|---|');
console.log(await run(0));
console.log(await run(250));
