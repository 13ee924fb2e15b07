/** A SQLite quota ledger in a folder of its own, closed and removed when the current test ends. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onTestFinished } from 'vitest';
import { msToLondonMidnight } from '../../src/services/quota';
import { SqliteQuotaStore } from '../../src/storage/quota/sqlite-store';

export function quotaLedgerForTest(): SqliteQuotaStore {
  const dir = mkdtempSync(join(tmpdir(), 'titlegraph-quota-ledger-'));
  const store = new SqliteQuotaStore(dir, msToLondonMidnight);
  onTestFinished(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  return store;
}
