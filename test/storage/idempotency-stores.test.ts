/**
 * Both idempotency stores, for what the contract test leaves open: whose FAS a journal entry
 * names, a finish that reports charges for a key claimed without a charge intent, closing, the
 * default schema, a database that cannot be reached, and a journal written before spend control.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { PgIdempotencyStore, SPEND_LOCK } from '../../src/storage/idempotency/pg-store';
import { SqliteIdempotencyStore } from '../../src/storage/idempotency/sqlite-store';
import { claimWith } from '../../src/storage/idempotency/claim';
import type { IdempotencyRecord, IdempotencyStore, SpendCheck } from '../../src/storage/idempotency/store';
import { SpendRefused, spendReservation } from '../../src/storage/idempotency/spending-decision';
import { createTestDatabase, postgresSuite, type TestDatabase } from '../support/pg';

const HASH = 'c'.repeat(64);
const DAY = '2026-03-10';
const charge = (fas: string) => ({
  status: 'NEW',
  productType: 'TITLE_DATA_AND_PLANS',
  details: 'd',
  fee: '3.00',
  fas,
  transactionNumber: 'RT1',
});

const pgSuite = await postgresSuite();
let database: TestDatabase | undefined;
let schemas = 0;

const backends: {
  name: string;
  run: boolean;
  open(): Promise<{ store: IdempotencyStore; reopen(): Promise<IdempotencyStore>; cleanup(): Promise<void> }>;
}[] = [
  {
    name: 'SQLite store',
    run: true,
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'titlegraph-strength-'));
      const opened: IdempotencyStore[] = [];
      const make = async () => {
        const store = new SqliteIdempotencyStore(dir);
        opened.push(store);
        return store;
      };
      return {
        store: await make(),
        reopen: make,
        async cleanup() {
          for (const s of opened) await s.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  },
  {
    name: pgSuite.title('PostgreSQL store'),
    run: pgSuite.run,
    async open() {
      const schema = `strength_${++schemas}`;
      const opened: IdempotencyStore[] = [];
      const make = async () => {
        const store = new PgIdempotencyStore({ connectionString: database!.url, schema, maxConnections: 2 });
        await store.ready();
        opened.push(store);
        return store;
      };
      return {
        store: await make(),
        reopen: make,
        async cleanup() {
          for (const s of opened) await s.close();
        },
      };
    },
  },
];

beforeAll(async () => {
  if (pgSuite.run) database = await createTestDatabase('strength');
});
afterAll(async () => {
  await database?.drop();
});

for (const backend of backends) {
  describe.skipIf(!backend.run)(backend.name, () => {
    test("a charge names the register's FAS; one that names none takes the FAS the key was claimed with", async () => {
      const { store, cleanup } = await backend.open();
      onTestFinished(() => cleanup());
      await store.claim('t1', 'k1', 'purchaseTitleDetails', HASH, {
        operation: 'purchaseTitleDetails',
        fas: '0877',
        titleNumber: 'MID1',
        day: DAY,
      });
      await store.finish('t1', 'k1', 'succeeded', '{}', { charges: [charge('1234')], day: DAY });
      await store.claim('t1', 'k2', 'purchaseTitleDetails', HASH, {
        operation: 'purchaseTitleDetails',
        fas: '0877',
        titleNumber: 'MID2',
        day: DAY,
      });
      await store.finish('t1', 'k2', 'succeeded', '{}', { charges: [charge('')], day: DAY });
      const records = await store.chargeRecords('t1', DAY);
      expect(records.map((r) => [r.idempotencyKey, r.fas, r.titleNumber, r.status])).toEqual([
        ['k1', '1234', 'MID1', 'CHARGED'],
        ['k2', '0877', 'MID2', 'CHARGED'],
      ]);
    });

    test('charges reported for a key claimed without a charge intent are not journalled, and nothing fails', async () => {
      const { store, cleanup } = await backend.open();
      onTestFinished(() => cleanup());
      await store.claim('t1', 'k', 'createCase', HASH);
      await store.finish('t1', 'k', 'succeeded', '{"ok":true}', { charges: [charge('0877')], day: DAY });
      expect(await store.chargeRecords('t1', DAY)).toEqual([]);
      expect(await store.get('t1', 'k')).toMatchObject({ state: 'succeeded', outcome: '{"ok":true}' });
    });

    test('close can be called twice; a closed store refuses work; another store on the same data keeps it', async () => {
      const { store, reopen, cleanup } = await backend.open();
      onTestFinished(() => cleanup());
      await store.claim('t1', 'k', 'op', HASH);
      await store.close();
      await expect(store.close()).resolves.toBeUndefined();
      await expect(store.get('t1', 'k')).rejects.toThrow();
      const again = await reopen();
      expect(await again.get('t1', 'k')).toMatchObject({ state: 'in_progress', inputHash: HASH });
    });
  });
}

describe.skipIf(!pgSuite.run)(pgSuite.title('PostgreSQL store, the spending lock'), () => {
  /**
   * Replicas decide an organisation's spending one after the other because each chargeable claim
   * takes the organisation's advisory lock first. Held here by another connection (as another
   * replica's claim would hold it), a claim must wait for it: asserted on PostgreSQL's own lock
   * table, not on timing, so a claim that skips the lock fails every run, not only when it races.
   */
  test("a chargeable claim waits for the organisation's lock held by another replica, then decides", async () => {
    const schema = `strength_${++schemas}`;
    const store = new PgIdempotencyStore({ connectionString: database!.url, schema, maxConnections: 2 });
    onTestFinished(() => store.close());
    await store.ready();
    const holder = new pg.Client({ connectionString: database!.url });
    await holder.connect();
    onTestFinished(() => holder.end());
    const spend: SpendCheck = {
      products: ['TITLE_DATA_AND_PLANS'],
      feesPence: { TITLE_DATA_AND_PLANS: 300 } as SpendCheck['feesPence'],
      organisation: 'org-locked',
      organisationClients: ['t-locked'],
      clientLimitPence: 1_000,
    };
    await holder.query('BEGIN');
    // The same key the store locks with.
    await holder.query('SELECT pg_advisory_xact_lock(hashtextextended($1, $2))', ['org-locked', SPEND_LOCK]);
    let settled = false;
    const claim = store
      .claim('t-locked', 'k-locked', 'purchaseTitleDetails', HASH, {
        operation: 'purchaseTitleDetails',
        fas: '0877',
        titleNumber: 'MID1',
        day: DAY,
        spend,
      })
      .finally(() => {
        settled = true;
      });
    const waiting = async () => {
      const { rows } = await holder.query<{ n: string }>(
        `SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND objsubid = 1
           AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
           AND ((classid::bigint << 32) | objid::bigint) = hashtextextended($1, $2)`,
        ['org-locked', SPEND_LOCK],
      );
      return Number(rows[0]!.n);
    };
    // Until the claim is seen waiting on the lock, or has finished without it (the failure).
    while (!settled && (await waiting()) === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(settled, "the claim went ahead while another replica held the organisation's lock").toBe(false);
    await holder.query('COMMIT');
    expect(await claim).toEqual({ claimed: true, reservedPence: 300 });
  });
});

