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
import { type ChargeableProduct, penceOf } from '../../register/contract/money';
import type { Charge } from '../../register/contract/wire';
export type IdempotencyState = 'in_progress' | 'succeeded' | 'failed_final' | 'failed_retryable' | 'outcome_unknown';

export interface IdempotencyRecord {
  operation: string;
  inputHash: string;
  state: IdempotencyState;
  /** JSON of the stored outcome, for succeeded and failed_final. */
  outcome?: string;
  createdAt: number;
  updatedAt: number;
  /** Who claimed the key (a person's subject or a key's name); null for records written before callers were kept. */
  caller: string | null;
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
  /** Who makes the call: a signed-in person's subject, or an API key's name. */
  caller?: string | undefined;
  /** The person's name as their token gives it; absent for an API key. */
  callerName?: string | undefined;
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
  organisationScopes: readonly string[];
  clientLimitPence?: number;
  organisationLimitPence?: number;
  /** The calling person's or key's own daily limit. */
  callerLimitPence?: number;
  /** The caller's `maxFee`. */
  maxFeePence?: number;
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
  /** Records whose outcome is unknown (or still pending). */
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
  /** The API client (scope) that made the call. */
  apiClient: string;
  reference: string | null;
  /** Who made the call (a person's subject or a key's name); the API client for entries written before callers were kept. */
  caller: string;
  callerName: string | null;
}

export type ClaimResult =
  /** `reservedPence`: the expected fee reserved against the spending limits (0 when nothing is expected). */
  | { claimed: true; reservedPence: number }
  | { claimed: false; record: IdempotencyRecord; refused?: undefined }
  | { claimed: false; refused: SpendRefusal; record?: undefined };

/** Which page of a statement: whose journal, which register days (inclusive), which reference, from where. */
export interface StatementPageQuery {
  scopes: readonly string[];
  from: string;
  to: string;
  reference?: string | undefined;
  /**
   * Only this caller's calls (a person's subject or a key's name), and those written before
   * callers were kept (they belong to every caller of their API client, as they did then).
   */
  caller?: string | undefined;
  /** The position of the last record of the previous page; absent for the first page. */
  after?: StatementPosition | undefined;
  limit: number;
}

export interface IdempotencyStore {
  /**
   * Claims (scope, key) for one execution. Succeeds for a new key, and for a key whose last
   * attempt failed retryably with the same input (and caller); otherwise returns the existing record.
   * `caller` (a person's subject or a key's name) is kept on the record: a key is one caller's.
   */
  claim(scope: string, key: string, operation: string, inputHash: string, intent?: ChargeIntent, caller?: string): Promise<ClaimResult>;
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
   * The journal of one API client for one register day, oldest first, of one caller when given.
   * A PENDING entry reads as OUTCOME_UNKNOWN: the call may have reached the register and no
   * answer has come back.
   */
  chargeRecords(scope: string, day: string, caller?: string): Promise<JournalRecord[]>;
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
  chargedProducts(scopes: readonly string[], day: string, fas: string, titleNumber: string): Promise<Set<string>>;
  /** What these API clients (of one caller, when given) were charged and have reserved on that day. */
  spendTotals(scopes: readonly string[], day: string, caller?: string): Promise<SpendTotals>;
  /** Rejects when a shared database cannot be reached (readiness); absent for an embedded store. */
  ping?(): Promise<void>;
  /** Deletes idempotency records last touched before the cut-off; returns how many. */
  purge(olderThan: number): Promise<number>;
  /** Deletes journal entries recorded before the cut-off (kept far longer than keys). */
  purgeJournal(olderThan: number): Promise<number>;
  close(): Promise<void>;
}

/**
 * The tables both SQL backends keep and their indexes, in either dialect: `serial` declares the
 * journal's auto-increment id, `integer` the (64-bit) type of times and amounts.
 */
