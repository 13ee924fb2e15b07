/**
 * The journal across an upgrade to entries settled in place, and back (README "Upgrading and
 * rolling back"), on SQLite and PostgreSQL. The previous release's writes are its own SQL, as it
 * sent it: one PENDING entry per call (no product), settled by deleting it and inserting the charges.
 * Upgrade: its calls in flight settle in place under this release. Rollback: it reads and settles
 * the entries this release wrote.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { describe, expect, onTestFinished, test } from 'vitest';
import { PgIdempotencyStore } from '../../src/storage/idempotency/pg-store';
import { SqliteIdempotencyStore } from '../../src/storage/idempotency/sqlite-store';
import type { CallerStamp, IdempotencyStore, SpendCheck } from '../../src/storage/idempotency/store';
import { createTestDatabase, postgresSuite } from '../support/pg';
import { CallerDirectory } from '../../src/services/callers';
import { IdentityProviders, type IdentityProviderConfig } from '../../src/services/identity';
import { isOwnRecord, ownRows } from '../../src/storage/idempotency/callers';

/** The previous release's SQL, in `?` placeholders (PostgreSQL's are numbered from them). */
const PREVIOUS = {
  claimKey: `INSERT INTO idempotency (scope, key, operation, input_hash, state, created_at, updated_at, caller)
    VALUES (?, ?, 'orderTitleDocument', 'h', 'in_progress', ?, ?, 'alice')`,
  pendingEntry: `INSERT INTO charge_journal (scope, key, status, operation, fas, title_number, charge, day, recorded_at, reference, product, amount_pence, caller, caller_name)
    VALUES (?, ?, 'PENDING', 'orderTitleDocument', '0877', ?, NULL, '2026-03-10', ?, NULL, NULL, ?, 'alice', NULL)`,
  read: `SELECT id, scope, reference, status, operation, key, fas, title_number, charge, day, recorded_at, caller, caller_name
    FROM charge_journal WHERE scope = ? AND day = ? ORDER BY recorded_at, id`,
  openEntry: `SELECT operation, fas, title_number, reference, caller, caller_name FROM charge_journal
    WHERE scope = ? AND key = ? AND status IN ('PENDING', 'OUTCOME_UNKNOWN')`,
  deleteOpen: `DELETE FROM charge_journal WHERE scope = ? AND key = ? AND status IN ('PENDING', 'OUTCOME_UNKNOWN')`,
  chargedEntry: `INSERT INTO charge_journal (scope, key, status, operation, fas, title_number, charge, day, recorded_at, reference, product, amount_pence, caller, caller_name)
    VALUES (?, ?, 'CHARGED', ?, ?, ?, ?, '2026-03-10', ?, ?, ?, ?, ?, ?)`,
  unknown: `UPDATE charge_journal SET status = 'OUTCOME_UNKNOWN' WHERE scope = ? AND key = ? AND status = 'PENDING'`,
  /** A paid purchase as it kept it: the caller by its bare name, no principal. */
  paidKey: `INSERT INTO idempotency (scope, key, operation, input_hash, state, outcome, created_at, updated_at, caller)
    VALUES (?, ?, 'purchaseTitleDetails', 'h', 'succeeded', '"paid"', 1, 1, ?)`,
  paidEntry: `INSERT INTO charge_journal (scope, key, status, operation, fas, title_number, charge, day, recorded_at, reference, product, amount_pence, caller, caller_name)
    VALUES (?, ?, 'CHARGED', 'purchaseTitleDetails', '0877', 'BLK1', '{"fee":"3.00"}', '2026-03-10', ?, NULL, 'TITLE_DATA_AND_PLANS', 300, ?, NULL)`,
  /** Its journal of one caller, and its replay check's read of a key's caller. */
  callerRecords: `SELECT key FROM charge_journal WHERE scope = ? AND day = ? AND (caller = ? OR caller IS NULL) ORDER BY recorded_at, id`,
  keyCaller: `SELECT caller FROM idempotency WHERE scope = ? AND key = ?`,
};

type Row = Record<string, string | number | null>;
/** The key `alice` (the previous release wrote her bare name). */
const ALICE: CallerStamp = { id: 'key:alice', subject: 'alice', ownsLegacyRows: true };
/** The previous release's connection to the same tables. */
interface Previous {
  run(sql: string, ...values: (string | number | null)[]): Promise<Row[]>;
}

interface Backend {
  name: string;
  run: boolean;
  /** The new release's store and the previous release's connection, on one fresh storage. */
  open(): Promise<{ store: () => Promise<IdempotencyStore>; previous: Previous }>;
}

