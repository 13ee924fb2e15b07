/** The default idempotency backend: node:sqlite in the data folder, WAL, one row per (scope, key). */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { recordOfRow, type ClaimResult, type IdempotencyRecord, type IdempotencyRow, type IdempotencyState, type IdempotencyStore } from './store';



export class SqliteIdempotencyStore implements IdempotencyStore {
  private readonly db: DatabaseSync;

  constructor(dataDir: string, private readonly now: () => number = Date.now) {
    mkdirSync(dataDir, { recursive: true });
    this.db = new DatabaseSync(join(dataDir, 'idempotency.sqlite'));
    this.db.exec(`
      PRAGMA journal_mode = WAL;
      PRAGMA busy_timeout = 5000;
      CREATE TABLE IF NOT EXISTS idempotency (
        scope TEXT NOT NULL,
        key TEXT NOT NULL,
        operation TEXT NOT NULL,
        input_hash TEXT NOT NULL,
        state TEXT NOT NULL,
        outcome TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        PRIMARY KEY (scope, key)
      );
      CREATE INDEX IF NOT EXISTS idempotency_updated ON idempotency (updated_at);
    `);
  }

  async claim(scope: string, key: string, operation: string, inputHash: string): Promise<ClaimResult> {
    const at = this.now();
    // One statement: insert a new key, or re-take a retryable failure of the same input.
    const claimed = this.db
      .prepare(
        `INSERT INTO idempotency (scope, key, operation, input_hash, state, created_at, updated_at)
         VALUES (?, ?, ?, ?, 'in_progress', ?, ?)
         ON CONFLICT (scope, key) DO UPDATE SET state = 'in_progress', outcome = NULL, updated_at = excluded.updated_at
         WHERE idempotency.state = 'failed_retryable' AND idempotency.input_hash = excluded.input_hash
           AND idempotency.operation = excluded.operation
         RETURNING key`,
      )
      .get(scope, key, operation, inputHash, at, at);
    if (claimed) return { claimed: true };
    const record = await this.get(scope, key);
    if (!record) return this.claim(scope, key, operation, inputHash); // purged in between
    return { claimed: false, record };
  }

  async finish(scope: string, key: string, state: Exclude<IdempotencyState, 'in_progress'>, outcome?: string) {
    this.db
      .prepare(`UPDATE idempotency SET state = ?, outcome = ?, updated_at = ? WHERE scope = ? AND key = ?`)
      .run(state, outcome ?? null, this.now(), scope, key);
  }

  async get(scope: string, key: string): Promise<IdempotencyRecord | undefined> {
    const row = this.db
      .prepare(
        `SELECT operation, input_hash, state, outcome, created_at, updated_at FROM idempotency WHERE scope = ? AND key = ?`,
      )
      .get(scope, key) as IdempotencyRow | undefined;
    return row ? recordOfRow(row) : undefined;
  }

  async purge(olderThan: number): Promise<number> {
    const result = this.db.prepare(`DELETE FROM idempotency WHERE updated_at < ?`).run(olderThan);
    return Number(result.changes);
  }

  async close() {
    if (this.db.isOpen) this.db.close();
  }
}
