/**
 * One quota ledger contract, two backends (SQLite, PostgreSQL): the count is per organisation
 * and day, admissions are atomic across stores (replicas), and refusals count nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { QuotaStore } from '../../src/storage/quota/store';
import { SqliteQuotaStore } from '../../src/storage/quota/sqlite-store';
import { admitRequest as request } from '../support/admit-request';
import { PgQuotaStore } from '../../src/storage/quota/pg-store';
import { createTestDatabase, postgresSuite, type TestDatabase } from '../support/pg';

const MIDNIGHT_MS = 3_600_000;
const msToMidnight = () => MIDNIGHT_MS;

interface Backend {
  name: string;
  run: boolean;
  setup?(): Promise<void>;
  teardown?(): Promise<void>;
  /** Several stores on one fresh storage (replicas, in effect), and a cleanup. */
  stores(n: number): Promise<{ stores: QuotaStore[]; cleanup(): Promise<void> }>;
}

const sqlite: Backend = {
  name: 'SQLite quota store',
  run: true,
  async stores(n) {
    const dir = mkdtempSync(join(tmpdir(), 'titlegraph-quota-'));
    const stores = Array.from({ length: n }, () => new SqliteQuotaStore(dir, msToMidnight));
    return {
      stores,
      async cleanup() {
        for (const s of stores) await s.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  },
};

const pgSuite = await postgresSuite();
let database: TestDatabase | undefined;
let schemaCounter = 0;
const postgres: Backend = {
  name: pgSuite.title('PostgreSQL quota store'),
  run: pgSuite.run,
  async setup() {
    database = await createTestDatabase('quota_contract');
  },
  async teardown() {
    await database?.drop();
  },
  async stores(n) {
    const schema = `quota_${++schemaCounter}`;
    const stores = Array.from(
      { length: n },
      () => new PgQuotaStore({ connectionString: database!.url, schema, maxConnections: 4, msToMidnight }),
    );
    await Promise.all(stores.map((s) => s.ready()));
    return {
      stores,
      async cleanup() {
        for (const s of stores) await s.close();
      },
    };
  },
};

for (const backend of [sqlite, postgres]) {
  describe.skipIf(!backend.run)(backend.name, () => {
    beforeAll(async () => backend.setup?.());
    afterAll(async () => backend.teardown?.());

    async function withStores(n: number, fn: (stores: QuotaStore[]) => Promise<void>) {
      const { stores, cleanup } = await backend.stores(n);
      try {
        await fn(stores);
      } finally {
        await cleanup();
      }
    }

    test('counts per organisation and day; every client of the organisation adds to one count', () =>
      withStores(1, async ([store]) => {
        expect(await store!.admit(request())).toEqual({ admitted: true, calls: 1 });
        expect(await store!.admit(request({ client: 'client-a2' }))).toEqual({ admitted: true, calls: 2 });
        expect(await store!.admit(request({ organisation: 'ORG-B', client: 'client-b' }))).toEqual({ admitted: true, calls: 1 });
        expect(await store!.admit(request({ day: '2026-03-11' }))).toEqual({ admitted: true, calls: 1 });
        expect(await store!.usage('ORG-A', '2026-03-10', 0)).toEqual({ calls: 2 });
        await store!.uncount('ORG-A', '2026-03-10');
        expect(await store!.usage('ORG-A', '2026-03-10', 0)).toEqual({ calls: 1 });
      }));

    test('admissions asked for at once, on two stores: exactly the limit is admitted, each with its own count, the rest refused', () =>
      withStores(2, async ([a, b]) => {
        const limits = { free: false, dailyLimit: 30 };
        const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => (i % 2 ? a! : b!).admit(request(limits))));
        const admitted = answers.filter((x) => x.admitted).map((x) => (x as { calls: number }).calls);
        expect(admitted.sort((x, y) => x - y)).toEqual(Array.from({ length: 30 }, (_, i) => i + 1));
        expect(answers.filter((x) => !x.admitted)).toEqual(Array(20).fill({ admitted: false, reason: 'daily', retryAfterMs: MIDNIGHT_MS }));
        expect(await a!.usage('ORG-A', '2026-03-10', 0)).toEqual({ calls: 30 });
      }));

    test('free reads stop at their limit, paid work at the day’s; refusals count nothing and say when to retry', () =>
      withStores(1, async ([store]) => {
        for (let i = 0; i < 2; i++) await store!.admit(request({ freeLimit: 2, dailyLimit: 3 }));
        expect(await store!.admit(request({ freeLimit: 2, dailyLimit: 3 }))).toEqual({
          admitted: false,
          reason: 'reserve',
          retryAfterMs: MIDNIGHT_MS,
        });
        expect(await store!.admit(request({ free: false, freeLimit: 2, dailyLimit: 3 }))).toEqual({ admitted: true, calls: 3 });
        expect(await store!.admit(request({ free: false, freeLimit: 2, dailyLimit: 3 }))).toEqual({
          admitted: false,
          reason: 'daily',
          retryAfterMs: MIDNIGHT_MS,
        });
        expect((await store!.usage('ORG-A', '2026-03-10', 0)).calls).toBe(3);
      }));

    test('a block holds for the organisation until its time, on every store; a later block never shortens it', () =>
      withStores(2, async ([a, b]) => {
        await a!.block('ORG-A', 1_030_000);
        await a!.block('ORG-A', 1_010_000);
        expect(await b!.admit(request())).toEqual({ admitted: false, reason: 'blocked', retryAfterMs: 30_000 });
        expect(await b!.admit(request({ organisation: 'ORG-B' }))).toMatchObject({ admitted: true });
        expect(await b!.usage('ORG-A', '2026-03-10', 1_000_000)).toEqual({ calls: 0, blockedUntil: 1_030_000 });
        expect(await b!.admit(request({ now: 1_030_001 }))).toMatchObject({ admitted: true });
        expect(await b!.usage('ORG-A', '2026-03-10', 1_030_001)).toEqual({ calls: 1 });
      }));

    test('the client bucket: a burst, then refill at its rate; another client has its own bucket', () =>
      withStores(1, async ([store]) => {
        const bucket = { burst: 3, perMs: 1 / 1000 }; // one call a second
        for (let i = 0; i < 3; i++) expect(await store!.admit(request(bucket))).toMatchObject({ admitted: true });
        expect(await store!.admit(request(bucket))).toEqual({ admitted: false, reason: 'budget', retryAfterMs: 1000 });
        expect(await store!.admit(request({ ...bucket, client: 'client-a2' }))).toMatchObject({ admitted: true });
        expect(await store!.admit(request({ ...bucket, now: 1_000_500 }))).toEqual({
          admitted: false,
          reason: 'budget',
          retryAfterMs: 500,
        });
        expect(await store!.admit(request({ ...bucket, now: 1_001_000 }))).toMatchObject({ admitted: true });
        expect((await store!.usage('ORG-A', '2026-03-10', 0)).calls).toBe(5);
      }));

    test('concurrent admissions from several stores never pass the limit', () =>
      withStores(4, async (stores) => {
        const results = await Promise.all(
          Array.from({ length: 60 }, (_, i) => stores[i % stores.length]!.admit(request({ free: false, dailyLimit: 25 }))),
        );
        expect(results.filter((r) => r.admitted)).toHaveLength(25);
        expect((await stores[0]!.usage('ORG-A', '2026-03-10', 0)).calls).toBe(25);
      }));

    test('a lease of an earlier day that ended over a minute ago (its replica died holding it) is dropped when its organisation opens a lease on a later day; nothing else is', () =>
      withStores(2, async ([a, b]) => {
        const YESTERDAY = '2026-03-09';
        const TODAY = '2026-03-10';
        const LATER = 1_070_000;
        const lease = (id: string, day: string, expiresAt: number, organisation = 'ORG-A') =>
          request({ organisation, day, lease: { id, wanted: 10, expiresAt } });
        const ended = (id: string, day: string, organisation = 'ORG-A') => ({
          organisation,
          client: 'client-a',
          day,
          id,
          unused: 10,
          burst: 0,
        });
        for (const [id, day, expiresAt, organisation] of [
          ['dead', YESTERDAY, 1_000_250, 'ORG-A'],
          ['ended-late', YESTERDAY, LATER - 20_000, 'ORG-A'],
          ['other-organisation', YESTERDAY, 1_000_250, 'ORG-B'],
          ['today-first', TODAY, 2_000_000, 'ORG-A'],
        ] as const) {
          expect(await a!.admit(lease(id, day, expiresAt, organisation))).toMatchObject({ admitted: true, granted: 10 });
        }
        // Another replica's lease of today, 70 s on: only ORG-A's row of yesterday that ended over a minute ago goes.
        expect(await b!.admit({ ...lease('today-second', TODAY, 2_000_000), now: LATER })).toMatchObject({ admitted: true, granted: 10 });

        // Ending the dropped lease gives nothing back: yesterday's count stays above the calls made, never below.
        await a!.endLease(ended('dead', YESTERDAY));
        expect((await a!.usage('ORG-A', YESTERDAY, LATER)).calls).toBe(20);
        // The rows that were kept still give their unused calls back when they end.
        await a!.endLease(ended('ended-late', YESTERDAY));
        expect((await a!.usage('ORG-A', YESTERDAY, LATER)).calls).toBe(10);
        await a!.endLease(ended('other-organisation', YESTERDAY, 'ORG-B'));
        expect((await a!.usage('ORG-B', YESTERDAY, LATER)).calls).toBe(0);
        expect(await b!.usage('ORG-A', TODAY, LATER)).toEqual({ calls: 20, leased: 20 });
        await a!.endLease(ended('today-first', TODAY));
        expect(await b!.usage('ORG-A', TODAY, LATER)).toEqual({ calls: 10, leased: 10 });
      }));
  });
}
