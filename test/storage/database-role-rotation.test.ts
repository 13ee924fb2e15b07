/**
 * The README's rotation of the database password (Reloading the tenants file and rotating
 * secrets), run as written: a second role with the first one's rights takes over the stores (their
 * start's upgrades included), reads what the first wrote, and goes on once the first can no longer
 * log in.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { describe, expect, onTestFinished, test } from 'vitest';
import { PgIdempotencyStore } from '../../src/storage/idempotency/pg-store';
import { PgQuotaStore } from '../../src/storage/quota/pg-store';
import { msToLondonMidnight } from '../../src/services/quota';
import { ADMIN_URL, createTestDatabase, postgresSuite } from '../support/pg';

const pgSuite = await postgresSuite();

async function asAdmin(url: string, sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

describe.skipIf(!pgSuite.run)(pgSuite.title('rotating the database password by a second role'), () => {
  test('a second role IN ROLE the first runs the stores on their tables; the first one’s login can then go', async () => {
    const database = await createTestDatabase('role_rotation');
    const suffix = `${process.pid}_${randomBytes(3).toString('hex')}`;
    const [first, second] = [`tg_rotate_a_${suffix}`, `tg_rotate_b_${suffix}`];
    const adminOf = new URL(ADMIN_URL);
    const urlAs = (role: string, password: string) => {
      const url = new URL(database.url);
      url.username = role;
      url.password = password;
      return url.toString();
    };
    const inDatabase = new URL(database.url).toString();
    const stores: { close(): Promise<void> }[] = [];
    onTestFinished(async () => {
      for (const store of stores) await store.close().catch(() => undefined);
      await database.drop();
      await asAdmin(adminOf.toString(), `DROP ROLE IF EXISTS ${second}; DROP ROLE IF EXISTS ${first}`);
    });
    await asAdmin(adminOf.toString(), `CREATE ROLE ${first} LOGIN PASSWORD 'first-password'`);
    await asAdmin(inDatabase, `GRANT CREATE, USAGE ON SCHEMA public TO ${first}`);

    const before = new PgIdempotencyStore({ connectionString: urlAs(first, 'first-password'), maxConnections: 1 });
    stores.push(before);
    await before.ready();
    expect(await before.claim('client-a', 'written-by-first', 'createCase', 'h')).toMatchObject({ claimed: true });
    await before.finish('client-a', 'written-by-first', 'succeeded', '"ok"');

    // The README's step: a second role with the first one's rights; the replicas restarted with it.
    await asAdmin(adminOf.toString(), `CREATE ROLE ${second} LOGIN PASSWORD 'second-password' IN ROLE ${first}`);
    const after = new PgIdempotencyStore({ connectionString: urlAs(second, 'second-password'), maxConnections: 1 });
    const quota = new PgQuotaStore({
      connectionString: urlAs(second, 'second-password'),
      msToMidnight: msToLondonMidnight,
      notices: false,
    });
    stores.push(after, quota);
    await after.ready();
    await quota.ready();
    expect((await after.get('client-a', 'written-by-first'))?.state).toBe('succeeded');

    await asAdmin(adminOf.toString(), `ALTER ROLE ${first} NOLOGIN`);
    expect(await after.claim('client-a', 'written-by-second', 'createCase', 'h')).toMatchObject({ claimed: true });
    const now = Date.now();
    const request = {
      organisation: 'ORG-A',
      client: 'client-a',
      day: '2026-03-10',
      now,
      free: true,
      freeLimit: 10,
      dailyLimit: 10,
      burst: 0,
      perMs: 0,
    };
    expect(await quota.admit(request)).toMatchObject({ admitted: true });
    const refused = new pg.Client({ connectionString: urlAs(first, 'first-password') });
    await expect(refused.connect()).rejects.toThrow(/not permitted to log in/);
  });
});
