/**
 * A PostgreSQL pool with its schema set up once: what the idempotency store and the quota
 * ledger share when DATABASE_URL is set. The DDL runs in one transaction under an advisory
 * lock, because replicas starting together would otherwise race on CREATE … IF NOT EXISTS.
 *
 * Every later statement has a deadline: the server cancels one that runs longer than
 * `STATEMENT_TIMEOUT_MS` (a lock never released, a database overwhelmed), and the client gives
 * up a little later when no answer comes at all (a frozen server cancels nothing). Either way the
 * request is told the database is unavailable (503 SERVICE_UNAVAILABLE, nothing sent to the
 * register) rather than held for the whole outage. The outage itself is told once, when it starts
 * and when it ends (`onPostgresOutage`), shared by every pool to the same database.
 */
import pg from 'pg';
import { DatabaseUnavailableError } from './database-unavailable';
import { type OutageEvent, OutageEpisodes } from './outage-episodes';

export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;

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
  setup(client: pg.ClientBase): Promise<void>;
}

/** The longest one statement runs after set-up (PostgreSQL's `statement_timeout`). */
export const STATEMENT_TIMEOUT_MS = 5_000;
/** How long the client waits for an answer: past the server's own cancellation, so that this fires only when the server is gone. */
const QUERY_TIMEOUT_MS = STATEMENT_TIMEOUT_MS + 1_000;

const UNREACHABLE_CODES = new Set([
  // query_canceled: the statement ran past statement_timeout (nothing of it was kept)
  '57014',
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
  return /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Query read timeout/i.test(
    error.message,
  );
}

/** The client gave up waiting: the connection still has the statement in flight, so it is not reused. */
const isReadTimeout = (error: unknown) => error instanceof Error && error.message === 'Query read timeout';

/** An outage episode of one database, and which (host, port and name: never its user or password). */
type PostgresOutageEvent = OutageEvent & { database: string };

const outageListeners = new Set<(event: PostgresOutageEvent) => void>();

/** Every PostgreSQL outage of this process, once when it starts and once when it ends; returns the unsubscribe. */
export function onPostgresOutage(listener: (event: PostgresOutageEvent) => void): () => void {
  outageListeners.add(listener);
  return () => outageListeners.delete(listener);
}

/** The database a connection string names, fit for a log line. */
function databaseName(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    return `${url.hostname}:${url.port || '5432'}${url.pathname}`;
  } catch {
    return 'postgresql';
  }
}

/** By connection string: the episodes every pool to that database shares (one replica's stores have three). */
const databases = new Map<string, { episodes: OutageEpisodes; pools: number }>();

/** The outage episodes of the database `connectionString` names (tests shorten its `quietMs`). */
export function postgresOutages(connectionString: string): OutageEpisodes {
  let entry = databases.get(connectionString);
  if (!entry) {
    const episodes = new OutageEpisodes();
    const database = databaseName(connectionString);
    episodes.on((event) => {
      for (const listener of outageListeners) listener({ ...event, database });
    });
    entry = { episodes, pools: 0 };
    databases.set(connectionString, entry);
  }
  return entry.episodes;
}

export class PgDatabase {
  private readonly pool: pg.Pool;
  private readonly initialised: Promise<void>;
  private closing: Promise<void> | undefined;
  private readonly outages: OutageEpisodes;

  /** An error of the driver: the database being away becomes DatabaseUnavailableError, and part of its episode. */
  private readonly unavailable = (error: unknown): never => {
    if (!isUnreachable(error) && !(error instanceof DatabaseUnavailableError)) throw error;
    const unavailable = error instanceof DatabaseUnavailableError ? error : new DatabaseUnavailableError(error);
    this.outages.refused(unavailable);
    throw unavailable;
  };

  constructor(readonly options: PgDatabaseOptions) {
    this.outages = postgresOutages(options.connectionString);
    databases.get(options.connectionString)!.pools++;
    this.pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.maxConnections ?? 10,
      idleTimeoutMillis: 30_000,
      connectionTimeoutMillis: 10_000,
      statement_timeout: STATEMENT_TIMEOUT_MS,
      query_timeout: QUERY_TIMEOUT_MS,
    });
    // A client losing its connection must not crash the process: an idle one (the pool's 'error'),
    // and a checked-out one between two of its queries (its own 'error', which pg leaves to whoever
    // holds it). The query it was running, or its next one, fails with DatabaseUnavailableError, and
    // the pool drops the client on release; the next query reconnects.
    this.pool.on('error', () => undefined);
    this.pool.on('connect', (client) => client.on('error', () => undefined));
    this.initialised = this.setUp();
    this.initialised.catch(() => undefined); // surfaced by ready() and by every operation
  }

  /**
   * The schema's DDL, on a connection of its own without the pool's deadlines: a migration (an
   * index on a large journal) or another replica's, holding the lock, may take longer.
   */
  private async setUp(): Promise<void> {
    const client = new pg.Client({ connectionString: this.options.connectionString, connectionTimeoutMillis: 10_000 });
    client.on('error', () => undefined);
    await client.connect().catch((error: unknown) => this.unavailable(new DatabaseUnavailableError(error)));
    try {
      await client.query('BEGIN');
      await client.query('SELECT pg_advisory_xact_lock($1)', [this.options.ddlLock]);
      await this.options.setup(client);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      this.unavailable(error);
    } finally {
      await client.end().catch(() => undefined);
    }
  }

  /** Resolves once the schema exists; rejects when the database cannot be reached or set up. */
  ready(): Promise<void> {
    return this.initialised;
  }

  async query<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<R>> {
    await this.initialised.catch(this.unavailable);
    const client = await this.connect();
    const sentAt = this.outages.stamp();
    let failure: unknown;
    try {
      const result = await client.query<R>(text, values);
      this.outages.worked(sentAt);
      return result;
    } catch (error) {
      failure = error;
      return this.unavailable(error);
    } finally {
      client.release(isReadTimeout(failure));
    }
  }

  /** A pooled connection; failing to get one is always the database being unreachable. */
  private connect(): Promise<pg.PoolClient> {
    return this.pool.connect().catch((error: unknown) => this.unavailable(new DatabaseUnavailableError(error)));
  }

  /** Runs `work` on one connection inside BEGIN … COMMIT (ROLLBACK on any error). */
  async transaction<R>(work: (client: pg.PoolClient) => Promise<R>): Promise<R> {
    await this.initialised.catch(this.unavailable);
    const client = await this.connect();
    const sentAt = this.outages.stamp();
    let failure: unknown;
    try {
      await client.query('BEGIN');
      const result = await work(client);
      await client.query('COMMIT');
      this.outages.worked(sentAt);
      return result;
    } catch (error) {
      failure = error;
      // After a read timeout the ROLLBACK would wait as long again: dropping the connection ends the transaction.
      if (!isReadTimeout(error)) await client.query('ROLLBACK').catch(() => undefined);
      return this.unavailable(error);
    } finally {
      client.release(isReadTimeout(failure));
    }
  }

  close(): Promise<void> {
    if (!this.closing) {
      const entry = databases.get(this.options.connectionString);
      if (entry && --entry.pools <= 0) databases.delete(this.options.connectionString);
    }
    this.closing ??= this.initialised.catch(() => undefined).then(() => this.pool.end());
    return this.closing;
  }
}
