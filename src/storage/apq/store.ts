/**
 * Automatic persisted queries (Apollo's protocol): hash → query text, per organisation, shared by
 * every replica (SQLite alone, PostgreSQL with DATABASE_URL), so a hash registered through one
 * replica is a hit on the others, and a hash one organisation registered is unknown to another
 * (its probe would otherwise learn that the exact text was sent). Bounded: at most
 * `maxPerOrganisation` entries each, the least recently used going first, and `maxTotalBytes` of
 * query text in all, past which nothing new is kept (the request still runs). Entries are
 * immutable, so each replica keeps the ones it has seen in memory too (bounded). Its bounds,
 * ApqLimits, are settings (storage/settings.ts).
 */
export interface ApqStore {
  get(organisation: string, hash: string): Promise<string | undefined>;
  /** Keeps the query unless the store is full; false when it was not kept. */
  set(organisation: string, hash: string, query: string): Promise<boolean>;
  /** Forgets entries not used since the cut-off; a client re-registers on its next miss. */
  purge(olderThan: number): Promise<number>;
  close(): Promise<void>;
}
