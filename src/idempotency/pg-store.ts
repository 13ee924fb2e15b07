/**
 * The PostgreSQL idempotency backend (DATABASE_URL): one table shared by every replica of the
 * service, with the SQLite store's semantics. A key is claimed with one atomic
 * INSERT … ON CONFLICT … DO UPDATE … WHERE … RETURNING, so of any number of concurrent claims
 * (from any process) exactly one wins; a retryable failure of the same input can be re-taken.
 * Times are the service's clock in epoch milliseconds, like the SQLite store.
 */
import pg from 'pg';
import { recordOfRow, type ClaimResult, type IdempotencyRecord, type IdempotencyRow, type IdempotencyState, type IdempotencyStore } from './store';

export interface PgIdempotencyStoreOptions {
  connectionString: string;
  /** Schema holding the table (created when missing). Default: the connection's search_path (usually public). */
  schema?: string;
  /** Connections in the pool. Default 10. */
  maxConnections?: number;
  now?: () => number;
}



const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Fixed key of the advisory lock that serialises the DDL of replicas starting together. */
const DDL_LOCK = 0x7469746c; // 'titl'

export class PgIdempotencyStore implements IdempotencyStore {
  private readonly pool: pg.Pool;
  private readonly table: string;
  private readonly now: () => number;
  private readonly schema: string | undefined;
  private readonly initialised: Promise<void>;
  private closing: Promise<void> | undefined;

  constructor(options: PgIdempotencyStoreOptions) {
    this.now = options.now ?? Date.now;
    this.schema = options.schema;
    this.table = options.schema ? `${quoteIdent(options.schema)}.idempotency` : 'idempotency';
    this.pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.maxConnections ?? 10,
      idleTimeoutMillis: 30_000,
      connectionTimeoutMillis: 10_000,
    });
    // An idle client losing its connection must not crash the process; the next query reconnects.
    this.pool.on('error', () => undefined);
    this.initialised = this.createTable();
    this.initialised.catch(() => undefined); // surfaced by ready() and by every operation
  }

  /** Resolves once the table exists; rejects when the database cannot be reached or set up. */
  ready(): Promise<void> {
    return this.initialised;
  }

  private async createTable() {
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      // Replicas starting at once would otherwise race on CREATE … IF NOT EXISTS.
      await client.query('SELECT pg_advisory_xact_lock($1)', [DDL_LOCK]);
      if (this.schema) await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(this.schema)}`);
      await client.query(`
        CREATE TABLE IF NOT EXISTS ${this.table} (
          scope TEXT NOT NULL,
          key TEXT NOT NULL,
          operation TEXT NOT NULL,
          input_hash TEXT NOT NULL,
          state TEXT NOT NULL CHECK (state IN ('in_progress', 'succeeded', 'failed_final', 'failed_retryable', 'outcome_unknown')),
          outcome TEXT,
          created_at BIGINT NOT NULL,
          updated_at BIGINT NOT NULL,
          PRIMARY KEY (scope, key)
        )`);
      await client.query(`CREATE INDEX IF NOT EXISTS idempotency_updated ON ${this.table} (updated_at)`);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  private async query<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<R>> {
    await this.initialised;
    return this.pool.query<R>(text, values);
  }

  async claim(scope: string, key: string, operation: string, inputHash: string): Promise<ClaimResult> {
    for (let attempt = 0; ; attempt++) {
      const at = this.now();
      // One statement: insert a new key, or re-take a retryable failure of the same input. Under
      // concurrency PostgreSQL re-checks the WHERE on the latest committed row: one winner.
      const claimed = await this.query(
        `INSERT INTO ${this.table} AS t (scope, key, operation, input_hash, state, created_at, updated_at)
         VALUES ($1, $2, $3, $4, 'in_progress', $5, $5)
         ON CONFLICT (scope, key) DO UPDATE SET state = 'in_progress', outcome = NULL, updated_at = EXCLUDED.updated_at
         WHERE t.state = 'failed_retryable' AND t.input_hash = EXCLUDED.input_hash AND t.operation = EXCLUDED.operation
         RETURNING key`,
        [scope, key, operation, inputHash, at],
      );
      if (claimed.rowCount === 1) return { claimed: true };
      const record = await this.get(scope, key);
      if (record) return { claimed: false, record };
      // Purged between the two statements: claim again (a purge only removes old records).
      if (attempt >= 3) throw new Error('idempotency claim: record vanished repeatedly');
    }
  }

  async finish(scope: string, key: string, state: Exclude<IdempotencyState, 'in_progress'>, outcome?: string) {
    await this.query(`UPDATE ${this.table} SET state = $1, outcome = $2, updated_at = $3 WHERE scope = $4 AND key = $5`, [
      state,
      outcome ?? null,
      this.now(),
      scope,
      key,
    ]);
  }

  async get(scope: string, key: string): Promise<IdempotencyRecord | undefined> {
    const result = await this.query<IdempotencyRow>(
      `SELECT operation, input_hash, state, outcome, created_at, updated_at FROM ${this.table} WHERE scope = $1 AND key = $2`,
      [scope, key],
    );
    const row = result.rows[0];
    return row ? recordOfRow(row) : undefined;
  }

  async purge(olderThan: number): Promise<number> {
    const result = await this.query(`DELETE FROM ${this.table} WHERE updated_at < $1`, [olderThan]);
    return result.rowCount ?? 0;
  }

  close(): Promise<void> {
    this.closing ??= this.initialised.catch(() => undefined).then(() => this.pool.end());
    return this.closing;
  }
}
