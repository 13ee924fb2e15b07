/**
 * Automatic persisted queries (Apollo's protocol): hash → query text, per organisation, shared by
 * every replica (SQLite alone, PostgreSQL with DATABASE_URL), so a hash registered through one
 * replica is a hit on the others, and a hash one organisation registered is unknown to another
 * (its probe would otherwise learn that the exact text was sent). Bounded: at most
 * `maxPerOrganisation` entries each, the least recently used going first, and `maxTotalBytes` of
 * query text in all, past which nothing new is kept (the request still runs). Entries are
 * immutable, so each replica keeps the ones it has seen in memory too (bounded).
 */
export interface ApqLimits {
  /** Entries one organisation may keep; the least recently used goes first. */
  maxPerOrganisation: number;
  /** Query text kept in all, in bytes; past it nothing new is stored. */
  maxTotalBytes: number;
}

export const DEFAULT_APQ_LIMITS: ApqLimits = { maxPerOrganisation: 1_000, maxTotalBytes: 64 * 1024 * 1024 };

/** Registrations each API client may make a minute, per replica (APQ_REGISTRATIONS_PER_MINUTE). */
export const DEFAULT_APQ_REGISTRATIONS_PER_MINUTE = 60;

export interface ApqStore {
  get(organisation: string, hash: string): Promise<string | undefined>;
  /** Keeps the query unless the store is full; false when it was not kept. */
  set(organisation: string, hash: string, query: string): Promise<boolean>;
  /** Forgets entries not used since the cut-off; a client re-registers on its next miss. */
  purge(olderThan: number): Promise<number>;
  close(): Promise<void>;
}
