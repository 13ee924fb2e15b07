/** Rows as both SQL backends read and write them: the column lists, the row mappers, and a journal entry's values. */
import { penceOf } from '../../register/contract/money';
import type { Charge } from '../../register/contract/wire';
import type { ChargeIntent, IdempotencyRecord, IdempotencyState, JournalRecord, JournalStatus, ReportedCharges } from './store';

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
