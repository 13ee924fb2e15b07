/**
 * PostgreSQL ends the connection of a purchase's own transaction while a statement of it waits
 * (an administrator, a failover): inside the claim, before anything is sent, and inside the
 * journal write, after the register charged. Another connection holds the lock the purchase's
 * next statement needs, so the cut falls between its statements every time. Judged on the
 * emulator's call log and ledger and on the journal after recovery: nothing is sent or charged
 * for the first, the charge reaches the caller and then the journal for the second, and the
 * process raises nothing uncaught either way.
 */
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { PgIdempotencyStore } from '../../src/storage/idempotency/pg-store';
import { londonDate } from '../../src/register/contract/london-day';
import { createTestDatabase, postgresSuite, setDatabaseReachable, type TestDatabase } from '../support/pg';
import { newKey, serviceForTest } from '../support/harness';
import { postRaw } from '../support/post-raw';

const PURCHASE = `mutation Buy($input: PurchaseTitleInput!) {
  purchaseTitleDetails(fas: "0877", input: $input) { charges { fee transactionNumber } userErrors { code message } }
}`;
/** The seed of the per-organisation spending lock in storage/idempotency/pg-store.ts ('spen'). */
const SPEND_LOCK = 0x7370656e;

const pgSuite = await postgresSuite();

