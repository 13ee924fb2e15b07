/**
 * A connection that PostgreSQL ends (an administrator, a failover, a restart) while a transaction
 * holds it between two statements: pg emits 'error' on that client, and with no listener that is
 * an uncaught exception, the whole process down. It must fail that transaction alone, as the
 * database being unavailable, and the pool must serve again once the database is back.
 */
import type { EventEmitter } from 'node:events';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { DatabaseUnavailableError } from '../../src/storage/database-unavailable';
import { PgDatabase } from '../../src/storage/pg-database';
import { createTestDatabase, postgresSuite, setDatabaseReachable, type TestDatabase } from '../support/pg';

const pgSuite = await postgresSuite();

describe.skipIf(!pgSuite.run)(pgSuite.title('a PostgreSQL connection ended while a transaction holds it'), () => {
  let database: TestDatabase;
  let store: PgDatabase;
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);

  beforeAll(async () => {
    database = await createTestDatabase('connection_cut');
    store = new PgDatabase({ connectionString: database.url, ddlLock: 0x7467_7463, setup: async () => undefined });
    await store.ready();
    process.on('uncaughtException', onUncaught);
  }, 60_000);
  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    await setDatabaseReachable(database.name, true).catch(() => undefined);
    await store?.close().catch(() => undefined);
    await database?.drop();
  });

  test('the transaction fails as the database being unavailable, nothing is thrown elsewhere, and the pool serves after', async () => {
    let resume!: () => void;
    const paused = new Promise<void>((resolve) => {
      resume = resolve;
    });
    let between!: (client: EventEmitter) => void;
    const holding = new Promise<EventEmitter>((resolve) => {
      between = resolve;
    });
    const transaction = store
      .transaction(async (client) => {
        await client.query('SELECT 1');
        between(client);
        await paused; // the connection is held here, no statement running, when the server ends it
        await client.query('SELECT 2');
      })
      .then(
        () => undefined,
        (error: unknown) => error,
      );
    const held = await holding;
    // pg emits 'end' on the next tick after the connection's 'error': once it has come, the error has been raised.
    const ended = new Promise((resolve) => held.once('end', resolve));
    await setDatabaseReachable(database.name, false);
    await ended;
    resume();
    expect(await transaction).toBeInstanceOf(DatabaseUnavailableError);
    expect(uncaught).toEqual([]);
    await setDatabaseReachable(database.name, true);
    await vi.waitFor(async () => expect((await store.query<{ one: number }>('SELECT 1 AS one', [])).rows).toEqual([{ one: 1 }]), {
      timeout: 10_000,
      interval: 100,
    });
  }, 30_000);
});
