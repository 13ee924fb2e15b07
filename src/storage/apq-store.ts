/**
 * Automatic persisted queries (Apollo's protocol): hash → query text, per organisation, shared by
 * every replica (SQLite alone, PostgreSQL with DATABASE_URL), so a hash registered through one
 * replica is a hit on the others, and a hash one organisation registered is unknown to another
 * (its probe would otherwise learn that the exact text was sent). Bounded: at most
 * `maxPerOrganisation` entries each, the least recently used going first, and `maxTotalBytes` of
 * query text in all, past which nothing new is kept (the request still runs). Entries are
 * immutable, so each replica keeps the ones it has seen in memory too (bounded).
 */
import type { DatabaseSync } from 'node:sqlite';
import { openDataFile } from './sqlite-database';
import { PgDatabase } from './pg-database';

export interface ApqLimits {
  /** Entries one organisation may keep; the least recently used goes first. */
  maxPerOrganisation: number;
  /** Query text kept in all, in bytes; past it nothing new is stored. */
  maxTotalBytes: number;
}

export const DEFAULT_APQ_LIMITS: ApqLimits = { maxPerOrganisation: 1_000, maxTotalBytes: 64 * 1024 * 1024 };

/** Registrations each API client may make a minute, per replica (APQ_REGISTRATIONS_PER_MINUTE). */
export const DEFAULT_APQ_REGISTRATIONS_PER_MINUTE = 60;

/** Key of the advisory lock under which PostgreSQL registrations are decided, one at a time. */
const APQ_WRITE_LOCK = 0x61707122; // 'apq"'

/** A used entry's time is written again at most this often: reads stay reads. */
const TOUCH_EVERY_MS = 60 * 60 * 1000;

export interface ApqStore {
  get(organisation: string, hash: string): Promise<string | undefined>;
  /** Keeps the query unless the store is full; false when it was not kept. */
  set(organisation: string, hash: string, query: string): Promise<boolean>;
  /** Forgets entries not used since the cut-off; a client re-registers on its next miss. */
  purge(olderThan: number): Promise<number>;
  close(): Promise<void>;
}

/** What one replica remembers of the shared store: at most `max` entries, oldest out first. */
export class RememberedApqStore implements ApqStore {
  private readonly memory = new Map<string, string>();

  constructor(
    private readonly shared: ApqStore,
    private readonly max = 1_000,
  ) {}

  async get(organisation: string, hash: string): Promise<string | undefined> {
    const key = `${organisation}\u0000${hash}`;
    const known = this.memory.get(key);
    if (known !== undefined) return known;
    const query = await this.shared.get(organisation, hash);
    if (query !== undefined) this.remember(key, query);
    return query;
  }

  async set(organisation: string, hash: string, query: string): Promise<boolean> {
    const kept = await this.shared.set(organisation, hash, query);
    if (kept) this.remember(`${organisation}\u0000${hash}`, query);
    return kept;
  }

  private remember(key: string, query: string) {
    if (this.memory.size >= this.max) this.memory.delete(this.memory.keys().next().value!);
    this.memory.set(key, query);
  }

  purge(olderThan: number): Promise<number> {
    this.memory.clear();
    return this.shared.purge(olderThan);
  }

  close(): Promise<void> {
    return this.shared.close();
  }
}

/** The statements that set up either backend's table, the same in SQLite and PostgreSQL. */
const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS persisted_query_by_org (
    organisation TEXT NOT NULL, hash TEXT NOT NULL, query TEXT NOT NULL, bytes INTEGER NOT NULL,
    registered_at BIGINT NOT NULL, used_at BIGINT NOT NULL, PRIMARY KEY (organisation, hash))`,
  'CREATE INDEX IF NOT EXISTS persisted_query_by_org_used ON persisted_query_by_org (organisation, used_at)',
  // The store before organisations: every tenant shared its entries, which is the leak the scope closes.
  'DROP TABLE IF EXISTS persisted_query',
];

/** What both backends of the shared store hold: the bounds they keep, and the clock of the entries' use. */
abstract class SharedApqStore {
  constructor(
    protected readonly limits: ApqLimits = DEFAULT_APQ_LIMITS,
    protected readonly now: () => number = Date.now,
  ) {}

  /** Whether reading an entry should write its use time again (at most every TOUCH_EVERY_MS: reads stay reads). */
  protected touchDue(usedAt: string | number): boolean {
    return this.now() - Number(usedAt) > TOUCH_EVERY_MS;
  }
}

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
