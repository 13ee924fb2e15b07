/**
 * The register quota's shared ledger: calls per organisation and register day, the 429 block
 * of an organisation, and each API client's token bucket. Every replica admits its calls here,
 * in one atomic step, so the count is the organisation's and not a process's, and it survives
 * restarts. Backends: SQLite (one instance) and PostgreSQL (replicas), same semantics.
 */
export interface AdmitRequest {
  organisation: string;
  client: string;
  /** Register day, YYYY-MM-DD (Europe/London). */
  day: string;
  /** Epoch ms, by the register's clock. */
  now: number;
  /** Free reads stop at `freeLimit` calls of the day; calls that charge or create at `dailyLimit`. */
  free: boolean;
  freeLimit: number;
  dailyLimit: number;
  /** The client's bucket: at most `burst` calls at once, refilled at `perMs` calls a millisecond. 0 burst = no bucket. */
  burst: number;
  perMs: number;
  /**
   * A lease (services/quota.ts): up to this many calls at once, counted now, for a replica to
   * admit from in memory; never more than a quarter of what is left before the next limit, nor
   * than the client's bucket holds. Absent: one call.
   */
  lease?: { id: string; wanted: number; expiresAt: number };
}

/**
 * A lease row of an earlier register day that ended this long ago is a dead replica's: a replica
 * alive ends its lease within the lease's lifetime (QUOTA_LEASE_MS, at most 10 s), so the row is
 * dropped without taking back calls anyone could still give back. The dead lease stays counted.
 */
export const DEAD_LEASE_AFTER_MS = 60_000;

/** What a lease did not use, given back when it ends: its calls uncounted, its client's tokens returned. */
export interface LeaseReturn {
  organisation: string;
  client: string;
  day: string;
  id: string;
  unused: number;
  /** The client's bucket size (0: no bucket): returned tokens never fill it past this. */
  burst: number;
}

export type Admission =
  /** `granted`: a lease's calls (absent for one call). */
  | { admitted: true; calls: number; granted?: number }
  | { admitted: false; reason: 'blocked' | 'daily' | 'reserve' | 'budget'; retryAfterMs: number };

export interface QuotaUsageRecord {
  calls: number;
  /** Calls counted in leases still open, every replica's (at most this many of `calls` not made yet); absent when none. */
  leased?: number;
  /** Epoch ms until which the register's 429 blocks the organisation, when it is later than now. */
  blockedUntil?: number;
}

export interface QuotaStore {
  /** Admits one register call, counting it, or says why not (nothing counted then). */
  admit(request: AdmitRequest): Promise<Admission>;
  /** Takes back one admitted call that never reached the register (or that it refused unauthenticated or rate-limited). */
  uncount(organisation: string, day: string): Promise<void>;
  /** The register answered 429: block the organisation, on every replica, until then. */
  block(organisation: string, until: number): Promise<void>;
  /** A lease ends: its unused calls are uncounted and its client's tokens returned. */
  endLease(lease: LeaseReturn): Promise<void>;
  /**
   * Told when an organisation's leases are recalled on every replica (PostgreSQL's NOTIFY): a
   * replica blocked it after the register's 429, or admitted a call that is not a free read with
   * the day's calls at or past the free reads' share while leases were open. Leases in hand then
   * end at once rather than at their expiry; returns the unsubscribe. Absent where one process
   * holds the ledger (SQLite): its own block is the only one, and its own leases give way at a
   * refusal (services/quota.ts).
   */
  onRecall?(listener: (organisation: string) => void): () => void;
  usage(organisation: string, day: string, now: number): Promise<QuotaUsageRecord>;
  close(): Promise<void>;
}