export function tableStatements(table: string, journal: string, types: { serial: string; integer: string }): string[] {
  const { serial, integer } = types;
  return [
    `CREATE TABLE IF NOT EXISTS ${table} (
      scope TEXT NOT NULL,
      key TEXT NOT NULL,
      operation TEXT NOT NULL,
      input_hash TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('in_progress', 'succeeded', 'failed_final', 'failed_retryable', 'outcome_unknown')),
      outcome TEXT,
      created_at ${integer} NOT NULL,
      updated_at ${integer} NOT NULL,
      caller TEXT,
      PRIMARY KEY (scope, key)
    )`,
    `CREATE INDEX IF NOT EXISTS idempotency_updated ON ${table} (updated_at)`,
    `CREATE TABLE IF NOT EXISTS ${journal} (
      id ${serial},
      scope TEXT NOT NULL,
      key TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('PENDING', 'CHARGED', 'OUTCOME_UNKNOWN')),
      operation TEXT NOT NULL,
      fas TEXT NOT NULL,
      title_number TEXT NOT NULL,
      charge TEXT,
      day TEXT NOT NULL,
      recorded_at ${integer} NOT NULL,
      reference TEXT,
      product TEXT,
      amount_pence ${integer},
      caller TEXT,
      caller_name TEXT
    )`,
    `CREATE INDEX IF NOT EXISTS charge_journal_day ON ${journal} (scope, day, recorded_at)`,
    // A statement page's order (day, recorded_at, id) after its client: one index range a page.
    `CREATE INDEX IF NOT EXISTS charge_journal_page ON ${journal} (scope, day, recorded_at, id)`,
    `CREATE INDEX IF NOT EXISTS charge_journal_key ON ${journal} (scope, key)`,
    `CREATE INDEX IF NOT EXISTS charge_journal_recorded ON ${journal} (recorded_at)`,
  ];
}

/** Indexes on the caller columns, made after an older journal has been given those columns. */
export function callerIndexStatements(journal: string): string[] {
  return [`CREATE INDEX IF NOT EXISTS charge_journal_caller ON ${journal} (scope, caller, day, recorded_at, id)`];
}

/** Columns added since the first release, in either dialect: an older database gets them on open. */
export const ADDED_COLUMNS = {
  idempotency: [['caller', 'TEXT']],
  journal: [
    ['caller', 'TEXT'],
    ['caller_name', 'TEXT'],
  ],
} as const;

/** A stored row as both SQL backends read it (column names are the same in each). */
export interface IdempotencyRow {
  operation: string;
  input_hash: string;
  state: IdempotencyState;
  outcome: string | null;
  created_at: string | number;
  updated_at: string | number;
  caller: string | null;
}

export function recordOfRow(row: IdempotencyRow): IdempotencyRecord {
  return {
    operation: row.operation,
    inputHash: row.input_hash,
    state: row.state,
    ...(row.outcome === null ? {} : { outcome: row.outcome }),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    caller: row.caller,
  };
}

/** A journal row as both SQL backends read it. */
export interface JournalRow {
  scope: string;
  reference: string | null;
  status: 'PENDING' | JournalStatus;
  operation: string;
  key: string;
  fas: string;
  title_number: string;
  charge: string | null;
  day: string;
  recorded_at: string | number;
  caller: string | null;
  caller_name: string | null;
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
    apiClient: row.scope,
    reference: row.reference,
    caller: row.caller ?? row.scope,
    callerName: row.caller_name,
  };
}

export const JOURNAL_COLUMNS = 'scope, reference, status, operation, key, fas, title_number, charge, day, recorded_at, caller, caller_name';

/** The columns both SQL backends write a journal entry with, in the order of its values (pendingEntry, chargedEntries). */
export const ENTRY_COLUMNS =
  'scope, key, status, operation, fas, title_number, charge, day, recorded_at, reference, product, amount_pence, caller, caller_name';
export type EntryValues = (string | number | null)[];

/** The PENDING entry of a chargeable claim: the expected fee reserved until the register answers. */
export function pendingEntry(scope: string, key: string, intent: ChargeIntent, at: number, reservedPence: number): EntryValues {
  const { operation, fas, titleNumber, day, reference, caller, callerName } = intent;
  return [
    scope,
    key,
    'PENDING',
    operation,
    fas,
    titleNumber,
    null,
    day,
    at,
    reference ?? null,
    null,
    reservedPence,
    caller ?? null,
    callerName ?? null,
  ];
}

