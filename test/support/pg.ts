/**
 * PostgreSQL for tests: a fresh database per test run (created here, dropped after), so
 * parallel runs never share a table. Without a reachable server the PostgreSQL tests are
 * skipped with the reason, unless CI is set: then they run (and fail).
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { test } from 'vitest';

/** Administrative connection used to create and drop the per-run databases. */
export const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
export const IN_CI = Boolean(process.env.CI) && process.env.CI !== 'false' && process.env.CI !== '0';

export type Probe = { ok: true } | { ok: false; reason: string };

export async function probePostgres(): Promise<Probe> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3000 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('SELECT 1');
    return { ok: true };
  } catch (error) {
    return { ok: false, reason: `PostgreSQL unreachable at ${redact(ADMIN_URL)} (${(error as Error).message || (error as Error).name})` };
  } finally {
    await client.end().catch(() => undefined);
  }
}

const redact = (url: string) => url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');

/**
 * Decides, once per file, whether its PostgreSQL tests run: `describe.skipIf(!pgSuite.run)(pgSuite.title('…'), …)`.
 * The suite title carries the skip reason, so the report says why.
 */
export async function postgresSuite() {
  const probe = await probePostgres();
  const run = probe.ok || IN_CI;
  if (!probe.ok) {
    if (IN_CI) {
      // Counted as a failed test (not only a failed hook), with the reason.
      test('PostgreSQL is reachable (required when CI is set)', () => {
        throw new Error(probe.reason);
      });
    } else {
      console.warn(`PostgreSQL tests skipped: ${probe.reason}. Start it, set TEST_DATABASE_URL, or set CI=true to require them.`);
    }
  }
  return {
    run,
    probe,
    title: (name: string) =>
      probe.ok ? name : `${name} — ${IN_CI ? 'CI: PostgreSQL is required' : 'skipped'}: ${probe.reason}; start it or set TEST_DATABASE_URL`,
  };
}

export interface TestDatabase {
  name: string;
  url: string;
  drop(): Promise<void>;
}

async function admin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 5000 });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Creates a uniquely named database for this run; drop() removes it (closing stray connections). */
export async function createTestDatabase(label: string): Promise<TestDatabase> {
  const name = `titlegraph_${label}_${process.pid}_${randomBytes(4).toString('hex')}`.toLowerCase().replace(/[^a-z0-9_]/g, '_');
  await admin((c) => c.query(`CREATE DATABASE "${name}"`));
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () => admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

/**
 * Takes a test database away from its clients (no new connections, every open one terminated),
 * or gives it back: a database outage, without stopping the server other tests use.
 */
export async function setDatabaseReachable(name: string, reachable: boolean): Promise<void> {
  await admin(async (c) => {
    await c.query(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS ${reachable ? 'true' : 'false'}`);
    if (!reachable)
      await c.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [name]);
  });
}
