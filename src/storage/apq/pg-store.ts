/** The persisted queries in PostgreSQL (DATABASE_URL), shared by every replica. */
import { PgDatabase } from '../pg-database';
import { SCHEMA, SharedApqStore } from './shared-store';
import type { ApqLimits } from '../settings';
import type { ApqStore } from './store';

/** Key of the advisory lock under which PostgreSQL registrations are decided, one at a time. */
const APQ_WRITE_LOCK = 0x61707122; // 'apq"'

export class PgApqStore extends SharedApqStore implements ApqStore {
  private readonly db: PgDatabase;

  constructor(connectionString: string, limits?: ApqLimits, now?: () => number, maxConnections = 4) {
    super(limits, now);
    this.db = new PgDatabase({
      connectionString,
      maxConnections,
      ddlLock: 0x61707121, // 'apq!'
      setup: async (client) => {
        for (const statement of SCHEMA) await client.query(statement);
      },
    });
  }

  ready(): Promise<void> {
    return this.db.ready();
  }

  async get(organisation: string, hash: string): Promise<string | undefined> {
    const result = await this.db.query<{ query: string; used_at: string }>(
      'SELECT query, used_at FROM persisted_query_by_org WHERE organisation = $1 AND hash = $2',
      [organisation, hash],
    );
    const row = result.rows[0];
    if (row && this.touchDue(row.used_at)) {
      await this.db.query('UPDATE persisted_query_by_org SET used_at = $3 WHERE organisation = $1 AND hash = $2', [
        organisation,
        hash,
        this.now(),
      ]);
    }
    return row?.query;
  }

  async set(organisation: string, hash: string, query: string): Promise<boolean> {
    const bytes = Buffer.byteLength(query, 'utf8');
    const at = this.now();
    return this.db.transaction(async (client) => {
      // One registration at a time: the total and each organisation's count are decided in turn.
      await client.query('SELECT pg_advisory_xact_lock($1)', [APQ_WRITE_LOCK]);
      const total = await client.query<{ total: string }>('SELECT COALESCE(SUM(bytes), 0) AS total FROM persisted_query_by_org');
      if (Number(total.rows[0]?.total ?? 0) + bytes > this.limits.maxTotalBytes) return false;
      await client.query(
        `INSERT INTO persisted_query_by_org (organisation, hash, query, bytes, registered_at, used_at) VALUES ($1, $2, $3, $4, $5, $5)
         ON CONFLICT DO NOTHING`,
        [organisation, hash, query, bytes, at],
      );
      await client.query(
        `DELETE FROM persisted_query_by_org WHERE organisation = $1 AND hash IN (
           SELECT hash FROM persisted_query_by_org WHERE organisation = $1 ORDER BY used_at DESC, registered_at DESC OFFSET $2)`,
        [organisation, this.limits.maxPerOrganisation],
      );
      return true;
    });
  }

  async purge(olderThan: number): Promise<number> {
    return (await this.db.query('DELETE FROM persisted_query_by_org WHERE used_at < $1', [olderThan])).rowCount ?? 0;
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
