/** The persisted queries in one SQLite file (the default, one instance). */
import type { DatabaseSync } from 'node:sqlite';
import { openDataFile } from '../sqlite-database';
import { SCHEMA, SharedApqStore } from './shared-store';
import type { ApqLimits } from '../settings';
import type { ApqStore } from './store';

export class SqliteApqStore extends SharedApqStore implements ApqStore {
  private readonly db: DatabaseSync;

  constructor(dataDir: string, limits?: ApqLimits, now?: () => number) {
    super(limits, now);
    this.db = openDataFile(dataDir, SCHEMA.map((statement) => `${statement};`).join('\n'));
  }

  async get(organisation: string, hash: string): Promise<string | undefined> {
    const row = this.db
      .prepare('SELECT query, used_at FROM persisted_query_by_org WHERE organisation = ? AND hash = ?')
      .get(organisation, hash) as { query: string; used_at: number } | undefined;
    if (row && this.touchDue(row.used_at)) {
      this.db
        .prepare('UPDATE persisted_query_by_org SET used_at = ? WHERE organisation = ? AND hash = ?')
        .run(this.now(), organisation, hash);
    }
    return row?.query;
  }

  async set(organisation: string, hash: string, query: string): Promise<boolean> {
    const bytes = Buffer.byteLength(query, 'utf8');
    const at = this.now();
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const total = Number(
        (this.db.prepare('SELECT COALESCE(SUM(bytes), 0) AS total FROM persisted_query_by_org').get() as { total: number }).total,
      );
      if (total + bytes > this.limits.maxTotalBytes) {
        this.db.exec('ROLLBACK');
        return false;
      }
      this.db
        .prepare(
          'INSERT INTO persisted_query_by_org (organisation, hash, query, bytes, registered_at, used_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
        )
        .run(organisation, hash, query, bytes, at, at);
      this.db
        .prepare(
          `DELETE FROM persisted_query_by_org WHERE organisation = ? AND hash IN (
             SELECT hash FROM persisted_query_by_org WHERE organisation = ? ORDER BY used_at DESC, registered_at DESC LIMIT -1 OFFSET ?)`,
        )
        .run(organisation, organisation, this.limits.maxPerOrganisation);
      this.db.exec('COMMIT');
      return true;
    } catch (error) {
      this.db.exec('ROLLBACK');
      throw error;
    }
  }

  async purge(olderThan: number): Promise<number> {
    return Number(this.db.prepare('DELETE FROM persisted_query_by_org WHERE used_at < ?').run(olderThan).changes);
  }

  async close(): Promise<void> {
    if (this.db.isOpen) this.db.close();
  }
}
