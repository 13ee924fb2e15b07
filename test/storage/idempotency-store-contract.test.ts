/**
 * One contract, two backends: the same store tests run against the embedded SQLite store and
 * the PostgreSQL store (a fresh database per run, a fresh schema per test).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PgIdempotencyStore } from '../../src/storage/idempotency/pg-store';
import { SqliteIdempotencyStore } from '../../src/storage/idempotency/sqlite-store';
import {
  type CallerStamp,
  type IdempotencyStore,
  PENDING_AT_MOST_MS,
  type SpendCheck,
  type StatementPosition,
} from '../../src/storage/idempotency/store';
import { createTestDatabase, postgresSuite, type TestDatabase } from '../support/pg';

/** One storage location; open() gives another store on it (another process, in effect). */
interface Storage {
  open(now?: () => number): Promise<IdempotencyStore>;
  cleanup(): Promise<void>;
}

interface Backend {
  name: string;
  run: boolean;
  setup?(): Promise<void>;
  teardown?(): Promise<void>;
  storage(): Promise<Storage>;
}

const sqlite: Backend = {
  name: 'SQLite store',
  run: true,
  async storage() {
    const dir = mkdtempSync(join(tmpdir(), 'titlegraph-contract-'));
    const opened: IdempotencyStore[] = [];
    return {
      async open(now) {
        const store = new SqliteIdempotencyStore(dir, now);
        opened.push(store);
        return store;
      },
      async cleanup() {
        for (const s of opened) await s.close().catch(() => undefined);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

const pgSuite = await postgresSuite();
let database: TestDatabase | undefined;
let schemaCounter = 0;
const postgres: Backend = {
  name: pgSuite.title('PostgreSQL store'),
  run: pgSuite.run,
  async setup() {
    database = await createTestDatabase('contract');
  },
  async teardown() {
    await database?.drop();
  },
  async storage() {
    const schema = `contract_${++schemaCounter}`;
    const opened: PgIdempotencyStore[] = [];
    return {
      async open(now) {
        const store = new PgIdempotencyStore({ connectionString: database!.url, schema, maxConnections: 4, ...(now ? { now } : {}) });
        opened.push(store);
        await store.ready();
        return store;
      },
      async cleanup() {
        for (const s of opened) await s.close();
      },
    };
  },
};

const HASH_A = 'a'.repeat(64);
const HASH_B = 'b'.repeat(64);

for (const backend of [sqlite, postgres]) {
  describe.skipIf(!backend.run)(backend.name, () => {
    beforeAll(async () => backend.setup?.());
    afterAll(async () => backend.teardown?.());

    /** A fresh storage per test, cleaned up after it. */
    async function withStorage(fn: (storage: Storage) => Promise<void>) {
      const storage = await backend.storage();
      try {
        await fn(storage);
      } finally {
        await storage.cleanup();
      }
    }

    test('a new key is claimed; a second claim sees it in progress with its input hash', () =>
      withStorage(async (storage) => {
        let clock = 1_000;
        const store = await storage.open(() => clock);
        expect(await store.get('t1', 'k')).toBeUndefined();
        expect(await store.claim('t1', 'k', 'purchaseTitleDetails', HASH_A)).toEqual({ claimed: true, reservedPence: 0 });
        clock = 2_000;
        const again = await store.claim('t1', 'k', 'purchaseTitleDetails', HASH_A);
        expect(again).toEqual({
          claimed: false,
          record: {
            operation: 'purchaseTitleDetails',
            inputHash: HASH_A,
            state: 'in_progress',
            createdAt: 1_000,
            updatedAt: 1_000,
            callerId: null,
            callerSubject: null,
          },
        });
      }));

    test('a finished key replays its stored outcome, exactly as stored', () =>
      withStorage(async (storage) => {
        let clock = 1_000;
        const store = await storage.open(() => clock);
        await store.claim('t1', 'k', 'op', HASH_A);
        const outcome = JSON.stringify({
          ok: true,
          value: { charges: [{ fee: '3.00', note: 'Ünïcødé ✓ "quoted"' }], big: 'x'.repeat(100_000) },
        });
        clock = 1_500;
        await store.finish('t1', 'k', 'succeeded', outcome);
        const replay = await store.claim('t1', 'k', 'op', HASH_A);
        expect(replay).toEqual({
          claimed: false,
          record: {
            operation: 'op',
            inputHash: HASH_A,
            state: 'succeeded',
            outcome,
            createdAt: 1_000,
            updatedAt: 1_500,
            callerId: null,
            callerSubject: null,
          },
        });
        expect(await store.get('t1', 'k')).toEqual(replay.claimed ? undefined : replay.record);
      }));

    test('a key used with different input or another operation is not claimed: the original record comes back', () =>
      withStorage(async (storage) => {
        const store = await storage.open();
        await store.claim('t1', 'k', 'op', HASH_A);
        await store.finish('t1', 'k', 'succeeded', '{"ok":true}');
        const otherInput = await store.claim('t1', 'k', 'op', HASH_B);
        expect(otherInput).toMatchObject({ claimed: false, record: { inputHash: HASH_A, operation: 'op', state: 'succeeded' } });
        const otherOperation = await store.claim('t1', 'k', 'other', HASH_A);
        expect(otherOperation).toMatchObject({ claimed: false, record: { inputHash: HASH_A, operation: 'op' } });
      }));

    test('a retryable failure is re-claimed by the same input only, and its outcome is cleared', () =>
      withStorage(async (storage) => {
        let clock = 1_000;
        const store = await storage.open(() => clock);
        await store.claim('t1', 'k', 'op', HASH_A);
        clock = 2_000;
        await store.finish('t1', 'k', 'failed_retryable', 'leftover');
        expect(await store.claim('t1', 'k', 'op', HASH_B)).toMatchObject({ claimed: false, record: { state: 'failed_retryable' } });
        expect(await store.claim('t1', 'k', 'other', HASH_A)).toMatchObject({ claimed: false, record: { state: 'failed_retryable' } });
        clock = 3_000;
        expect(await store.claim('t1', 'k', 'op', HASH_A)).toEqual({ claimed: true, reservedPence: 0 });
        expect(await store.get('t1', 'k')).toEqual({
          operation: 'op',
          inputHash: HASH_A,
          state: 'in_progress',
          createdAt: 1_000,
          updatedAt: 3_000,
          callerId: null,
          callerSubject: null,
        });
        // Taken again: a second claim does not win too.
        expect(await store.claim('t1', 'k', 'op', HASH_A)).toMatchObject({ claimed: false, record: { state: 'in_progress' } });
      }));

    test('succeeded, failed_final and outcome_unknown are final: never claimed again', () =>
      withStorage(async (storage) => {
        const store = await storage.open();
        for (const state of ['succeeded', 'failed_final', 'outcome_unknown'] as const) {
          await store.claim('t1', state, 'op', HASH_A);
          await store.finish('t1', state, state, state === 'outcome_unknown' ? undefined : `{"state":"${state}"}`);
          const result = await store.claim('t1', state, 'op', HASH_A);
          expect(result).toMatchObject({ claimed: false, record: { state } });
          if (!result.claimed && state === 'outcome_unknown') expect(result.record?.outcome).toBeUndefined();
        }
      }));

    test('keys are scoped: the same key in two scopes is two records', () =>
      withStorage(async (storage) => {
        const store = await storage.open();
        expect(await store.claim('client-a', 'k', 'op', HASH_A)).toEqual({ claimed: true, reservedPence: 0 });
        expect(await store.claim('client-b', 'k', 'op', HASH_B)).toEqual({ claimed: true, reservedPence: 0 });
        await store.finish('client-a', 'k', 'succeeded', '"a"');
        expect(await store.get('client-b', 'k')).toMatchObject({ state: 'in_progress', inputHash: HASH_B });
      }));

    test('purge deletes records last touched before the cut-off and reports how many', () =>
      withStorage(async (storage) => {
        let clock = 1_000;
        const store = await storage.open(() => clock);
        await store.claim('t1', 'old', 'op', HASH_A);
        await store.claim('t1', 'touched', 'op', HASH_A);
        clock = 5_000;
        await store.finish('t1', 'touched', 'succeeded', '"x"'); // updated at 5000
        await store.claim('t2', 'new', 'op', HASH_A);
        expect(await store.purge(3_000)).toBe(1);
        expect(await store.get('t1', 'old')).toBeUndefined();
        expect(await store.get('t1', 'touched')).toMatchObject({ state: 'succeeded' });
        expect(await store.get('t2', 'new')).toMatchObject({ state: 'in_progress' });
        expect(await store.purge(3_000)).toBe(0);
        // A purged key is new again.
        expect(await store.claim('t1', 'old', 'op', HASH_B)).toEqual({ claimed: true, reservedPence: 0 });
      }));

    test('records are durable: a store opened later (a restart) sees them', () =>
      withStorage(async (storage) => {
        const first = await storage.open();
        await first.claim('t1', 'k', 'op', HASH_A);
        await first.finish('t1', 'k', 'failed_final', '{"ok":false}');
        await first.close();
        const second = await storage.open();
        expect(await second.claim('t1', 'k', 'op', HASH_A)).toMatchObject({
          claimed: false,
          record: { state: 'failed_final', outcome: '{"ok":false}' },
        });
      }));

    test('concurrent claims of one key from several stores: exactly one winner', () =>
      withStorage(async (storage) => {
        // Several stores on one storage, opened together (their DDL races too), like replicas.
        const stores = await Promise.all(Array.from({ length: 4 }, () => storage.open()));
        for (let round = 0; round < 5; round++) {
          const key = `race-${round}`;
          const results = await Promise.all(
            Array.from({ length: 40 }, (_, i) => stores[i % stores.length]!.claim('t1', key, 'op', HASH_A)),
          );
          expect(results.filter((r) => r.claimed)).toHaveLength(1);
          for (const r of results) if (!r.claimed) expect(r.record).toMatchObject({ state: 'in_progress', inputHash: HASH_A });
        }
      }));

    const intent = (day = '2026-03-10') => ({ operation: 'purchaseTitleDetails', fas: '0877', titleNumber: 'MID15313', day });
    const charge = (transactionNumber: string) => ({
      status: 'NEW',
      productType: 'TITLE_DATA_AND_PLANS',
      details: 'Title data and plans',
      fee: '3.00',
      fas: '0877',
      transactionNumber,
      reference: 'ref',
    });

    test('journal: a claimed chargeable key reads PENDING until it ends; a success leaves one CHARGED entry per charge, recorded when claimed', () =>
      withStorage(async (storage) => {
        let clock = 1_000;
        const store = await storage.open(() => clock);
        await store.claim('t1', 'k', 'purchaseTitleDetails', HASH_A, intent());
        expect(await store.chargeRecords('t1', '2026-03-10')).toEqual([
          {
            status: 'PENDING',
            operation: 'purchaseTitleDetails',
            idempotencyKey: 'k',
            fas: '0877',
            titleNumber: 'MID15313',
            charge: null,
            day: '2026-03-10',
            recordedAt: 1_000,
            apiClient: 't1',
            reference: null,
            // An intent without a caller (as written before callers were kept) reads as its API client's.
            caller: 't1',
            callerId: null,
            callerName: null,
            // An intent that names no products has one entry, for whatever the call charges.
            product: null,
          },
        ]);
        clock = 2_000;
        await store.finish('t1', 'k', 'succeeded', '"x"', { charges: [charge('RT1'), charge('RT2')], day: '2026-03-10' });
        const records = await store.chargeRecords('t1', '2026-03-10');
        // recorded_at is the record's time, the claim's: settling does not move it.
        expect(records.map((r) => [r.status, r.charge?.transactionNumber, r.recordedAt])).toEqual([
          ['CHARGED', 'RT1', 1_000],
          ['CHARGED', 'RT2', 1_000],
        ]);
        expect(await store.chargeRecords('t1', '2026-03-11')).toEqual([]);
        expect(await store.chargeRecords('t2', '2026-03-10')).toEqual([]);
      }));

    test('journal: a success without charges, a final refusal and a retryable failure leave no entry', () =>
      withStorage(async (storage) => {
        const store = await storage.open();
        for (const [key, state] of [
          ['free', 'succeeded'],
          ['refused', 'failed_final'],
          ['retry', 'failed_retryable'],
        ] as const) {
          await store.claim('t1', key, 'purchaseTitleDetails', HASH_A, intent());
          await store.finish(
            't1',
            key,
            state,
            state === 'failed_retryable' ? undefined : '"x"',
            state === 'succeeded' ? { charges: [], day: '2026-03-10' } : undefined,
          );
        }
        expect(await store.chargeRecords('t1', '2026-03-10')).toEqual([]);
        // the retryable key, taken again, gets one pending entry again (not two)
        expect(await store.claim('t1', 'retry', 'purchaseTitleDetails', HASH_A, intent())).toEqual({ claimed: true, reservedPence: 0 });
        expect((await store.chargeRecords('t1', '2026-03-10')).map((r) => r.idempotencyKey)).toEqual(['retry']);
      }));

    test('journal: an unknown outcome stays, moved to the register day the call went out on', () =>
      withStorage(async (storage) => {
        const store = await storage.open();
        await store.claim('t1', 'k', 'purchaseTitleDetails', HASH_A, intent('2026-11-23'));
        await store.finish('t1', 'k', 'outcome_unknown', '"lost"', { charges: [], day: '2026-01-15' });
        expect(await store.chargeRecords('t1', '2026-11-23')).toEqual([]);
        expect(await store.chargeRecords('t1', '2026-01-15')).toEqual([
          expect.objectContaining({ idempotencyKey: 'k', status: 'OUTCOME_UNKNOWN', charge: null }),
        ]);
      }));

    test('journal: outlives the purge of keys; purgeJournal removes entries recorded before its cut-off', () =>
      withStorage(async (storage) => {
        let clock = 1_000;
        const store = await storage.open(() => clock);
        await store.claim('t1', 'old', 'purchaseTitleDetails', HASH_A, intent());
        await store.finish('t1', 'old', 'succeeded', '"x"', { charges: [charge('RT1')], day: '2026-03-10' });
        clock = 9_000;
        await store.claim('t1', 'new', 'purchaseTitleDetails', HASH_A, intent());
        await store.finish('t1', 'new', 'succeeded', '"x"', { charges: [charge('RT2')], day: '2026-03-10' });
        expect(await store.purge(10_000)).toBe(2);
        expect(await store.chargeRecords('t1', '2026-03-10')).toHaveLength(2);
        expect(await store.purgeJournal(5_000)).toBe(1);
        expect((await store.chargeRecords('t1', '2026-03-10')).map((r) => r.charge?.transactionNumber)).toEqual(['RT2']);
      }));

    test('settleStale: only a key still in progress since before the cut-off; once, whoever asks', () =>
      withStorage(async (storage) => {
        let clock = 1_000;
        const stores = await Promise.all([storage.open(() => clock), storage.open(() => clock)]);
        await stores[0]!.claim('t1', 'k', 'purchaseTitleDetails', HASH_A, intent());
        expect(await stores[0]!.settleStale('t1', 'k', 1_000, '"unknown"')).toBe(false); // not stale yet
        clock = 5_000;
        const settled = await Promise.all([
          stores[0]!.settleStale('t1', 'k', 2_000, '"unknown"'),
          stores[1]!.settleStale('t1', 'k', 2_000, '"unknown"'),
        ]);
        expect(settled.filter(Boolean)).toHaveLength(1);
        expect(await stores[1]!.get('t1', 'k')).toMatchObject({ state: 'outcome_unknown', outcome: '"unknown"' });
        expect((await stores[1]!.chargeRecords('t1', '2026-03-10')).map((r) => r.status)).toEqual(['OUTCOME_UNKNOWN']);
        await stores[0]!.claim('t1', 'done', 'op', HASH_A);
        await stores[0]!.finish('t1', 'done', 'succeeded', '"x"');
        expect(await stores[0]!.settleStale('t1', 'done', 10_000, '"unknown"')).toBe(false); // final states stay
      }));

    test('concurrent re-claims of a retryable failure: exactly one winner', () =>
      withStorage(async (storage) => {
        const stores = await Promise.all(Array.from({ length: 4 }, () => storage.open()));
        for (let round = 0; round < 5; round++) {
          const key = `retry-${round}`;
          await stores[0]!.claim('t1', key, 'op', HASH_A);
          await stores[0]!.finish('t1', key, 'failed_retryable');
          const results = await Promise.all(
            Array.from({ length: 40 }, (_, i) => stores[i % stores.length]!.claim('t1', key, 'op', HASH_A)),
          );
          expect(results.filter((r) => r.claimed)).toHaveLength(1);
        }
      }));
    // Spend control: the expected fee is reserved in the claim's transaction, against both limits.
    const spend = (over: Partial<SpendCheck> = {}): SpendCheck => ({
      products: ['TITLE_DATA_AND_PLANS'],
      feesPence: { TITLE_DATA_AND_PLANS: 300, PENDING_APPLICATIONS: 300 },
      organisation: 'ORG-A',
      organisationClients: ['c1', 'c2'],
      ...over,
    });
    const purchase = (titleNumber: string, check: SpendCheck, reference?: string) => ({
      operation: 'purchaseTitleDetails',
      fas: '0877',
      titleNumber,
      day: '2026-03-10',
      spend: check,
      ...(reference ? { reference } : {}),
    });
    const chargeOf = (titleNumber: string, fee = '3.00') => ({ ...charge(`RT-${titleNumber}`), fee });

    test('spend: concurrent claims from several stores never reserve past the client limit', () =>
      withStorage(async (storage) => {
        const stores = await Promise.all(Array.from({ length: 2 }, () => storage.open()));
        const check = spend({ clientLimitPence: 900 });
        const results = await Promise.all(
          Array.from({ length: 20 }, (_, i) =>
            stores[i % 2]!.claim('c1', `k${i}`, 'purchaseTitleDetails', HASH_A, purchase(`BLK${i + 1}`, check)),
          ),
        );
        expect(results.filter((r) => r.claimed)).toHaveLength(3);
        const refused = results.filter((r) => !r.claimed && r.refused);
        expect(refused).toHaveLength(17);
        expect(refused[0]).toMatchObject({ refused: { reason: 'client', expectedPence: 300, limitPence: 900, remainingPence: 0 } });
        // a refused claim leaves no key behind: the same key may be sent again once there is room
        expect(await stores[0]!.get('c1', 'k19')).toBeUndefined();
        expect(await stores[0]!.spendTotals(['c1'], '2026-03-10')).toEqual({ chargedPence: 0, pendingPence: 900 });
      }));

    test('spend: the organisation limit counts every client of the organisation; charges replace reservations', () =>
      withStorage(async (storage) => {
        const store = await storage.open();
        const check = spend({ organisationLimitPence: 500 });
        expect(await store.claim('c1', 'a', 'purchaseTitleDetails', HASH_A, purchase('BLK1', check))).toEqual({
          claimed: true,
          reservedPence: 300,
        });
        expect(await store.claim('c2', 'b', 'purchaseTitleDetails', HASH_A, purchase('BLK2', check))).toMatchObject({
          refused: { reason: 'organisation', remainingPence: 200 },
        });
        // the register charged nothing (already bought elsewhere today): the reservation is released
        await store.finish('c1', 'a', 'succeeded', '"x"', { charges: [], day: '2026-03-10' });
        expect(await store.spendTotals(['c1', 'c2'], '2026-03-10')).toEqual({ chargedPence: 0, pendingPence: 0 });
        expect(await store.claim('c2', 'b', 'purchaseTitleDetails', HASH_A, purchase('BLK2', check))).toEqual({
          claimed: true,
          reservedPence: 300,
        });
        await store.finish('c2', 'b', 'succeeded', '"x"', { charges: [chargeOf('BLK2', '2.50')], day: '2026-03-10' });
        expect(await store.spendTotals(['c1', 'c2'], '2026-03-10')).toEqual({ chargedPence: 250, pendingPence: 0 });
        expect(await store.spendTotals(['c1'], '2026-03-10')).toEqual({ chargedPence: 0, pendingPence: 0 });
      }));

    test('spend: a product charged today to the organisation is expected free; maxFee refuses what is above it', () =>
      withStorage(async (storage) => {
        const store = await storage.open();
        await store.claim('c2', 'first', 'purchaseTitleDetails', HASH_A, purchase('MID15313', spend()));
        await store.finish('c2', 'first', 'succeeded', '"x"', { charges: [chargeOf('MID15313')], day: '2026-03-10' });
        expect(await store.chargedProducts(['c1', 'c2'], '2026-03-10', '0877', 'MID15313')).toEqual(new Set(['TITLE_DATA_AND_PLANS']));
        expect(await store.chargedProducts(['c1'], '2026-03-10', '0877', 'MID15313')).toEqual(new Set());
        // free now, so neither maxFee 0 nor a spent limit stops it
        const free = spend({ maxFeePence: 0, clientLimitPence: 0 });
        expect(await store.claim('c1', 'again', 'purchaseTitleDetails', HASH_A, purchase('MID15313', free))).toEqual({
          claimed: true,
          reservedPence: 0,
        });
        expect(await store.claim('c1', 'new', 'purchaseTitleDetails', HASH_A, purchase('BLK7', spend({ maxFeePence: 299 })))).toMatchObject(
          {
            refused: { reason: 'maxFee', expectedPence: 300, maxFeePence: 299 },
          },
        );
        expect(await store.claim('c1', 'exact', 'purchaseTitleDetails', HASH_A, purchase('BLK7', spend({ maxFeePence: 300 })))).toEqual({
          claimed: true,
          reservedPence: 300,
        });
      }));

    test('spend: an unknown outcome keeps its reservation, and claiming its key again reserves nothing more', () =>
      withStorage(async (storage) => {
        const store = await storage.open();
        const check = spend({ clientLimitPence: 600 });
        await store.claim('c1', 'lost', 'purchaseTitleDetails', HASH_A, purchase('BLK1', check));
        await store.finish('c1', 'lost', 'outcome_unknown', '"x"', { charges: [], day: '2026-03-10' });
        expect(await store.claim('c1', 'lost', 'purchaseTitleDetails', HASH_A, purchase('BLK1', check))).toMatchObject({ claimed: false });
        expect(await store.spendTotals(['c1'], '2026-03-10')).toEqual({ chargedPence: 0, pendingPence: 300 });
        expect(await store.claim('c1', 'next', 'purchaseTitleDetails', HASH_A, purchase('BLK2', check))).toEqual({
          claimed: true,
          reservedPence: 300,
        });
        expect(await store.claim('c1', 'third', 'purchaseTitleDetails', HASH_A, purchase('BLK3', check))).toMatchObject({
          refused: { reason: 'client', remainingPence: 0 },
        });
      }));

    test('statement: days inclusive, chosen clients only, one reference, oldest first', () =>
      withStorage(async (storage) => {
        let clock = 1_000;
        const store = await storage.open(() => clock);
        const buy = async (scope: string, key: string, day: string, reference?: string) => {
          clock += 1;
          await store.claim(scope, key, 'purchaseTitleDetails', HASH_A, { ...purchase(key, spend(), reference), day });
          await store.finish(scope, key, 'succeeded', '"x"', { charges: [chargeOf(key)], day });
        };
        await buy('c1', 'BLK1', '2026-03-09', 'MATTER-1');
        await buy('c2', 'BLK2', '2026-03-10', 'MATTER-1');
        await buy('c1', 'BLK3', '2026-03-11');
        await buy('c1', 'BLK4', '2026-03-12', 'MATTER-1');
        await buy('other', 'BLK5', '2026-03-10', 'MATTER-1');
        const keys = (records: { idempotencyKey: string }[]) => records.map((r) => r.idempotencyKey);
        const statement = async (clients: string[], from: string, to: string, reference?: string) =>
          (await store.statementPage({ clients, from, to, reference, limit: 100 })).records;
        expect(keys(await statement(['c1', 'c2'], '2026-03-09', '2026-03-11'))).toEqual(['BLK1', 'BLK2', 'BLK3']);
        expect(keys(await statement(['c1'], '2026-03-09', '2026-03-12'))).toEqual(['BLK1', 'BLK3', 'BLK4']);
        expect(keys(await statement(['c1', 'c2'], '2026-03-01', '2026-03-31', 'MATTER-1'))).toEqual(['BLK1', 'BLK2', 'BLK4']);
        // pages of two, each after the last one's position, give the whole in order and end empty
        const march = { clients: ['c1', 'c2'], from: '2026-03-01', to: '2026-03-31', limit: 2 };
        const first2 = await store.statementPage(march);
        const next2 = await store.statementPage({ ...march, after: first2.last });
        const rest = await store.statementPage({ ...march, after: next2.last });
        expect([first2, next2, rest].map((p) => keys(p.records))).toEqual([['BLK1', 'BLK2'], ['BLK3', 'BLK4'], []]);
        expect(rest.last).toBeUndefined();
        const [first] = await statement(['c2'], '2026-03-10', '2026-03-10');
        expect(first).toMatchObject({ apiClient: 'c2', reference: 'MATTER-1', status: 'CHARGED', charge: { fee: '3.00' } });
        // pages of one inside one day: the position's time decides what comes next, and its id when two share an instant
        await buy('c1', 'BLK6', '2026-03-20');
        const instant = clock + 1;
        for (const key of ['BLK7', 'BLK8']) {
          clock = instant - 1;
          await buy('c1', key, '2026-03-20');
        }
        const day20 = { clients: ['c1'], from: '2026-03-20', to: '2026-03-20', limit: 1 };
        const pages: string[][] = [];
        let after: StatementPosition | undefined;
        do {
          const page = await store.statementPage({ ...day20, after });
          pages.push(keys(page.records));
          after = page.last;
        } while (after && pages.length < 5);
        expect(pages).toEqual([['BLK6'], ['BLK7'], ['BLK8'], []]);
        // The summary over the same choices: charged in pence, and the outcomes still unknown counted apart.
        await store.claim('c1', 'BLK9', 'purchaseTitleDetails', HASH_A, { ...purchase('BLK9', spend(), 'MATTER-1'), day: '2026-03-11' });
        await store.finish('c1', 'BLK9', 'outcome_unknown', '"x"', { charges: [], day: '2026-03-11' });
        const whole = { clients: ['c1', 'c2'], from: '2026-03-01', to: '2026-03-31' };
        expect(await store.statementSummary(whole)).toEqual({ chargedPence: 2100, unknownCount: 1 });
        expect(await store.statementSummary({ ...whole, reference: 'MATTER-1' })).toEqual({ chargedPence: 900, unknownCount: 1 });
        expect(await store.statementSummary({ ...whole, reference: 'MATTER-2' })).toEqual({ chargedPence: 0, unknownCount: 0 });
      }));

    test('callers: each entry names its caller; journal, statement, totals and summary filter by caller; a caller limit holds', () =>
      withStorage(async (storage) => {
        let clock = 1_000;
        const store = await storage.open(() => clock);
        const as = (id: string, name?: string): CallerStamp => ({ id, subject: id.split(':').at(-1)!, name, ownsLegacyRows: true });
        const own = (stamp: CallerStamp) => ({ id: stamp.id, subject: stamp.subject, legacySubject: stamp.subject });
        const buy = async (key: string, who: CallerStamp, check = spend()) => {
          clock += 1;
          const claim = await store.claim('c1', key, 'purchaseTitleDetails', HASH_A, { ...purchase(key, check), caller: who }, who);
          if (claim.claimed) await store.finish('c1', key, 'succeeded', '"x"', { charges: [chargeOf(key)], day: '2026-03-10' });
          return claim;
        };
        const alice = as('person:idp:alice-sub', 'Alice Law');
        const bob = as('person:idp:bob-sub', 'bob@firm.example');
        await buy('BLK1', alice);
        await buy('BLK2', bob);
        await buy('BLK3', as('key:conveyancing-app'));
        const callers = (records: { caller: string; callerId: string | null; callerName: string | null }[]) =>
          records.map((r) => [r.callerId, r.caller, r.callerName]);
        expect(callers(await store.chargeRecords('c1', '2026-03-10'))).toEqual([
          ['person:idp:alice-sub', 'alice-sub', 'Alice Law'],
          ['person:idp:bob-sub', 'bob-sub', 'bob@firm.example'],
          ['key:conveyancing-app', 'conveyancing-app', null],
        ]);
        expect(callers(await store.chargeRecords('c1', '2026-03-10', own(bob)))).toEqual([
          ['person:idp:bob-sub', 'bob-sub', 'bob@firm.example'],
        ]);
        const range = { clients: ['c1'], from: '2026-03-01', to: '2026-03-31' };
        expect(callers((await store.statementPage({ ...range, caller: own(alice), limit: 10 })).records)).toEqual([
          ['person:idp:alice-sub', 'alice-sub', 'Alice Law'],
        ]);
        expect(await store.statementSummary(range)).toEqual({ chargedPence: 900, unknownCount: 0 });
        expect(await store.statementSummary({ ...range, caller: own(alice) })).toEqual({ chargedPence: 300, unknownCount: 0 });
        expect(await store.spendTotals(['c1'], '2026-03-10', own(bob))).toEqual({ chargedPence: 300, pendingPence: 0 });
        // Alice's own limit of 5.00 has 2.00 left; Bob's spending does not count against it, the client's does not either.
        expect(await buy('BLK4', alice, spend({ callerLimitPence: 500 }))).toMatchObject({
          refused: { reason: 'caller', limitPence: 500, remainingPence: 200 },
        });
        expect(await buy('BLK5', bob, spend({ callerLimitPence: 600 }))).toMatchObject({ claimed: true });
        // A key is its caller's: the record says whose it is (another caller's claim gets the record back, not the key).
        const held = await store.claim(
          'c1',
          'BLK5',
          'purchaseTitleDetails',
          HASH_A,
          { ...purchase('BLK5', spend()), caller: alice },
          alice,
        );
        expect(held).toMatchObject({ claimed: false, record: { callerId: 'person:idp:bob-sub', callerSubject: 'bob-sub' } });
        // An entry from before callers were kept belongs to every caller of its API client: in each one's page and summary.
        clock += 1;
        await store.claim('c1', 'BLK6', 'purchaseTitleDetails', HASH_A, purchase('BLK6', spend()));
        await store.finish('c1', 'BLK6', 'succeeded', '"x"', { charges: [chargeOf('BLK6')], day: '2026-03-10' });
        const alices = await store.statementPage({ ...range, caller: own(alice), limit: 10 });
        expect(alices.records.map((r) => [r.idempotencyKey, r.caller])).toEqual([
          ['BLK1', 'alice-sub'],
          ['BLK6', 'c1'], // named after its API client
        ]);
        expect(await store.statementSummary({ ...range, caller: own(alice) })).toEqual({ chargedPence: 600, unknownCount: 0 });
      }));

    test('principals: a key `ann` and a person `ann` at each of two providers are three callers: none sees, spends or retakes another’s', () =>
      withStorage(async (storage) => {
        let clock = 1_000;
        const store = await storage.open(() => clock);
        const ann = (id: string): CallerStamp => ({ id, subject: 'ann', ownsLegacyRows: id.startsWith('key:') });
        const callers = [ann('key:ann'), ann('person:idp-one:ann'), ann('person:idp-two:ann')];
        for (const [i, who] of callers.entries()) {
          clock += 1;
          const key = `BLK${i + 1}`;
          expect(
            await store.claim('c1', key, 'purchaseTitleDetails', HASH_A, { ...purchase(key, spend()), caller: who }, who),
          ).toMatchObject({
            claimed: true,
          });
          await store.finish('c1', key, 'failed_retryable', '"x"');
          await store.claim('c1', key, 'purchaseTitleDetails', HASH_A, { ...purchase(key, spend()), caller: who }, who);
          await store.finish('c1', key, 'succeeded', '"x"', { charges: [chargeOf(key)], day: '2026-03-10' });
        }
        const own = (stamp: CallerStamp) => ({
          id: stamp.id,
          subject: stamp.subject,
          ...(stamp.ownsLegacyRows ? { legacySubject: 'ann' } : {}),
        });
        const range = { clients: ['c1'], from: '2026-03-01', to: '2026-03-31' };
        for (const [i, who] of callers.entries()) {
          expect((await store.chargeRecords('c1', '2026-03-10', own(who))).map((r) => r.idempotencyKey)).toEqual([`BLK${i + 1}`]);
          expect((await store.statementPage({ ...range, caller: own(who), limit: 10 })).records.map((r) => r.callerId)).toEqual([who.id]);
          expect(await store.spendTotals(['c1'], '2026-03-10', own(who))).toEqual({ chargedPence: 300, pendingPence: 0 });
        }
        // A retryable failure of one is never retaken by another with the same subject.
        clock += 1;
        const [key, personOne, personTwo] = callers as [CallerStamp, CallerStamp, CallerStamp];
        await store.claim('c1', 'BLK9', 'purchaseTitleDetails', HASH_A, { ...purchase('BLK9', spend()), caller: personOne }, personOne);
        await store.finish('c1', 'BLK9', 'failed_retryable', '"x"');
        for (const other of [key, personTwo]) {
          expect(
            await store.claim('c1', 'BLK9', 'purchaseTitleDetails', HASH_A, { ...purchase('BLK9', spend()), caller: other }, other),
          ).toMatchObject({
            claimed: false,
            record: { callerId: 'person:idp-one:ann', state: 'failed_retryable' },
          });
        }
        // Asked by the bare subject (as an accounts key may, as before): every caller named `ann`.
        expect((await store.statementPage({ ...range, caller: { subject: 'ann' }, limit: 10 })).records).toHaveLength(3);
      }));

    test('statement: a position from a day before the range starts the page at the range, not after the position', () =>
      withStorage(async (storage) => {
        let clock = 1_000;
        const store = await storage.open(() => clock);
        for (const [key, day] of [
          ['BLK1', '2026-03-09'],
          ['BLK2', '2026-03-10'],
          ['BLK3', '2026-03-11'],
        ] as const) {
          clock += 1;
          await store.claim('c1', key, 'purchaseTitleDetails', HASH_A, { ...purchase(key, spend()), day });
          await store.finish('c1', key, 'succeeded', '"x"', { charges: [chargeOf(key)], day });
        }
        const first = await store.statementPage({ clients: ['c1'], from: '2026-03-09', to: '2026-03-11', limit: 1 });
        const page = await store.statementPage({ clients: ['c1'], from: '2026-03-11', to: '2026-03-11', after: first.last, limit: 10 });
        expect(page.records.map((r) => r.idempotencyKey)).toEqual(['BLK3']);
      }));

    // Settling in place: a statement read page by page while calls settle meets each record once.
    const both = spend({ products: ['TITLE_DATA_AND_PLANS', 'PENDING_APPLICATIONS'] });
    const chargeFor = (titleNumber: string, productType: string) => ({ ...charge(`RT-${titleNumber}-${productType}`), productType });
    /** Who a record is: its call and product (a pending record names the product it reserved). */
    const identity = (r: { idempotencyKey: string; product?: string | null; charge: { productType: string } | null }) =>
      `${r.idempotencyKey}/${r.charge?.productType ?? r.product}`;

    test('journal: a multi-product claim reserves one PENDING entry per product, each settling in place as its charge', () =>
      withStorage(async (storage) => {
        let clock = 1_000;
        const store = await storage.open(() => clock);
        expect(await store.claim('c1', 'k', 'orderTitleDocument', HASH_A, purchase('BLK1', both))).toEqual({
          claimed: true,
          reservedPence: 600,
        });
        const pending = await store.chargeRecords('c1', '2026-03-10');
        expect(pending.map((r) => [r.status, r.product, r.recordedAt])).toEqual([
          ['PENDING', 'TITLE_DATA_AND_PLANS', 1_000],
          ['PENDING', 'PENDING_APPLICATIONS', 1_000],
        ]);
        // Pending entries count as spent, as unknown outcomes do.
        expect(await store.spendTotals(['c1'], '2026-03-10')).toEqual({ chargedPence: 0, pendingPence: 600 });
        expect(await store.statementSummary({ clients: ['c1'], from: '2026-03-10', to: '2026-03-10' })).toEqual({
          chargedPence: 0,
          unknownCount: 2,
        });
        const before = await store.statementPage({ clients: ['c1'], from: '2026-03-10', to: '2026-03-10', limit: 10 });
        clock = 5_000;
        // Reported in the other order: each charge takes its product's entry.
        await store.finish('c1', 'k', 'succeeded', '"x"', {
          charges: [chargeFor('BLK1', 'PENDING_APPLICATIONS'), chargeFor('BLK1', 'TITLE_DATA_AND_PLANS')],
          day: '2026-03-10',
        });
        const after = await store.statementPage({ clients: ['c1'], from: '2026-03-10', to: '2026-03-10', limit: 10 });
        expect(after.records.map((r) => [r.status, r.charge?.productType, r.recordedAt])).toEqual([
          ['CHARGED', 'TITLE_DATA_AND_PLANS', 1_000],
          ['CHARGED', 'PENDING_APPLICATIONS', 1_000],
        ]);
        expect(after.last).toEqual(before.last);
        expect(await store.spendTotals(['c1'], '2026-03-10')).toEqual({ chargedPence: 600, pendingPence: 0 });
      }));

    test("journal: a PENDING entry older than any call at the register is a dead process's: it reads OUTCOME_UNKNOWN, still reserved", () =>
      withStorage(async (storage) => {
        let clock = 1_000;
        const store = await storage.open(() => clock);
        await store.claim('c1', 'dead', 'purchaseTitleDetails', HASH_A, purchase('BLK1', spend()));
        const range = { clients: ['c1'], from: '2026-03-10', to: '2026-03-10', limit: 10 };
        clock += PENDING_AT_MOST_MS;
        expect((await store.statementPage(range)).records.map((r) => r.status)).toEqual(['PENDING']);
        clock += 1;
        expect((await store.statementPage(range)).records.map((r) => r.status)).toEqual(['OUTCOME_UNKNOWN']);
        expect((await store.chargeRecords('c1', '2026-03-10')).map((r) => r.status)).toEqual(['OUTCOME_UNKNOWN']);
        expect(await store.spendTotals(['c1'], '2026-03-10')).toEqual({ chargedPence: 0, pendingPence: 300 });
      }));

    test('journal: a product the register did not charge loses its entry; an unknown outcome keeps one per product', () =>
      withStorage(async (storage) => {
        const store = await storage.open();
        await store.claim('c1', 'one', 'orderTitleDocument', HASH_A, purchase('BLK1', both));
        await store.finish('c1', 'one', 'succeeded', '"x"', { charges: [chargeFor('BLK1', 'PENDING_APPLICATIONS')], day: '2026-03-10' });
        await store.claim('c1', 'lost', 'orderTitleDocument', HASH_A, purchase('BLK2', both));
        await store.finish('c1', 'lost', 'outcome_unknown', '"lost"', { charges: [], day: '2026-03-10' });
        expect((await store.chargeRecords('c1', '2026-03-10')).map((r) => [r.idempotencyKey, r.status, r.product])).toEqual([
          ['one', 'CHARGED', 'PENDING_APPLICATIONS'],
          ['lost', 'OUTCOME_UNKNOWN', 'TITLE_DATA_AND_PLANS'],
          ['lost', 'OUTCOME_UNKNOWN', 'PENDING_APPLICATIONS'],
        ]);
        expect(await store.spendTotals(['c1'], '2026-03-10')).toEqual({ chargedPence: 300, pendingPence: 600 });
      }));

    for (const first of [1, 2]) {
      test(`statement pages of ${first} while calls settle (charged, several products, unknown): every record exactly once`, () =>
        withStorage(async (storage) => {
          let clock = 1_000;
          const store = await storage.open(() => clock);
          const claim = async (key: string, check: SpendCheck) => {
            clock += 10;
            await store.claim('c1', key, 'orderTitleDocument', HASH_A, purchase(key, check));
          };
          const settle = async (key: string, products: string[]) => {
            clock += 10;
            await store.finish('c1', key, 'succeeded', '"x"', { charges: products.map((p) => chargeFor(key, p)), day: '2026-03-10' });
          };
          for (const key of ['BLK1', 'BLK2']) {
            await claim(key, spend());
            await settle(key, ['TITLE_DATA_AND_PLANS']);
          }
          await claim('HELD', spend());
          await claim('MULTI', both);
          await claim('LOST', spend());
          for (const key of ['BLK3', 'BLK4']) {
            await claim(key, spend());
            await settle(key, ['TITLE_DATA_AND_PLANS']);
          }
          // Each held call settles once the reader has passed (part of) it.
          const settlements = new Map<string, () => Promise<void>>([
            ['HELD', () => settle('HELD', ['TITLE_DATA_AND_PLANS'])],
            ['MULTI', () => settle('MULTI', ['TITLE_DATA_AND_PLANS', 'PENDING_APPLICATIONS'])],
            ['LOST', () => store.finish('c1', 'LOST', 'outcome_unknown', '"lost"', { charges: [], day: '2026-03-10' })],
          ]);
          const range = { clients: ['c1'], from: '2026-03-10', to: '2026-03-10', limit: first };
          const seen: string[] = [];
          let after: StatementPosition | undefined;
          for (let pages = 0; pages < 20; pages++) {
            const page = await store.statementPage({ ...range, after });
            seen.push(...page.records.map(identity));
            for (const record of page.records) {
              if (settlements.has(record.idempotencyKey)) expect(record.status).toBe('PENDING');
              await settlements.get(record.idempotencyKey)?.();
              settlements.delete(record.idempotencyKey);
            }
            if (page.records.length < first || !page.last) break;
            after = page.last;
          }
          expect([...settlements.keys()]).toEqual([]);
          const final = (await store.statementPage({ ...range, limit: 100 })).records;
          expect(final.map((r) => r.status)).not.toContain('PENDING');
          expect(final).toHaveLength(8);
          expect(seen.toSorted()).toEqual(final.map(identity).toSorted());
        }));
    }
  });
}