const sqlite: Backend = {
  name: 'SQLite',
  run: true,
  async open() {
    const dir = mkdtempSync(join(tmpdir(), 'titlegraph-journal-upgrade-'));
    const stores: IdempotencyStore[] = [];
    // The tables as the previous release made them: this release changes none.
    const first = new SqliteIdempotencyStore(dir);
    await first.close();
    const db = new DatabaseSync(join(dir, 'idempotency.sqlite'));
    onTestFinished(async () => {
      for (const s of stores) await s.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    });
    return {
      store: async () => {
        const store = new SqliteIdempotencyStore(dir);
        stores.push(store);
        return store;
      },
      previous: { run: async (sql, ...values) => db.prepare(sql).all(...values) as Row[] },
    };
  },
};

const pgSuite = await postgresSuite();
const postgres: Backend = {
  name: pgSuite.title('PostgreSQL'),
  run: pgSuite.run,
  async open() {
    const database = await createTestDatabase('journal_upgrade');
    const stores: IdempotencyStore[] = [];
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    onTestFinished(async () => {
      for (const s of stores) await s.close();
      await client.end();
      await database.drop();
    });
    const store = async () => {
      const opened = new PgIdempotencyStore({ connectionString: database.url, maxConnections: 2 });
      stores.push(opened);
      await opened.ready();
      return opened;
    };
    await store();
    let n = 0;
    const numbered = (sql: string) => sql.replace(/\?/g, () => `$${++n}`);
    return {
      store,
      previous: {
        run: async (sql, ...values) => {
          n = 0;
          return (await client.query(numbered(sql), values)).rows as Row[];
        },
      },
    };
  },
};

const BOTH: SpendCheck = {
  products: ['TITLE_DATA_AND_PLANS', 'PENDING_APPLICATIONS'],
  feesPence: { TITLE_DATA_AND_PLANS: 300, PENDING_APPLICATIONS: 300 },
  organisation: 'ORG-A',
  organisationClients: ['c1'],
};
const charge = (titleNumber: string, productType: string) => ({
  status: 'NEW',
  productType,
  details: productType,
  fee: '3.00',
  fas: '0877',
  transactionNumber: `RT-${titleNumber}-${productType}`,
});

