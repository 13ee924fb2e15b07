/**
 * A PostgreSQL pool with its schema set up once: what the idempotency store and the quota
 * ledger share when DATABASE_URL is set. The DDL runs in one transaction under an advisory
 * lock, because replicas starting together would otherwise race on CREATE … IF NOT EXISTS.
 */
import pg from 'pg';
import { DatabaseUnavailableError } from './database-unavailable';

export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

/**
 * DATABASE_MAX_CONNECTIONS: the most connections one replica opens to PostgreSQL, its three
 * stores together (the idempotency store and charge journal, the quota ledger, the persisted
 * queries). Replicas × this must stay under the server's max_connections, less what others use.
 */
export const DEFAULT_DATABASE_MAX_CONNECTIONS = 24;

/** Each store's pool, out of a replica's `total` connections (24: 10, 10 and 4). */
export function connectionShares(total: number): { idempotency: number; quota: number; apq: number } {
  // Persisted queries are read once per new document per replica (then remembered): a sixth.
  // The idempotency store and the quota ledger are on every chargeable call and every register call.
  const apq = Math.max(1, Math.floor(total / 6));
  const idempotency = Math.max(1, Math.ceil((total - apq) / 2));
  return { idempotency, quota: Math.max(1, total - apq - idempotency), apq };
}

export interface PgDatabaseOptions {
  connectionString: string;
  /** Connections in the pool. Default 10 (connectionShares of the default DATABASE_MAX_CONNECTIONS). */
  maxConnections?: number;
  /** Key of the advisory lock that serialises this schema's DDL across replicas. */
  ddlLock: number;
  /** Creates what is missing (tables, indexes, functions), inside the locked transaction. */
  setup(client: pg.PoolClient): Promise<void>;
}

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'EPIPE',
  '57P01',
  '57P02',
  '57P03',
  '53300',
]);

/** True for the driver's ways of saying the server is not there (SQLSTATE class 08: connection exception). */
function isUnreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && (UNREACHABLE_CODES.has(code) || code.startsWith('08'))) return true;
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(error.message);
}

const unavailable = (error: unknown): never => {
  throw isUnreachable(error) ? new DatabaseUnavailableError(error) : error;
};

export class PgDatabase {
  private readonly pool: pg.Pool;
  private readonly initialised: Promise<void>;
  private closing: Promise<void> | undefined;

  constructor(readonly options: PgDatabaseOptions) {
    this.pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.maxConnections ?? 10,
      idleTimeoutMillis: 30_000,
      connectionTimeoutMillis: 10_000,
    });
    // An idle client losing its connection must not crash the process; the next query reconnects.
    this.pool.on('error', () => undefined);
    this.initialised = this.transaction(async (client) => {
      await client.query('SELECT pg_advisory_xact_lock($1)', [options.ddlLock]);
      await options.setup(client);
    }, false);
    this.initialised.catch(() => undefined); // surfaced by ready() and by every operation
  }

  /** Resolves once the schema exists; rejects when the database cannot be reached or set up. */
  ready(): Promise<void> {
    return this.initialised;
  }

  async query<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<R>> {
    await this.initialised.catch(unavailable);
    const client = await this.connect();
    try {
      return await client.query<R>(text, values).catch(unavailable);
    } finally {
      client.release();
    }
  }

  /** A pooled connection; failing to get one is always the database being unreachable. */
  private connect(): Promise<pg.PoolClient> {
    return this.pool.connect().catch((error: unknown) => {
      throw new DatabaseUnavailableError(error);
    });
  }

  /** Runs `work` on one connection inside BEGIN … COMMIT (ROLLBACK on any error). */
  async transaction<R>(work: (client: pg.PoolClient) => Promise<R>, afterSetup = true): Promise<R> {
    if (afterSetup) await this.initialised.catch(unavailable);
    const client = await this.connect();
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      return unavailable(error);
    } finally {
      client.release();
    }
  }

  close(): Promise<void> {
    this.closing ??= this.initialised.catch(() => undefined).then(() => this.pool.end());
    return this.closing;
  }
}
