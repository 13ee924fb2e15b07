/**
 * The one SQLite file of an instance (DATA_DIR/idempotency.sqlite): idempotency keys, the
 * charge journal, the quota ledger and persisted queries, each store on a connection of its own.
 * WAL lets them read while another writes; busy_timeout makes a writer wait, not fail.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';

export function openDataFile(dataDir: string, schema: string, options: { synchronous?: 'FULL' | 'NORMAL' } = {}): DatabaseSync {
  mkdirSync(dataDir, { recursive: true });
  const db = new DatabaseSync(join(dataDir, 'idempotency.sqlite'));
  db.exec(`PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000; PRAGMA synchronous = ${options.synchronous ?? 'FULL'};`);
  db.exec(schema);
  return db;
}
