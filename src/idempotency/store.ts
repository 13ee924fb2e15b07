/**
 * Durable idempotency records and the charge journal, scoped per tenant. A key is claimed
 * atomically before any register call; its record then moves to exactly one final state.
 * Backends: embedded SQLite (default) and PostgreSQL (several replicas) share these semantics.
 *
 * The journal is written in the same transaction as the key's record: a chargeable key gets a
 * PENDING entry when it is claimed (before anything is sent, so even a crash mid-call leaves a
 * trace), which becomes one CHARGED entry per charge the register reports, or OUTCOME_UNKNOWN,
 * or disappears when the register provably did nothing.
 */
import type { Charge } from '../register/contract/wire';
export type IdempotencyState = 'in_progress' | 'succeeded' | 'failed_final' | 'failed_retryable' | 'outcome_unknown';

export interface IdempotencyRecord {
  operation: string;
  inputHash: string;
  state: IdempotencyState;
  /** JSON of the stored outcome, for succeeded and failed_final. */
  outcome?: string;
  createdAt: number;
  updatedAt: number;
}

/** A chargeable call about to be made: what its journal entry says until the outcome is known. */
export interface ChargeIntent {
  operation: string;
  fas: string;
  titleNumber: string;
  /** Register day (YYYY-MM-DD, Europe/London) the call is made on. */
  day: string;
}

/** How a chargeable call ended, for the journal: the charges reported (none when unknown). */
export interface ReportedCharges {
  charges: readonly Charge[];
  /** Register day the call was made on (its charges too). */
  day: string;
}

export type JournalStatus = 'CHARGED' | 'OUTCOME_UNKNOWN';

export interface JournalRecord {
  status: JournalStatus;
  operation: string;
  idempotencyKey: string;
  fas: string;
  titleNumber: string;
  /** Null when the outcome is unknown. */
  charge: Charge | null;
  day: string;
  recordedAt: number;
}

export type ClaimResult = { claimed: true } | { claimed: false; record: IdempotencyRecord };

export interface IdempotencyStore {
  /**
   * Claims (scope, key) for one execution. Succeeds for a new key, and for a key whose last
   * attempt failed retryably with the same input; otherwise returns the existing record.
   */
  claim(scope: string, key: string, operation: string, inputHash: string, intent?: ChargeIntent): Promise<ClaimResult>;
  /**
   * Moves a claimed key to its final state. With `charges` (a success), the key's PENDING
   * journal entry becomes one CHARGED entry per charge; `outcome_unknown` turns it into
   * OUTCOME_UNKNOWN (on `charges.day` when given: the register's day when the call went out);
   * any other state removes it (the register did nothing chargeable).
   */
  finish(
    scope: string,
    key: string,
    state: Exclude<IdempotencyState, 'in_progress'>,
    outcome?: string,
    charges?: ReportedCharges,
  ): Promise<void>;
  /**
   * A key left in progress since before `staleBefore` (its process died mid-call) becomes
   * outcome_unknown with this outcome, its journal entry too. False when it is not (or no
   * longer) such a key: another request settled it first.
   */
  settleStale(scope: string, key: string, staleBefore: number, outcome: string): Promise<boolean>;
  get(scope: string, key: string): Promise<IdempotencyRecord | undefined>;
  /**
   * The tenant's journal for one register day, oldest first. A PENDING entry reads as
   * OUTCOME_UNKNOWN: the call may have reached the register and no answer has come back.
   */
  chargeRecords(scope: string, day: string): Promise<JournalRecord[]>;
  /** Deletes idempotency records last touched before the cut-off; returns how many. */
  purge(olderThan: number): Promise<number>;
  /** Deletes journal entries recorded before the cut-off (kept far longer than keys). */
  purgeJournal(olderThan: number): Promise<number>;
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

/** A journal row as both SQL backends read it. */
export interface JournalRow {
  status: 'PENDING' | JournalStatus;
  operation: string;
  key: string;
  fas: string;
  title_number: string;
  charge: string | null;
  day: string;
  recorded_at: string | number;
}

export function journalRecordOfRow(row: JournalRow): JournalRecord {
  return {
    status: row.status === 'CHARGED' ? 'CHARGED' : 'OUTCOME_UNKNOWN',
    operation: row.operation,
    idempotencyKey: row.key,
    fas: row.fas,
    titleNumber: row.title_number,
    charge: row.charge === null ? null : (JSON.parse(row.charge) as Charge),
    day: row.day,
    recordedAt: Number(row.recorded_at),
  };
}

export const JOURNAL_COLUMNS = 'status, operation, key, fas, title_number, charge, day, recorded_at';

/** How long a same-key request waits for a call in progress elsewhere, and when an unfinished call is taken as crashed. */
export interface IdempotencyTiming {
  /** A concurrent request waits this long for the first one before answering IDEMPOTENCY_KEY_IN_USE (default 30 s). */
  waitMs?: number;
  /** An in-progress record older than this is from a crashed process: OUTCOME_UNKNOWN (default 2 min). */
  staleMs?: number;
}