describe.skipIf(!pgSuite.run)(pgSuite.title('PostgreSQL store, set-up'), () => {
  test('without a schema it uses the search path; ready() rejects for a database it cannot reach', async () => {
    const store = new PgIdempotencyStore({ connectionString: database!.url });
    onTestFinished(() => store.close());
    await store.ready();
    expect(await store.claim('t1', 'plain', 'op', HASH)).toEqual({ claimed: true, reservedPence: 0 });
    expect(await store.get('t1', 'plain')).toMatchObject({ state: 'in_progress' });
    const unreachable = new PgIdempotencyStore({ connectionString: 'postgres://nobody@127.0.0.1:1/none' });
    await expect(unreachable.ready()).rejects.toThrow();
    await unreachable.close().catch(() => undefined);
  });
});

/** The journal as it was before spend control: no reference, product or amount columns. */
const journalBeforeSpendControl = (table: string, serial: string, integer: string) =>
  `CREATE TABLE ${table} (id ${serial}, scope TEXT NOT NULL, key TEXT NOT NULL, status TEXT NOT NULL, operation TEXT NOT NULL,
     fas TEXT NOT NULL, title_number TEXT NOT NULL, charge TEXT, day TEXT NOT NULL, recorded_at ${integer} NOT NULL)`;
const OLD_ROWS = [
  ['c1', 'k1', 'CHARGED', 'purchaseTitleDetails', '0877', 'MID1', JSON.stringify(charge('0877')), DAY, 1],
  [
    'c1',
    'k2',
    'CHARGED',
    'purchasePendingApplications',
    '0877',
    'MID2',
    JSON.stringify({ ...charge('0877'), productType: 'PENDING_APPLICATIONS', fee: '1.50' }),
    DAY,
    2,
  ],
  ['c1', 'k3', 'OUTCOME_UNKNOWN', 'purchaseTitleDetails', '0877', 'MID3', null, DAY, 3],
] as const;

