/**
 * Durable idempotency records, scoped per tenant. A key is claimed atomically before any
 * register call; its record then moves to exactly one final state. Backends: embedded SQLite
 * (default) and PostgreSQL (several replicas) share these semantics.
 */
export type IdempotencyState =
  | 'in_progress'
  | 'succeeded'
  | 'failed_final'
  | 'failed_retryable'
  | 'outcome_unknown';

export interface IdempotencyRecord {
  operation: string;
  inputHash: string;
  state: IdempotencyState;
  /** JSON of the stored outcome, for succeeded and failed_final. */
  outcome?: string;
  createdAt: number;
  updatedAt: number;
}

export type ClaimResult = { claimed: true } | { claimed: false; record: IdempotencyRecord };

export interface IdempotencyStore {
  /**
   * Claims (scope, key) for one execution. Succeeds for a new key, and for a key whose last
   * attempt failed retryably with the same input; otherwise returns the existing record.
   */
  claim(scope: string, key: string, operation: string, inputHash: string): Promise<ClaimResult>;
  finish(scope: string, key: string, state: Exclude<IdempotencyState, 'in_progress'>, outcome?: string): Promise<void>;
  get(scope: string, key: string): Promise<IdempotencyRecord | undefined>;
  /** Deletes records last touched before the cut-off; returns how many. */
  purge(olderThan: number): Promise<number>;
  close(): Promise<void>;
}

/** A stored row as both SQL backends read it (column names are the same in each). */
export interface IdempotencyRow {
  operation: string;
  input_hash: string;
  state: IdempotencyState;
  outcome: string | null;
  created_at: string | number;
  updated_at: string | number;
}

export function recordOfRow(row: IdempotencyRow): IdempotencyRecord {
  return {
    operation: row.operation,
    inputHash: row.input_hash,
    state: row.state,
    ...(row.outcome === null ? {} : { outcome: row.outcome }),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}
