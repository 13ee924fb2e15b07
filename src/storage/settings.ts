/** The stores' settings: a leaf without imports, so that reading the settings loads no database driver. */

/**
 * DATABASE_MAX_CONNECTIONS: the most connections one replica opens to PostgreSQL, its three
 * stores together (the idempotency store and charge journal, the quota ledger, the persisted
 * queries). Replicas × this must stay under the server's max_connections, less what others use.
 */
export const DEFAULT_DATABASE_MAX_CONNECTIONS = 24;

/** The bounds of the automatic persisted query store (apq/store.ts), per organisation and in all. */
export interface ApqLimits {
  /** Entries one organisation may keep; the least recently used goes first. */
  maxPerOrganisation: number;
  /** Query text kept in all, in bytes; past it nothing new is stored. */
  maxTotalBytes: number;
}

/** APQ_MAX_ENTRIES_PER_ORGANISATION and APQ_MAX_TOTAL_BYTES. */
export const DEFAULT_APQ_LIMITS: ApqLimits = { maxPerOrganisation: 1_000, maxTotalBytes: 64 * 1024 * 1024 };

/** Registrations each API client may make a minute, per replica (APQ_REGISTRATIONS_PER_MINUTE). */
export const DEFAULT_APQ_REGISTRATIONS_PER_MINUTE = 60;
