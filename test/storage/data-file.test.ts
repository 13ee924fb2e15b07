/**
 * The embedded database file's write-ahead log does not keep its largest size for good: after a
 * checkpoint it is cut back to WAL_SIZE_LIMIT_BYTES (SQLite's journal_size_limit), so DATA_DIR needs
 * the room the README states, not whatever the busiest hour once took.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, onTestFinished, test } from 'vitest';
import { openDataFile, WAL_SIZE_LIMIT_BYTES } from '../../src/storage/sqlite-database';

test('after a burst of writes and a checkpoint, the write-ahead log is at most WAL_SIZE_LIMIT_BYTES', () => {
  const dir = mkdtempSync(join(tmpdir(), 'titlegraph-wal-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const db = openDataFile(dir, 'CREATE TABLE IF NOT EXISTS t (v TEXT)');
  onTestFinished(() => db.close());
  const insert = db.prepare('INSERT INTO t (v) VALUES (?)');
  // About 6 MB through the log, past SQLite's automatic checkpoint (1000 pages).
  for (let i = 0; i < 1500; i++) insert.run('x'.repeat(4000));
  const wal = join(dir, 'idempotency.sqlite-wal');
  db.exec('PRAGMA wal_checkpoint(PASSIVE)');
  insert.run('one more write after the checkpoint: the log restarts and is cut back');
  expect(statSync(wal).size).toBeLessThanOrEqual(WAL_SIZE_LIMIT_BYTES);
});
