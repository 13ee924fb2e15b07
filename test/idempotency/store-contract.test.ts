/**
 * One contract, two backends: the same store tests run against the embedded SQLite store and
 * the PostgreSQL store (a fresh database per run, a fresh schema per test).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { PgIdempotencyStore } from '../../src/idempotency/pg-store';
import { SqliteIdempotencyStore } from '../../src/idempotency/sqlite-store';
import type { IdempotencyStore } from '../../src/idempotency/store';
import { createTestDatabase, postgresSuite, type TestDatabase } from './pg';

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
        expect(await store.claim('t1', 'k', 'purchaseTitleDetails', HASH_A)).toEqual({ claimed: true });
        clock = 2_000;
        const again = await store.claim('t1', 'k', 'purchaseTitleDetails', HASH_A);
        expect(again).toEqual({
          claimed: false,
          record: { operation: 'purchaseTitleDetails', inputHash: HASH_A, state: 'in_progress', createdAt: 1_000, updatedAt: 1_000 },
        });
      }));

    test('a finished key replays its stored outcome, exactly as stored', () =>
      withStorage(async (storage) => {
        let clock = 1_000;
        const store = await storage.open(() => clock);
        await store.claim('t1', 'k', 'op', HASH_A);
        const outcome = JSON.stringify({ ok: true, value: { charges: [{ fee: '3.00', note: 'Ünïcødé ✓ "quoted"' }], big: 'x'.repeat(100_000) } });
        clock = 1_500;
        await store.finish('t1', 'k', 'succeeded', outcome);
        const replay = await store.claim('t1', 'k', 'op', HASH_A);
        expect(replay).toEqual({
          claimed: false,
          record: { operation: 'op', inputHash: HASH_A, state: 'succeeded', outcome, createdAt: 1_000, updatedAt: 1_500 },
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
        expect(await store.claim('t1', 'k', 'op', HASH_A)).toEqual({ claimed: true });
        expect(await store.get('t1', 'k')).toEqual({ operation: 'op', inputHash: HASH_A, state: 'in_progress', createdAt: 1_000, updatedAt: 3_000 });
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
          if (!result.claimed && state === 'outcome_unknown') expect(result.record.outcome).toBeUndefined();
        }
      }));

    test('keys are scoped: the same key in two scopes is two records', () =>
      withStorage(async (storage) => {
        const store = await storage.open();
        expect(await store.claim('client-a', 'k', 'op', HASH_A)).toEqual({ claimed: true });
        expect(await store.claim('client-b', 'k', 'op', HASH_B)).toEqual({ claimed: true });
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
        expect(await store.claim('t1', 'old', 'op', HASH_B)).toEqual({ claimed: true });
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
  });
}