describe.skipIf(!pgSuite.run)(pgSuite.title("the database cuts a purchase's own transaction between two statements"), () => {
  let database: TestDatabase;
  const uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);

  beforeAll(async () => {
    database = await createTestDatabase('purchase_cut');
    process.on('uncaughtException', onUncaught);
  }, 60_000);
  afterAll(async () => {
    process.off('uncaughtException', onUncaught);
    await setDatabaseReachable(database.name, true).catch(() => undefined);
    await database?.drop();
  });

  /** The test's own connections, ended after each test, and the database given back, however the test ended. */
  const holders: pg.Client[] = [];
  afterEach(async () => {
    for (const client of holders.splice(0)) await client.end().catch(() => undefined);
    await setDatabaseReachable(database.name, true);
  });

  /** A connection of the test's own to the service's database, to hold the locks the purchase waits for. */
  async function holder(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: database.url });
    client.on('error', () => undefined); // it is cut with the others
    holders.push(client);
    await client.connect();
    return client;
  }

  /**
   * Waits until a statement of the service waits for a lock. Asked on a connection of its own:
   * within the holder's open transaction, pg_stat_activity would answer from one snapshot.
   */
  async function purchaseWaitsForLock(statement: RegExp): Promise<void> {
    const watcher = await holder();
    try {
      await expect
        .poll(
          async () =>
            (
              await watcher.query<{ query: string }>(
                `SELECT query FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
              )
            ).rows.some((row) => statement.test(row.query)),
          { timeout: 10_000, interval: 20 },
        )
        .toBe(true);
    } finally {
      await watcher.end();
    }
  }

  async function serviceOnDatabase(latencyMs = 0) {
    const svc = await serviceForTest({
      emulator: { latencyMs },
      services: {
        idempotency: new PgIdempotencyStore({ connectionString: database.url }),
        databaseUrl: database.url,
        // A limit, so that the claim takes the organisation's spending lock as its second statement.
        spend: { feesPence: { TITLE_DATA_AND_PLANS: 300, PENDING_APPLICATIONS: 300 }, clientLimitPence: 30_000 },
      },
    });
    const buy = (titleNumber: string, idempotencyKey: string) =>
      postRaw(svc.yoga, { query: PURCHASE, variables: { input: { titleNumber, idempotencyKey } } });
    // Tables, token and pools ready before the cut.
    expect((await buy('BLK1', newKey('warm'))).body.errors).toBeUndefined();
    return { svc, buy };
  }

  async function recover(svc: Awaited<ReturnType<typeof serviceForTest>>) {
    await setDatabaseReachable(database.name, true);
    await expect.poll(async () => (await svc.get('/ready')).status, { timeout: 20_000, interval: 200 }).toBe(200);
  }

  test('inside the claim, waiting for the spending lock: refused as unavailable with nothing sent; the same key buys once after', async () => {
    const { svc, buy } = await serviceOnDatabase();
    const lock = await holder();
    await lock.query('SELECT pg_advisory_lock(hashtextextended($1, $2))', ['ORG-A', SPEND_LOCK]);
    const sentBefore = svc.emulator.calls.count({ route: 'titleDetails' });
    const key = newKey('cut-in-claim');
    const answer = buy('BLK2', key);
    // The claim has inserted its key and waits for the lock: its transaction is open.
    await purchaseWaitsForLock(/pg_advisory_xact_lock/);
    await setDatabaseReachable(database.name, false);

    const refused = await answer;
    expect(refused.status).toBe(503);
    expect(refused.body.errors).toEqual([
      expect.objectContaining({
        message: expect.stringContaining('nothing was sent to the register'),
        extensions: expect.objectContaining({ code: 'SERVICE_UNAVAILABLE' }),
      }),
    ]);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(sentBefore);
    expect(svc.emulator.ledger.count({ titleNumber: 'BLK2' })).toBe(0);

    await recover(svc);
    // The cut rolled the claim back: the key is free, and it buys exactly once.
    const bought = await buy('BLK2', key);
    const charged = svc.emulator.ledger.charges.filter((c) => c.titleNumber === 'BLK2');
    expect(charged).toHaveLength(1);
    expect(bought.body.data?.purchaseTitleDetails).toEqual({
      charges: [{ fee: charged[0]!.charge.fee, transactionNumber: charged[0]!.charge.transactionNumber }],
      userErrors: [],
    });
    const replay = await buy('BLK2', key);
    expect(replay.body).toEqual(bought.body);
    expect(svc.emulator.ledger.count({ titleNumber: 'BLK2' })).toBe(1);
    expect(uncaught).toEqual([]);
  }, 60_000);

  test('inside the journal write after the register charged: the caller sees the charge, the journal gets it after recovery', async () => {
    // The register takes its time, so the claim is committed and visible before the charge comes back.
    const { svc, buy } = await serviceOnDatabase(600);
    const lock = await holder();
    const key = newKey('cut-in-record');
    const answer = buy('BLK3', key);
    await expect
      .poll(async () => (await lock.query('SELECT status FROM charge_journal WHERE key = $1', [key])).rows, {
        timeout: 10_000,
        interval: 20,
      })
      .toEqual([{ status: 'PENDING' }]);
    // Hold the pending journal row: the purchase's record updates its key, then waits to settle that row.
    await lock.query('BEGIN');
    await lock.query('SELECT 1 FROM charge_journal WHERE key = $1 FOR UPDATE', [key]);
    await purchaseWaitsForLock(/FROM charge_journal/);
    expect(svc.emulator.ledger.count({ titleNumber: 'BLK3' })).toBe(1);
    await setDatabaseReachable(database.name, false);

    const charged = svc.emulator.ledger.charges.find((c) => c.titleNumber === 'BLK3')!.charge;
    const shown = await answer;
    expect(shown.body.data?.purchaseTitleDetails?.charges).toEqual([{ fee: charged.fee, transactionNumber: charged.transactionNumber }]);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(2); // the warm-up's and this one's, never re-sent

    await recover(svc);
    await expect
      .poll(
        async () =>
          (await svc.services.idempotency.chargeRecords('client-a', londonDate(new Date()))).filter((r) => r.idempotencyKey === key),
        {
          timeout: 20_000,
          interval: 200,
        },
      )
      .toEqual([
        expect.objectContaining({ status: 'CHARGED', charge: expect.objectContaining({ transactionNumber: charged.transactionNumber }) }),
      ]);
    const replay = await buy('BLK3', key);
    expect(replay.body.data?.purchaseTitleDetails?.charges).toEqual(shown.body.data?.purchaseTitleDetails?.charges);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(2);
    expect(svc.emulator.ledger.count({ titleNumber: 'BLK3' })).toBe(1);
    expect(uncaught).toEqual([]);
  }, 60_000);
});
