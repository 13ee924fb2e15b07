/**
 * Automatic persisted queries (Apollo's protocol): hash → query text, registered by any client
 * and shared by every replica (SQLite alone, PostgreSQL with DATABASE_URL), so a hash registered
 * through one replica is a hit on the others. Entries are immutable, so each replica keeps the
 * ones it has seen in memory too (bounded).
 */
import type { DatabaseSync } from 'node:sqlite';
import { openDataFile } from './sqlite-database';
import { PgDatabase } from './pg-database';

export interface ApqStore {
  get(hash: string): Promise<string | undefined>;
  set(hash: string, query: string): Promise<void>;
  /** Forgets entries registered before the cut-off; a client re-registers on its next miss. */
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

  async get(hash: string): Promise<string | undefined> {
    const known = this.memory.get(hash);
    if (known !== undefined) return known;
    const query = await this.shared.get(hash);
    if (query !== undefined) this.remember(hash, query);
    return query;
  }

  async set(hash: string, query: string): Promise<void> {
    this.remember(hash, query);
    await this.shared.set(hash, query);
  }

  private remember(hash: string, query: string) {
    if (this.memory.size >= this.max) this.memory.delete(this.memory.keys().next().value!);
    this.memory.set(hash, query);
  }

  purge(olderThan: number): Promise<number> {
    this.memory.clear();
    return this.shared.purge(olderThan);
  }

  close(): Promise<void> {
    return this.shared.close();
  }
}

export class SqliteApqStore implements ApqStore {
  private readonly db: DatabaseSync;

  constructor(
    dataDir: string,
    private readonly now: () => number = Date.now,
  ) {
    this.db = openDataFile(
      dataDir,
      'CREATE TABLE IF NOT EXISTS persisted_query (hash TEXT PRIMARY KEY, query TEXT NOT NULL, registered_at INTEGER NOT NULL);',
    );
  }

  async get(hash: string): Promise<string | undefined> {
    const row = this.db.prepare('SELECT query FROM persisted_query WHERE hash = ?').get(hash) as { query: string } | undefined;
    return row?.query;
  }

  async set(hash: string, query: string): Promise<void> {
    this.db
      .prepare('INSERT INTO persisted_query (hash, query, registered_at) VALUES (?, ?, ?) ON CONFLICT (hash) DO NOTHING')
      .run(hash, query, this.now());
  }

  async purge(olderThan: number): Promise<number> {
    return Number(this.db.prepare('DELETE FROM persisted_query WHERE registered_at < ?').run(olderThan).changes);
  }

  async close(): Promise<void> {
    if (this.db.isOpen) this.db.close();
  }
}

export class PgApqStore implements ApqStore {
  private readonly db: PgDatabase;

  constructor(
    connectionString: string,
    private readonly now: () => number = Date.now,
  ) {
    this.db = new PgDatabase({
      connectionString,
      maxConnections: 4,
      ddlLock: 0x61707121, // 'apq!'
      setup: async (client) => {
        await client.query(
          'CREATE TABLE IF NOT EXISTS persisted_query (hash TEXT PRIMARY KEY, query TEXT NOT NULL, registered_at BIGINT NOT NULL)',
        );
      },
    });
  }

  ready(): Promise<void> {
    return this.db.ready();
  }

  async get(hash: string): Promise<string | undefined> {
    const result = await this.db.query<{ query: string }>('SELECT query FROM persisted_query WHERE hash = $1', [hash]);
    return result.rows[0]?.query;
  }

  async set(hash: string, query: string): Promise<void> {
    await this.db.query('INSERT INTO persisted_query (hash, query, registered_at) VALUES ($1, $2, $3) ON CONFLICT (hash) DO NOTHING', [
      hash,
      query,
      this.now(),
    ]);
  }

  async purge(olderThan: number): Promise<number> {
    return (await this.db.query('DELETE FROM persisted_query WHERE registered_at < $1', [olderThan])).rowCount ?? 0;
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