for (const backend of [sqlite, postgres]) {
  describe.skipIf(!backend.run)(`${backend.name}: the journal across the upgrade to entries settled in place`, () => {
    test('upgrade: a call the previous release left in flight settles in place, its first charge in its entry, the other beside it', async () => {
      const { store: open, previous } = await backend.open();
      // In flight when the previous release stopped (just now): claimed, one entry for the call, 6.00 reserved.
      const at = Date.now();
      await previous.run(PREVIOUS.claimKey, 'c1', 'inflight', at, at);
      await previous.run(PREVIOUS.pendingEntry, 'c1', 'inflight', 'BLK1', at, 600);
      await previous.run(PREVIOUS.claimKey, 'c1', 'lost', at + 100, at + 100);
      await previous.run(PREVIOUS.pendingEntry, 'c1', 'lost', 'BLK2', at + 100, 600);
      const store = await open();
      const before = await store.chargeRecords('c1', '2026-03-10');
      expect(before.map((r) => [r.idempotencyKey, r.status, r.product, r.recordedAt])).toEqual([
        ['inflight', 'PENDING', null, at],
        ['lost', 'PENDING', null, at + 100],
      ]);
      expect(await store.spendTotals(['c1'], '2026-03-10')).toEqual({ chargedPence: 0, pendingPence: 1_200 });
      const range = { clients: ['c1'], from: '2026-03-10', to: '2026-03-10' };
      const firstPage = await store.statementPage({ ...range, limit: 1 });

      await store.finish('c1', 'inflight', 'succeeded', '"x"', {
        charges: [charge('BLK1', 'TITLE_DATA_AND_PLANS'), charge('BLK1', 'PENDING_APPLICATIONS')],
        day: '2026-03-10',
      });
      await store.finish('c1', 'lost', 'outcome_unknown', '"lost"', { charges: [], day: '2026-03-10' });
      const after = await store.chargeRecords('c1', '2026-03-10');
      expect(after.map((r) => [r.idempotencyKey, r.status, r.product, r.recordedAt])).toEqual([
        ['inflight', 'CHARGED', 'TITLE_DATA_AND_PLANS', at],
        ['inflight', 'CHARGED', 'PENDING_APPLICATIONS', at],
        ['lost', 'OUTCOME_UNKNOWN', null, at + 100],
      ]);
      // The entry kept its place: a reader past it reads on from the charge beside it, not it again.
      const rest = await store.statementPage({ ...range, after: firstPage.last, limit: 10 });
      expect(rest.records.map((r) => [r.idempotencyKey, r.charge?.productType ?? null])).toEqual([
        ['inflight', 'PENDING_APPLICATIONS'],
        ['lost', null],
      ]);
      expect(await store.spendTotals(['c1'], '2026-03-10')).toEqual({ chargedPence: 600, pendingPence: 600 });
    });

    test('rollback: the previous release reads this release’s entries and settles them its own way', async () => {
      const { store: open, previous } = await backend.open();
      const store = await open();
      const purchase = (titleNumber: string) => ({
        operation: 'orderTitleDocument',
        fas: '0877',
        titleNumber,
        day: '2026-03-10',
        caller: ALICE,
        spend: BOTH,
      });
      await store.claim('c1', 'charged', 'orderTitleDocument', 'h', purchase('BLK1'), ALICE);
      await store.claim('c1', 'lost', 'orderTitleDocument', 'h', purchase('BLK2'), ALICE);
      await store.claim('c1', 'settled', 'orderTitleDocument', 'h', purchase('BLK3'), ALICE);
      await store.finish('c1', 'settled', 'succeeded', '"x"', { charges: [charge('BLK3', 'TITLE_DATA_AND_PLANS')], day: '2026-03-10' });

      // Its read: a PENDING entry is a call in flight, which it reads as OUTCOME_UNKNOWN.
      const read = await previous.run(PREVIOUS.read, 'c1', '2026-03-10');
      expect(read.map((r) => [r.key, r.status === 'CHARGED' ? 'CHARGED' : 'OUTCOME_UNKNOWN'])).toEqual([
        ['charged', 'OUTCOME_UNKNOWN'],
        ['charged', 'OUTCOME_UNKNOWN'],
        ['lost', 'OUTCOME_UNKNOWN'],
        ['lost', 'OUTCOME_UNKNOWN'],
        ['settled', 'CHARGED'],
      ]);

      // Its settlement of a call this release claimed (two entries): read the first, remove them all, write the charges.
      const [open1] = await previous.run(PREVIOUS.openEntry, 'c1', 'charged');
      await previous.run(PREVIOUS.deleteOpen, 'c1', 'charged');
      for (const product of ['TITLE_DATA_AND_PLANS', 'PENDING_APPLICATIONS']) {
        const c = charge('BLK1', product);
        await previous.run(
          PREVIOUS.chargedEntry,
          'c1',
          'charged',
          open1!.operation!,
          c.fas,
          open1!.title_number!,
          JSON.stringify(c),
          // its clock at the answer, as it wrote recorded_at
          Date.now(),
          null,
          product,
          300,
          open1!.caller ?? null,
          null,
        );
      }
      await previous.run(PREVIOUS.unknown, 'c1', 'lost');

      // Rolled forward again, this release reads what it wrote.
      const again = await open();
      const records = await again.chargeRecords('c1', '2026-03-10');
      expect(records.map((r) => [r.idempotencyKey, r.status, r.charge?.productType ?? r.product])).toEqual([
        ['lost', 'OUTCOME_UNKNOWN', 'TITLE_DATA_AND_PLANS'],
        ['lost', 'OUTCOME_UNKNOWN', 'PENDING_APPLICATIONS'],
        ['settled', 'CHARGED', 'TITLE_DATA_AND_PLANS'],
        ['charged', 'CHARGED', 'TITLE_DATA_AND_PLANS'],
        ['charged', 'CHARGED', 'PENDING_APPLICATIONS'],
      ]);
      expect(await again.spendTotals(['c1'], '2026-03-10')).toEqual({ chargedPence: 900, pendingPence: 600 });
    });
  });

  describe.skipIf(!backend.run)(`${backend.name}: callers become principals across the upgrade, and back`, () => {
    const provider = (name: string, clientId: string): IdentityProviderConfig => ({
      name,
      issuer: `https://${name}.example`,
      audience: 'titlegraph',
      organisation: 'ORG-A',
      clientId,
      clientSecret: 's',
    });
    // c1: a key `ann` and one provider; c2: two providers and no key.
    const directory = new CallerDirectory(
      undefined as never,
      [{ name: 'ann', apiKeySha256: 'a'.repeat(64), clientId: 'c1', clientSecret: 's' }],
      undefined,
      undefined,
      new IdentityProviders([provider('idp-one', 'c1'), provider('idp-two', 'c2'), provider('idp-three', 'c2')]),
    );
    const stamp = (id: string, subject: string, ownsLegacyRows: boolean): CallerStamp => ({ id, subject, ownsLegacyRows });
    const keyAnn = stamp('key:ann', 'ann', true);
    const personAnn = stamp('person:idp-one:ann', 'ann', false);
    const bob = stamp('person:idp-one:bob', 'bob', true);

    test('upgrade: the previous release’s rows get the principal the rule names; until then, and for rows it writes after, the rule decides', async () => {
      const { store: open, previous } = await backend.open();
      await previous.run(PREVIOUS.paidKey, 'c1', 'ann-1', 'ann');
      await previous.run(PREVIOUS.paidEntry, 'c1', 'ann-1', 1, 'ann');
      await previous.run(PREVIOUS.paidKey, 'c1', 'bob-1', 'bob');
      await previous.run(PREVIOUS.paidEntry, 'c1', 'bob-1', 2, 'bob');
      await previous.run(PREVIOUS.paidKey, 'c2', 'carol-1', 'carol');
      await previous.run(PREVIOUS.paidEntry, 'c2', 'carol-1', 3, 'carol');
      const store = await open();
      const keysOf = async (scope: string, who: CallerStamp) =>
        (await store.chargeRecords(scope, '2026-03-10', ownRows(who))).map((r) => r.idempotencyKey);
      // Before adoption the rule decides at read time: the key `ann` (not the person `ann`) owns `ann`'s rows.
      expect(await keysOf('c1', keyAnn)).toEqual(['ann-1']);
      expect(await keysOf('c1', personAnn)).toEqual([]);
      expect(await keysOf('c1', bob)).toEqual(['bob-1']);

      expect(await store.adoptLegacyCallers((scope, subject) => directory.legacyOwner(scope, subject))).toBe(4);
      const ann1 = (await store.get('c1', 'ann-1'))!;
      expect([ann1.callerId, ann1.callerSubject]).toEqual(['key:ann', 'ann']);
      expect((await store.get('c1', 'bob-1'))!.callerId).toBe('person:idp-one:bob');
      // Two providers act as c2: whose `carol` was cannot be told, so nobody's to replay; the accounts still see it.
      const carol = (await store.get('c2', 'carol-1'))!;
      expect(carol.callerId).toBeNull();
      for (const id of ['person:idp-two:carol', 'person:idp-three:carol'])
        expect(isOwnRecord(carol, stamp(id, 'carol', false))).toBe(false);
      expect((await store.chargeRecords('c2', '2026-03-10')).map((r) => [r.idempotencyKey, r.callerId])).toEqual([['carol-1', null]]);
      expect(isOwnRecord(ann1, keyAnn)).toBe(true);
      expect(isOwnRecord(ann1, personAnn)).toBe(false);

      // A replica of the previous release still writing during a rolling upgrade: its rows are the rule's at once, adopted later.
      await previous.run(PREVIOUS.paidKey, 'c1', 'ann-2', 'ann');
      await previous.run(PREVIOUS.paidEntry, 'c1', 'ann-2', 4, 'ann');
      expect(await keysOf('c1', keyAnn)).toEqual(['ann-1', 'ann-2']);
      expect(await keysOf('c1', personAnn)).toEqual([]);
      expect(isOwnRecord((await store.get('c1', 'ann-2'))!, keyAnn)).toBe(true);
      expect(await store.adoptLegacyCallers((scope, subject) => directory.legacyOwner(scope, subject))).toBe(2);
      expect(await store.adoptLegacyCallers((scope, subject) => directory.legacyOwner(scope, subject))).toBe(0);
    });

    test('rollback: the previous release finds each caller’s rows by the bare name it kept, beside the principal', async () => {
      const { store: open, previous } = await backend.open();
      const store = await open();
      const purchase = (titleNumber: string, caller: CallerStamp) => ({
        operation: 'purchaseTitleDetails',
        fas: '0877',
        titleNumber,
        day: '2026-03-10',
        caller,
        spend: BOTH,
      });
      for (const [key, who] of [
        ['by-key', keyAnn],
        ['by-person', personAnn],
      ] as const) {
        await store.claim('c1', key, 'purchaseTitleDetails', 'h', purchase('BLK1', who), who);
        await store.finish('c1', key, 'succeeded', '"x"', { charges: [charge('BLK1', 'TITLE_DATA_AND_PLANS')], day: '2026-03-10' });
        expect(await previous.run(PREVIOUS.keyCaller, 'c1', key)).toEqual([{ caller: 'ann' }]);
      }
      // It reads `ann`'s journal as it always did (by the bare name, which could not tell them apart then either).
      expect((await previous.run(PREVIOUS.callerRecords, 'c1', '2026-03-10', 'ann')).map((r) => r.key)).toEqual(['by-key', 'by-person']);
    });
  });
}