/** What an upgraded journal must answer: the old charges' amounts and products, read from their JSON. */
async function expectUpgraded(store: IdempotencyStore) {
  expect((await store.spendTotals(['c1'], DAY)).chargedPence).toBe(450);
  expect([...(await store.chargedProducts(['c1'], DAY, '0877', 'MID1'))]).toEqual(['TITLE_DATA_AND_PLANS']);
  expect([...(await store.chargedProducts(['c1'], DAY, '0877', 'MID2'))]).toEqual(['PENDING_APPLICATIONS']);
  const page = await store.statementPage({ clients: ['c1'], from: DAY, to: DAY, limit: 10 });
  expect(page.records.map((r) => [r.idempotencyKey, r.status])).toEqual([
    ['k1', 'CHARGED'],
    ['k2', 'CHARGED'],
    ['k3', 'OUTCOME_UNKNOWN'],
  ]);
}

/** A data folder whose SQLite journal predates spend control (`more`: a later step it had already taken), holding OLD_ROWS. */
function sqliteJournalBeforeSpendControl(more?: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'titlegraph-legacy-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const db = new DatabaseSync(join(dir, 'idempotency.sqlite'));
  db.exec(journalBeforeSpendControl('charge_journal', 'INTEGER PRIMARY KEY AUTOINCREMENT', 'INTEGER'));
  if (more) db.exec(more);
  const insert = db.prepare(
    'INSERT INTO charge_journal (scope, key, status, operation, fas, title_number, charge, day, recorded_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  for (const row of OLD_ROWS) insert.run(...row);
  db.close();
  return dir;
}

describe('a journal written before spend control is upgraded when the store opens it', () => {
  test('SQLite: the columns are added and the old charges read back, once', async () => {
    const dir = sqliteJournalBeforeSpendControl();
    const store = new SqliteIdempotencyStore(dir);
    await expectUpgraded(store);
    await store.close();
    // opened again, the journal is not upgraded twice: the amounts are the same
    const again = new SqliteIdempotencyStore(dir);
    onTestFinished(() => again.close());
    await expectUpgraded(again);
  });

  test('SQLite: a journal that already has some of the columns gets only the others', async () => {
    const dir = sqliteJournalBeforeSpendControl('ALTER TABLE charge_journal ADD COLUMN reference TEXT');
    const store = new SqliteIdempotencyStore(dir);
    onTestFinished(() => store.close());
    await expectUpgraded(store);
  });

  // Its refusal during a full disk is test/server/disk-outage.test.ts's.
  test('SQLite: ping answers, as a promise, while the data file is sound', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'titlegraph-ping-'));
    const store = new SqliteIdempotencyStore(dir);
    onTestFinished(async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    });
    await expect(store.ping()).resolves.toBeUndefined();
  });

  test.skipIf(!pgSuite.run)('PostgreSQL: ping answers while the database is reachable, and not once the store is closed', async () => {
    const store = new PgIdempotencyStore({ connectionString: database!.url, schema: `ping_${++schemas}`, maxConnections: 1 });
    await store.ready();
    await expect(store.ping()).resolves.toBeUndefined();
    await store.close();
    await expect(store.ping()).rejects.toThrow();
  });

  test.skipIf(!pgSuite.run)('PostgreSQL: the columns are added and the old charges read back, once', async () => {
    const schema = `legacy_${++schemas}`;
    const client = new pg.Client({ connectionString: database!.url });
    await client.connect();
    onTestFinished(() => client.end());
    await client.query(`CREATE SCHEMA ${schema}`);
    await client.query(journalBeforeSpendControl(`${schema}.charge_journal`, 'BIGSERIAL PRIMARY KEY', 'BIGINT'));
    for (const row of OLD_ROWS) {
      await client.query(
        `INSERT INTO ${schema}.charge_journal (scope, key, status, operation, fas, title_number, charge, day, recorded_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`,
        [...row],
      );
    }
    for (let opening = 0; opening < 2; opening++) {
      const store = new PgIdempotencyStore({ connectionString: database!.url, schema, maxConnections: 1 });
      await store.ready();
      await expectUpgraded(store);
      await store.close();
    }
  });
});

