/**
 * Durable idempotency records and the charge journal, per register API client: the `client` of
 * each method below (the tables' `scope` column, a name kept so that the previous release finds
 * its rows; "scope" elsewhere means an OAuth scope). A key is claimed
 * atomically before any register call; its record then moves to exactly one final state.
 * Backends: embedded SQLite (default) and PostgreSQL (several replicas) share these semantics.
 *
 * The journal is written in the same transaction as the key's record: a chargeable key gets a
 * PENDING entry per product when it is claimed (before anything is sent, so even a crash mid-call
 * leaves a trace). Each entry settles in place (same id, same recorded_at): it becomes the CHARGED
 * entry of its product's charge, or OUTCOME_UNKNOWN, or disappears when the register charged
 * nothing for it. A statement paged meanwhile meets each entry once.
 */
import type { ChargeableProduct } from '../../register/contract/money';
import type { Charge } from '../../register/contract/wire';
import type { CallerFilter, CallerStamp } from './callers';

export type { CallerFilter, CallerStamp } from './callers';
export type IdempotencyState = 'in_progress' | 'succeeded' | 'failed_final' | 'failed_retryable' | 'outcome_unknown';

export interface IdempotencyRecord {
  operation: string;
  inputHash: string;
  state: IdempotencyState;
  /** JSON of the stored outcome, for succeeded and failed_final. */
  outcome?: string;
  createdAt: number;
  updatedAt: number;
  /** The principal that claimed the key; null for records the previous release wrote. */
  callerId: string | null;
  /** Its subject (a person's `sub` or a key's name); null for records written before callers were kept. */
  callerSubject: string | null;
}

/** A chargeable call about to be made: what its journal entry says until the outcome is known. */
export interface ChargeIntent {
  operation: string;
  fas: string;
  titleNumber: string;
  /** Register day (YYYY-MM-DD, Europe/London) the call is made on. */
  day: string;
  /** The caller's search reference (the matter), kept for statements. */
  reference?: string;
  /** Who makes the call. */
  caller?: CallerStamp | undefined;
  /** What the call may charge, reserved against the spending limits in the claim's transaction. */
  spend?: SpendCheck;
}

/**
 * The spending check made with a chargeable claim, atomically with it: the expected fee is what
 * the products cost less those already charged today on this FAS and title by the organisation's
 * API clients (the register does not charge them again). It is reserved as the journal entry's
 * amount until the register answers; an unknown outcome keeps it.
 */
export interface SpendCheck {
  products: readonly ChargeableProduct[];
  feesPence: Readonly<Record<ChargeableProduct, number>>;
  organisation: string;
  /** Every API client (scope) of the caller's organisation, the caller's own included. */
  organisationClients: readonly string[];
  clientLimitPence?: number;
  organisationLimitPence?: number;
  /** The calling person's or key's own daily limit. */
  callerLimitPence?: number;
  /** The caller's `maxFee`. */
  maxFeePence?: number;
  /**
   * The day whose charges make a product free, when not the claim's own: near the register's
   * midnight, the later day it may be on (what was charged the day before is charged again there).
   */
  chargedOnDay?: string;
}

/** Why a chargeable claim was refused before anything was sent. */
export type SpendRefusal =
  | { reason: 'maxFee'; expectedPence: number; maxFeePence: number }
  | { reason: 'client' | 'organisation' | 'caller'; expectedPence: number; limitPence: number; remainingPence: number };

/** Where a statement page ended: the sort key of its last record. */
export interface StatementPosition {
  day: string;
  recordedAt: number;
  id: number;
}

/** A statement's figures over its whole range. */
export interface StatementSummary {
  chargedPence: number;
  /** Records whose outcome is unknown, or not known yet (PENDING). */
  unknownCount: number;
}

/** Charged and reserved amounts of some API clients on one register day. */
export interface SpendTotals {
  chargedPence: number;
  /** Calls in flight or with an unknown outcome: their expected fees. */
  pendingPence: number;
}

/** How a chargeable call ended, for the journal: the charges reported (none when unknown). */
export interface ReportedCharges {
  charges: readonly Charge[];
  /** Register day the call was made on (its charges too). */
  day: string;
}

/**
 * A PENDING entry older than this was left by a process that died mid-call (the stale-key rule's
 * default, the idempotency runner's staleMs): no call is at the register that long, so it reads OUTCOME_UNKNOWN.
 */
export const PENDING_AT_MOST_MS = 120_000;

/** PENDING: the call is at the register, its outcome not known yet (it counts as spent, as an unknown outcome does). */
export type JournalStatus = 'PENDING' | 'CHARGED' | 'OUTCOME_UNKNOWN';

