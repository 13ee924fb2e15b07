/** The default idempotency backend: node:sqlite in the data folder, WAL, one row per (scope, key). */
import type { DatabaseSync } from 'node:sqlite';
import { openDataFile } from '../services/sqlite-database';
import {
  JOURNAL_COLUMNS,
  journalRecordOfRow,
  recordOfRow,
  type ChargeIntent,
  type ClaimResult,
  type IdempotencyRecord,
  type IdempotencyRow,
  type IdempotencyState,
  type IdempotencyStore,
  type JournalRecord,
  type JournalRow,
  type ReportedCharges,
} from './store';

export class SqliteIdempotencyStore implements IdempotencyStore {
  private readonly db: DatabaseSync;

  constructor(
    dataDir: string,
    private readonly now: () => number = Date.now,
  ) {
    this.db = openDataFile(
      dataDir,
      `
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
      CREATE TABLE IF NOT EXISTS charge_journal (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        scope TEXT NOT NULL,
        key TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('PENDING', 'CHARGED', 'OUTCOME_UNKNOWN')),
        operation TEXT NOT NULL,
        fas TEXT NOT NULL,
        title_number TEXT NOT NULL,
        charge TEXT,
        day TEXT NOT NULL,
        recorded_at INTEGER NOT NULL
      );
      CREATE INDEX IF NOT EXISTS charge_journal_day ON charge_journal (scope, day, recorded_at);
      CREATE INDEX IF NOT EXISTS charge_journal_key ON charge_journal (scope, key);
      CREATE INDEX IF NOT EXISTS charge_journal_recorded ON charge_journal (recorded_at);
    `,
    );
  }

  /** Runs `work` in one write transaction (BEGIN IMMEDIATE: other processes on the file wait). */
  private transaction<R>(work: () => R): R {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }

  async claim(scope: string, key: string, operation: string, inputHash: string, intent?: ChargeIntent): Promise<ClaimResult> {
    const at = this.now();
    const claimed = this.transaction(() => {
      // One statement: insert a new key, or re-take a retryable failure of the same input.
      const row = this.db
        .prepare(
          `INSERT INTO idempotency (scope, key, operation, input_hash, state, created_at, updated_at)
           VALUES (?, ?, ?, ?, 'in_progress', ?, ?)
           ON CONFLICT (scope, key) DO UPDATE SET state = 'in_progress', outcome = NULL, updated_at = excluded.updated_at
           WHERE idempotency.state = 'failed_retryable' AND idempotency.input_hash = excluded.input_hash
             AND idempotency.operation = excluded.operation
           RETURNING key`,
        )
        .get(scope, key, operation, inputHash, at, at);
      if (row && intent) {
        this.db
          .prepare(
            `INSERT INTO charge_journal (scope, key, status, operation, fas, title_number, day, recorded_at) VALUES (?, ?, 'PENDING', ?, ?, ?, ?, ?)`,
          )
          .run(scope, key, intent.operation, intent.fas, intent.titleNumber, intent.day, at);
      }
      return row !== undefined;
    });
    if (claimed) return { claimed: true };
    const record = await this.get(scope, key);
    if (!record) return this.claim(scope, key, operation, inputHash, intent); // purged in between
    return { claimed: false, record };
  }

  async finish(scope: string, key: string, state: Exclude<IdempotencyState, 'in_progress'>, outcome?: string, charges?: ReportedCharges) {
    const at = this.now();
    this.transaction(() => {
      this.db
        .prepare(`UPDATE idempotency SET state = ?, outcome = ?, updated_at = ? WHERE scope = ? AND key = ?`)
        .run(state, outcome ?? null, at, scope, key);
      this.settleJournal(scope, key, state, at, charges);
    });
  }

  private settleJournal(scope: string, key: string, state: IdempotencyState, at: number, charges?: ReportedCharges) {
    if (state === 'outcome_unknown') {
      this.db
        .prepare(
          `UPDATE charge_journal SET status = 'OUTCOME_UNKNOWN', day = COALESCE(?, day) WHERE scope = ? AND key = ? AND status = 'PENDING'`,
        )
        .run(charges?.day ?? null, scope, key);
      return;
    }
    const pending = this.db
      .prepare(`SELECT operation, fas, title_number FROM charge_journal WHERE scope = ? AND key = ? AND status = 'PENDING'`)
      .get(scope, key) as { operation: string; fas: string; title_number: string } | undefined;
    if (!pending) return;
    this.db.prepare(`DELETE FROM charge_journal WHERE scope = ? AND key = ? AND status = 'PENDING'`).run(scope, key);
    const insert = this.db.prepare(
      `INSERT INTO charge_journal (scope, key, status, operation, fas, title_number, charge, day, recorded_at) VALUES (?, ?, 'CHARGED', ?, ?, ?, ?, ?, ?)`,
    );
    for (const charge of charges?.charges ?? []) {
      insert.run(scope, key, pending.operation, charge.fas || pending.fas, pending.title_number, JSON.stringify(charge), charges!.day, at);
    }
  }

  async settleStale(scope: string, key: string, staleBefore: number, outcome: string): Promise<boolean> {
    const at = this.now();
    return this.transaction(() => {
      const changed = this.db
        .prepare(
          `UPDATE idempotency SET state = 'outcome_unknown', outcome = ?, updated_at = ?
           WHERE scope = ? AND key = ? AND state = 'in_progress' AND updated_at < ?`,
        )
        .run(outcome, at, scope, key, staleBefore);
      if (Number(changed.changes) === 0) return false;
      this.settleJournal(scope, key, 'outcome_unknown', at);
      return true;
    });
  }

  async get(scope: string, key: string): Promise<IdempotencyRecord | undefined> {
    const row = this.db
      .prepare(`SELECT operation, input_hash, state, outcome, created_at, updated_at FROM idempotency WHERE scope = ? AND key = ?`)
      .get(scope, key) as IdempotencyRow | undefined;
    return row ? recordOfRow(row) : undefined;
  }

  async chargeRecords(scope: string, day: string): Promise<JournalRecord[]> {
    const rows = this.db
      .prepare(`SELECT ${JOURNAL_COLUMNS} FROM charge_journal WHERE scope = ? AND day = ? ORDER BY recorded_at, id`)
      .all(scope, day) as unknown as JournalRow[];
    return rows.map(journalRecordOfRow);
  }

  async purge(olderThan: number): Promise<number> {
    const result = this.db.prepare(`DELETE FROM idempotency WHERE updated_at < ?`).run(olderThan);
    return Number(result.changes);
  }

  async purgeJournal(olderThan: number): Promise<number> {
    const result = this.db.prepare(`DELETE FROM charge_journal WHERE recorded_at < ?`).run(olderThan);
    return Number(result.changes);
  }

  async close() {
    if (this.db.isOpen) this.db.close();
  }
}
