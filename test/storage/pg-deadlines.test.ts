/**
 * PostgreSQL statements have a deadline: one that runs past STATEMENT_TIMEOUT_MS is cancelled by
 * the server, and one that gets no answer at all (a frozen server, which cancels nothing) is given
 * up by the client; both are "the database is unavailable" (DatabaseUnavailableError: 503
 * SERVICE_UNAVAILABLE, nothing sent to the register), and the pool goes on working afterwards.
 * The schema's set-up (a migration, another replica's lock) is not held to that deadline.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DatabaseUnavailableError } from '../../src/storage/database-unavailable';
import { PgDatabase, STATEMENT_TIMEOUT_MS } from '../../src/storage/pg-database';
import { freezableRelay, type FreezableRelay } from '../support/frozen-database';
import { createTestDatabase, postgresSuite, type TestDatabase } from '../support/pg';

const pgSuite = await postgresSuite();

describe.skipIf(!pgSuite.run)(pgSuite.title('PostgreSQL statement deadlines'), () => {
  let database: TestDatabase;
  let relay: FreezableRelay;
  const open: PgDatabase[] = [];
  const db = (url: string, setup: PgDatabase['options']['setup'] = async () => undefined) => {
    const made = new PgDatabase({ connectionString: url, ddlLock: 0x7467_7464, setup });
    open.push(made);
    return made;
  };

  beforeAll(async () => {
    database = await createTestDatabase('deadlines');
    relay = await freezableRelay(database.url);
  }, 60_000);
  afterAll(async () => {
    relay?.thaw();
    for (const made of open) await made.close().catch(() => undefined);
    await relay?.close();
    await database?.drop();
  });

  test('a statement that runs too long is cancelled by the server: the database is unavailable, and the next statement runs', async () => {
    const store = db(database.url);
    const slow = await store.query(`SELECT pg_sleep(${(STATEMENT_TIMEOUT_MS / 1000) * 4})`, []).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(slow).toBeInstanceOf(DatabaseUnavailableError);
    expect(((slow as Error).cause as { code?: string }).code).toBe('57014'); // query_canceled: statement_timeout
    expect((await store.query<{ one: number }>('SELECT 1 AS one', [])).rows).toEqual([{ one: 1 }]);
  }, 30_000);

  test('a frozen server: the client stops waiting, the database is unavailable, and after the thaw a new connection serves', async () => {
    const store = db(relay.url);
    await store.query('SELECT 1', []); // a pooled connection, set up before the freeze
    relay.freeze();
    const frozen = await store.query('SELECT 1', []).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(frozen).toBeInstanceOf(DatabaseUnavailableError);
    expect(((frozen as Error).cause as Error).message).toBe('Query read timeout');
    relay.thaw();
    expect((await store.query<{ one: number }>('SELECT 1 AS one', [])).rows).toEqual([{ one: 1 }]);
  }, 60_000);

  test('the set-up is not held to the deadline: a migration longer than it completes', async () => {
    const store = db(database.url, async (client) => {
      await client.query(`SELECT pg_sleep(${(STATEMENT_TIMEOUT_MS + 1_500) / 1000})`);
      await client.query('CREATE TABLE IF NOT EXISTS deadline_migrated (id INT)');
    });
    await expect(store.ready()).resolves.toBeUndefined();
    expect((await store.query('SELECT count(*) FROM deadline_migrated', [])).rowCount).toBe(1);
  }, 30_000);
});