export interface JournalRecord {
  status: JournalStatus;
  operation: string;
  idempotencyKey: string;
  fas: string;
  titleNumber: string;
  /** Null until the register has reported it (PENDING), and when the outcome is unknown. */
  charge: Charge | null;
  day: string;
  /** When the call was recorded (claimed): settling never changes it. */
  recordedAt: number;
  /** The API client (scope) that made the call. */
  apiClient: string;
  reference: string | null;
  /** Who made the call: a person's subject or a key's name; the API client for entries written before callers were kept. */
  caller: string;
  /** The principal that made the call; null for entries the previous release wrote and no principal was found for. */
  callerId: string | null;
  callerName: string | null;
  /** The product the entry is for: the charge's, or the one the call asked for; null for entries written before spend control. */
  product?: string | null;
}

export type ClaimResult =
  /** `reservedPence`: the expected fee reserved against the spending limits (0 when nothing is expected). */
  | { claimed: true; reservedPence: number }
  | { claimed: false; record: IdempotencyRecord; refused?: undefined }
  | { claimed: false; refused: SpendRefusal; record?: undefined };

/** Which page of a statement: whose journal, which register days (inclusive), which reference, from where. */
export interface StatementPageQuery {
  clients: readonly string[];
  from: string;
  to: string;
  reference?: string | undefined;
  /**
   * Only this caller's calls, and those written before callers were kept (they belong to every
   * caller of their API client, as they did then).
   */
  caller?: CallerFilter | undefined;
  /** The position of the last record of the previous page; absent for the first page. */
  after?: StatementPosition | undefined;
  limit: number;
}

export interface IdempotencyStore {
  /**
   * Claims (client, key) for one execution. Succeeds for a new key, and for a key whose last
   * attempt failed retryably with the same input (and caller); otherwise returns the existing record.
   * `caller` is kept on the record: a key is one caller's.
   */
  claim(
    client: string,
    key: string,
    operation: string,
    inputHash: string,
    intent?: ChargeIntent,
    caller?: CallerStamp,
  ): Promise<ClaimResult>;
  /**
   * Moves a claimed key to its final state. With `charges` (a success), each charge settles the
   * key's PENDING journal entry of its product in place as CHARGED (entries of products not
   * charged are removed); `outcome_unknown` turns them into OUTCOME_UNKNOWN (on `charges.day`
   * when given: the register's day when the call went out); any other state removes them (the
   * register did nothing chargeable).
   */
  finish(
    client: string,
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
  settleStale(client: string, key: string, staleBefore: number, outcome: string): Promise<boolean>;
  get(client: string, key: string): Promise<IdempotencyRecord | undefined>;
  /**
   * The journal of one API client for one register day, oldest first, of one caller when given.
   * A PENDING entry is a call still at the register.
   */
  chargeRecords(client: string, day: string, caller?: CallerFilter): Promise<JournalRecord[]>;
  /**
   * One page of the journal of these API clients for register days `from` to `to` inclusive,
   * optionally of one reference, oldest first (day, then time recorded), after `after` (the position of the last record
   * of the previous page): how a long statement is streamed without holding it in memory or a
   * read transaction open while a slow reader takes it.
   */
  statementPage(query: StatementPageQuery): Promise<{ records: JournalRecord[]; last?: StatementPosition }>;
  /** The charged total and the count of unknown outcomes of a whole statement (every page), computed by the database. */
  statementSummary(query: Omit<StatementPageQuery, 'after' | 'limit'>): Promise<StatementSummary>;
  /** Products charged on this FAS and title on that day by any of these API clients. */
  chargedProducts(clients: readonly string[], day: string, fas: string, titleNumber: string): Promise<Set<string>>;
  /** What these API clients (of one caller, when given) were charged and have reserved on that day. */
  spendTotals(clients: readonly string[], day: string, caller?: CallerFilter): Promise<SpendTotals>;
  /**
   * Gives rows the previous release wrote (a bare subject, no principal) the principal `owner`
   * names for their API client and subject, where it names one; returns how many rows changed.
   */
  adoptLegacyCallers(owner: (client: string, subject: string) => string | undefined): Promise<number>;
  /** Rejects when a shared database cannot be reached (readiness); absent for an embedded store. */
  ping?(): Promise<void>;
  /** Deletes idempotency records last touched before the cut-off; returns how many. */
  purge(olderThan: number): Promise<number>;
  /** Deletes journal entries recorded before the cut-off (kept far longer than keys). */
  purgeJournal(olderThan: number): Promise<number>;
  close(): Promise<void>;
}

/** How long a same-key request waits for a call in progress elsewhere, and when an unfinished call is taken as crashed. */
export interface IdempotencyTiming {
  /** A concurrent request waits this long for the first one before answering IDEMPOTENCY_KEY_IN_USE (default 30 s). */
  waitMs?: number;
  /** An in-progress record older than this is from a crashed process: OUTCOME_UNKNOWN (default 2 min). */
  staleMs?: number;
}