/** A key's PENDING (or stale OUTCOME_UNKNOWN) entry as both backends read it before settling it. */
export interface OpenEntry {
  operation: string;
  fas: string;
  title_number: string;
  reference: string | null;
  caller: string | null;
  caller_name: string | null;
}

/** The columns of an OpenEntry. */
export const OPEN_ENTRY_COLUMNS = 'operation, fas, title_number, reference, caller, caller_name';

/** The pence of a reported charge's fee (0 for a fee the register wrote oddly: the charge itself is kept). */
const chargePence = (charge: Charge): number => penceOf(charge.fee) ?? 0;

/** The CHARGED entries that replace a key's open entry: one per charge the register reported, on the day the call was made. */
export function chargedEntries(
  scope: string,
  key: string,
  open: OpenEntry,
  reported: ReportedCharges | undefined,
  at: number,
): EntryValues[] {
  return (reported?.charges ?? []).map((charge) => [
    scope,
    key,
    'CHARGED',
    open.operation,
    charge.fas || open.fas,
    open.title_number,
    JSON.stringify(charge),
    reported!.day,
    at,
    open.reference,
    charge.productType ?? null,
    chargePence(charge),
    open.caller,
    open.caller_name,
  ]);
}

/**
 * One API client's part of a statement page, as SQL with its values, for either dialect
 * (`placeholder(n)` writes the n-th parameter). Only the conditions a query has are written, so
 * that the planner reads one range of the (scope, [caller,] day, recorded_at, id) index in order
 * and stops after `limit` rows, however deep the page: paging a year is linear, not quadratic.
 */
export function statementScopeQuery(
  journal: string,
  scope: string,
  { from, to, reference, after, limit }: Omit<StatementPageQuery, 'scopes' | 'caller'>,
  caller: string | null | undefined,
  placeholder: (n: number) => string,
): { text: string; values: (string | number)[] } {
  const values: (string | number)[] = [];
  const param = (value: string | number) => {
    values.push(value);
    return placeholder(values.length);
  };
  const conditions = [`scope = ${param(scope)}`];
  // Entries written before callers were kept belong to every caller of their API client, as they did then.
  if (caller !== undefined) conditions.push(caller === null ? 'caller IS NULL' : `caller = ${param(caller)}`);
  conditions.push(`day >= ${param(from)}`, `day <= ${param(to)}`);
  if (after) conditions.push(`(day, recorded_at, id) > (${param(after.day)}, ${param(after.recordedAt)}, ${param(after.id)})`);
  if (reference !== undefined) conditions.push(`reference = ${param(reference)}`);
  return {
    text: `SELECT id, ${JOURNAL_COLUMNS} FROM ${journal} WHERE ${conditions.join(' AND ')} ORDER BY day, recorded_at, id LIMIT ${param(limit)}`,
    values,
  };
}

/**
 * The parts a statement page is read in, one index range each: per API client, and for one
 * caller both its own entries and those from before callers were kept.
 */
export function statementParts(scopes: readonly string[], caller: string | undefined): [string, string | null | undefined][] {
  return scopes.flatMap(
    (scope) =>
      (caller === undefined
        ? [[scope, undefined]]
        : [
            [scope, caller],
            [scope, null],
          ]) as [string, string | null | undefined][],
  );
}

/** The first `limit` rows of the API clients' parts of a page, in the journal's order (each part is already in it). */
export function mergeStatementParts<R extends JournalRow & { id: string | number }>(parts: R[][], limit: number): R[] {
  if (parts.length === 1) return parts[0]!.slice(0, limit);
  const key = (row: R) => [row.day, Number(row.recorded_at), Number(row.id)] as const;
  return parts
    .flat()
    .sort((a, b) => {
      const [ad, at, ai] = key(a);
      const [bd, bt, bi] = key(b);
      return ad < bd ? -1 : ad > bd ? 1 : at - bt || ai - bi;
    })
    .slice(0, limit);
}