describe('the claim protocol both stores share (claimWith)', () => {
  const record: IdempotencyRecord = {
    operation: 'purchaseTitleDetails',
    inputHash: HASH,
    state: 'succeeded',
    createdAt: 1,
    updatedAt: 1,
    callerId: null,
    callerSubject: null,
  };

  test('a key taken reserves its fee; a held key answers its record; a spending refusal is the answer', async () => {
    expect(
      await claimWith(
        async () => ({ reservedPence: 300 }),
        async () => undefined,
      ),
    ).toEqual({ claimed: true, reservedPence: 300 });
    expect(
      await claimWith(
        async () => undefined,
        async () => record,
      ),
    ).toEqual({ claimed: false, record });
    const refusal = { reason: 'client' as const, expectedPence: 300, limitPence: 500, remainingPence: 200 };
    expect(
      await claimWith(
        () => Promise.reject(new SpendRefused(refusal)),
        async () => record,
      ),
    ).toEqual({ claimed: false, refused: refusal });
  });

  test('any other failure of the transaction is thrown as it is', async () => {
    const broken = new Error('disk full');
    await expect(
      claimWith(
        () => Promise.reject(broken),
        async () => record,
      ),
    ).rejects.toBe(broken);
  });

  test('a key purged between the two reads is claimed again; one that keeps vanishing ends after four tries', async () => {
    let takes = 0;
    const purgedOnce = await claimWith(
      async () => (++takes === 2 ? { reservedPence: 0 } : undefined),
      async () => undefined,
    );
    expect(purgedOnce).toEqual({ claimed: true, reservedPence: 0 });
    expect(takes).toBe(2);
    takes = 0;
    await expect(
      claimWith(
        async () => {
          takes++;
          return undefined;
        },
        async () => undefined,
      ),
    ).rejects.toThrow('record vanished repeatedly');
    expect(takes).toBe(4);
  });
});

describe('the spending decision (spendReservation)', () => {
  const check = (over: Partial<SpendCheck> = {}): SpendCheck => ({
    products: ['TITLE_DATA_AND_PLANS'],
    feesPence: { TITLE_DATA_AND_PLANS: 300, PENDING_APPLICATIONS: 150 },
    organisation: 'ORG-A',
    organisationClients: ['c1'],
    ...over,
  });

  test('a product already bought today costs nothing, and is allowed even past a limit spent beyond (a fee that rose, a limit lowered)', () => {
    expect(spendReservation(check({ clientLimitPence: 300 }), new Set(['TITLE_DATA_AND_PLANS']), 450, 450)).toBe(0);
    expect(spendReservation(check({ organisationLimitPence: 300, maxFeePence: 0 }), new Set(['TITLE_DATA_AND_PLANS']), 0, 450)).toBe(0);
  });

  test('past a limit the call is refused with what is left; within it the expected fee is reserved', () => {
    expect(() => spendReservation(check({ clientLimitPence: 500 }), new Set(), 300, 300)).toThrow(SpendRefused);
    expect(spendReservation(check({ clientLimitPence: 600, organisationLimitPence: 600 }), new Set(), 300, 300)).toBe(300);
  });
});
