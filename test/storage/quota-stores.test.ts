/** Both quota ledgers: closing (twice, and work after it), reopening the same data, set-up failures. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import type { AdmitRequest, QuotaStore } from '../../src/storage/quota/store';
import { SqliteQuotaStore } from '../../src/storage/quota/sqlite-store';
import { PgQuotaStore } from '../../src/storage/quota/pg-store';
import { createTestDatabase, postgresSuite, type TestDatabase } from '../support/pg';

const msToMidnight = () => 3_600_000;
const request = (now: number): AdmitRequest => ({
  organisation: 'ORG-T',
  client: 'client-t',
  day: '2026-03-10',
  now,
  free: true,
  freeLimit: 100,
  dailyLimit: 100,
  burst: 0,
  perMs: 0,
});

const pgSuite = await postgresSuite();
let database: TestDatabase | undefined;
beforeAll(async () => {
  if (pgSuite.run) database = await createTestDatabase('quota_strength');
});
afterAll(async () => {
  await database?.drop();
});

const backends: { name: string; run: boolean; open(): Promise<{ make(): Promise<QuotaStore>; cleanup(): void }> }[] = [
  {
    name: 'SQLite quota ledger',
    run: true,
    async open() {
      const dir = mkdtempSync(join(tmpdir(), 'titlegraph-quota-strength-'));
      return { make: async () => new SqliteQuotaStore(dir, msToMidnight), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
    },
  },
  {
    name: pgSuite.title('PostgreSQL quota ledger'),
    run: pgSuite.run,
    async open() {
      const schema = `quota_strength_${Date.now()}`;
      return {
        make: async () => {
          const store = new PgQuotaStore({ connectionString: database!.url, schema, msToMidnight });
          await store.ready();
          return store;
        },
        cleanup: () => undefined,
      };
    },
  },
];

for (const backend of backends) {
  describe.skipIf(!backend.run)(backend.name, () => {
    test('counts survive closing and reopening; close twice is fine; a closed ledger refuses work', async () => {
      const { make, cleanup } = await backend.open();
      onTestFinished(() => cleanup());
      const first = await make();
      const now = Date.now();
      expect(await first.admit(request(now))).toEqual({ admitted: true, calls: 1 });
      expect(await first.admit(request(now))).toEqual({ admitted: true, calls: 2 });
      await first.close();
      await expect(first.close()).resolves.toBeUndefined();
      await expect(first.admit(request(now))).rejects.toThrow();
      const again = await make();
      expect(await again.usage('ORG-T', '2026-03-10', now)).toEqual({ calls: 2 });
      await again.close();
    });
  });
}

describe.skipIf(!pgSuite.run)(pgSuite.title('PostgreSQL quota ledger, set-up'), () => {
  test('ready() rejects for a database it cannot reach', async () => {
    const store = new PgQuotaStore({ connectionString: 'postgres://nobody@127.0.0.1:1/none', msToMidnight });
    await expect(store.ready()).rejects.toThrow();
    await store.close().catch(() => undefined);
  });
});