/** A statement page as both backends read it: journal rows with their id, and where the page ended. */
export function statementPageOf(rows: (JournalRow & { id: string | number })[]): { records: JournalRecord[]; last?: StatementPosition } {
  const tail = rows.at(-1);
  return {
    records: rows.map(journalRecordOfRow),
    ...(tail ? { last: { day: tail.day, recordedAt: Number(tail.recorded_at), id: Number(tail.id) } } : {}),
  };
}

/** What buying these products is expected to charge: list fees, less what was already charged today (never charged twice). */
export function expectedFeePence(
  products: readonly ChargeableProduct[],
  alreadyCharged: ReadonlySet<string>,
  feesPence: Readonly<Record<ChargeableProduct, number>>,
): number {
  return [...new Set(products)].filter((p) => !alreadyCharged.has(p)).reduce((sum, p) => sum + feesPence[p], 0);
}

/** Thrown inside a claim's transaction when spending refuses the call: the claim is rolled back and answers the refusal. */
export class SpendRefused extends Error {
  constructor(readonly refusal: SpendRefusal) {
    super(`spending refused the call (${refusal.reason})`);
  }
}

/**
 * The spending decision, the same for both backends, from what the claim's transaction read: the
 * products already charged and the day's totals so far (charged plus reserved). Answers what the
 * claim reserves (its expected fee); a refusal is thrown, to roll the claim back (see claimWith).
 */
export function spendReservation(
  check: SpendCheck,
  alreadyCharged: ReadonlySet<string>,
  clientSoFarPence: number,
  organisationSoFarPence: number,
  callerSoFarPence = 0,
): number {
  const expectedPence = expectedFeePence(check.products, alreadyCharged, check.feesPence);
  if (check.maxFeePence !== undefined && expectedPence > check.maxFeePence) {
    throw new SpendRefused({ reason: 'maxFee', expectedPence, maxFeePence: check.maxFeePence });
  }
  if (expectedPence === 0) return 0;
  const limits = [
    ['caller', check.callerLimitPence, callerSoFarPence],
    ['client', check.clientLimitPence, clientSoFarPence],
    ['organisation', check.organisationLimitPence, organisationSoFarPence],
  ] as const;
  for (const [reason, limitPence, soFar] of limits) {
    if (limitPence !== undefined && soFar + expectedPence > limitPence) {
      throw new SpendRefused({ reason, expectedPence, limitPence, remainingPence: Math.max(0, limitPence - soFar) });
    }
  }
  return expectedPence;
}

/**
 * A claim as both backends make it. `take` runs the claim's transaction: it takes the key (or
 * answers undefined when the key is held) and, for a chargeable call, reserves its fee. A spending
 * refusal thrown inside it is the answer; a held key answers its record, and a key purged in
 * between is claimed again (a purge only removes old records).
 */
export async function claimWith(
  take: () => Promise<{ reservedPence: number } | undefined>,
  existing: () => Promise<IdempotencyRecord | undefined>,
): Promise<ClaimResult> {
  for (let attempt = 0; ; attempt++) {
    try {
      const taken = await take();
      if (taken) return { claimed: true, reservedPence: taken.reservedPence };
    } catch (error) {
      if (error instanceof SpendRefused) return { claimed: false, refused: error.refusal };
      throw error;
    }
    const record = await existing();
    if (record) return { claimed: false, record };
    if (attempt >= 3) throw new Error('idempotency claim: record vanished repeatedly');
  }
}

/** How long a same-key request waits for a call in progress elsewhere, and when an unfinished call is taken as crashed. */
export interface IdempotencyTiming {
  /** A concurrent request waits this long for the first one before answering IDEMPOTENCY_KEY_IN_USE (default 30 s). */
  waitMs?: number;
  /** An in-progress record older than this is from a crashed process: OUTCOME_UNKNOWN (default 2 min). */
  staleMs?: number;
}
