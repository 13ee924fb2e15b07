/**
 * DATABASE_MAX_CONNECTIONS: a replica (the real entry point, on PostgreSQL) opens no more
 * connections than the setting allows, its three stores together, however hard it is pushed.
 * The README's "PostgreSQL connections" passage gives the same numbers.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, test } from 'vitest';
import { connectionShares } from '../../src/storage/pg-database';
import { DEFAULT_DATABASE_MAX_CONNECTIONS } from '../../src/storage/settings';
import { createTestDatabase, postgresSuite } from '../support/pg';
import { EMBEDDED_ENV, PURCHASE_DETAILS, spawnTs } from '../support/processes';
import { postRaw } from '../support/post-raw';
import { documentation } from '../support/docs';

const pgSuite = await postgresSuite();
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** The server's backends connected to `database`, other than the one asking. */
async function backends(url: string, database: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const result = await client.query<{ n: string }>(
      'SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
      [database],
    );
    return Number(result.rows[0]!.n);
  } finally {
    await client.end();
  }
}

describe('the split of a replica’s connections', () => {
  test('the default is the README’s 10 + 10 + 4 = 24; every total is spent in full, each store getting at least one', () => {
    expect(DEFAULT_DATABASE_MAX_CONNECTIONS).toBe(24);
    expect(connectionShares(24)).toEqual({ idempotency: 10, quota: 10, apq: 4 });
    expect(connectionShares(6)).toEqual({ idempotency: 3, quota: 2, apq: 1 });
    for (let total = 3; total <= 200; total++) {
      const shares = Object.values(connectionShares(total));
      expect(shares.reduce((a, b) => a + b)).toBe(total);
      expect(Math.min(...shares)).toBeGreaterThanOrEqual(1);
    }
    const readme = documentation();
    expect(readme).toMatch(/\| `DATABASE_MAX_CONNECTIONS` \| `24` \|/);
    expect(readme).toContain('`DATABASE_MAX_CONNECTIONS=6`\n  gives 3, 2 and 1');
  });
});

describe.skipIf(!pgSuite.run)(pgSuite.title('DATABASE_MAX_CONNECTIONS on PostgreSQL'), () => {
  test('a replica pushed by 120 concurrent purchases, reads and persisted-query lookups opens at most DATABASE_MAX_CONNECTIONS', async () => {
    const database = await createTestDatabase('connections');
    cleanups.push(() => database.drop());
    const dataDir = mkdtempSync(join(tmpdir(), 'titlegraph-connections-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const child = spawnTs('src/start.ts', [], {
      ...EMBEDDED_ENV,
      PORT: '0',
      EMULATOR_PORT: '0',
      DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      DOWNLOAD_LINK_SECRET: 'connections-test-secret-of-at-least-32-chars',
      DATABASE_MAX_CONNECTIONS: '6',
      REGISTER_DAILY_QUOTA: '100000',
    });
    cleanups.push(() => child.stop('SIGKILL'));
    const [, port] = await child.waitFor(/"msg":"titlegraph: GraphQL at http:\/\/localhost:(\d+)\/graphql"/, 60_000);
    const url = `http://127.0.0.1:${port}/graphql`;

    let most = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        most = Math.max(most, await backends(database.url, database.name));
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    })();
    const work = Array.from({ length: 120 }, (_, i) => {
      if (i % 3 === 0) {
        const input = { titleNumber: 'MID15313', reference: 'pool', idempotencyKey: `pool-${process.pid}-${i}` };
        return postRaw(url, { query: PURCHASE_DETAILS, variables: { fas: '0877', input } });
      }
      if (i % 3 === 1) return postRaw(url, { query: '{ title(titleNumber: "MID15313") { titleNumber } }' });
      // An unknown persisted-query hash: a lookup in the APQ store, answered PersistedQueryNotFound.
      return postRaw(
        url,
        { extensions: { persistedQuery: { version: 1, sha256Hash: i.toString(16).padStart(64, '0') } } },
        { accept: null },
      );
    });
    const answers = await Promise.all(work);
    sampling = false;
    await sampler;
    for (const answer of answers) expect(answer.status).toBe(200);
    // Idle connections are kept for 30 s: what the pools opened is still there to count.
    const open = await backends(database.url, database.name);
    expect(Math.max(most, open)).toBeLessThanOrEqual(6);
    expect(open).toBeGreaterThanOrEqual(3); // each store opened its own
  }, 120_000);
});
