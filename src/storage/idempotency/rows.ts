/** Rows as both SQL backends read and write them: the column lists, the row mappers, and a journal entry's values. */
import { type ChargeableProduct, penceOf } from '../../register/contract/money';
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
  caller_id: string | null;
}

/** The columns of an IdempotencyRow. */
export const RECORD_COLUMNS = 'operation, input_hash, state, outcome, created_at, updated_at, caller, caller_id';

export function recordOfRow(row: IdempotencyRow): IdempotencyRecord {
  return {
    operation: row.operation,
    inputHash: row.input_hash,
    state: row.state,
    ...(row.outcome === null ? {} : { outcome: row.outcome }),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    callerId: row.caller_id,
    callerSubject: row.caller,
  };
}

/** A journal row as both SQL backends read it. */
export interface JournalRow {
  scope: string;
  reference: string | null;
  status: JournalStatus;
  operation: string;
  key: string;
  fas: string;
  title_number: string;
  charge: string | null;
  day: string;
  recorded_at: string | number;
  caller: string | null;
  caller_id: string | null;
  caller_name: string | null;
  /** Absent from rows a caller builds without it: read as null. */
  product?: string | null;
}

/** `pendingFrom`: a PENDING entry recorded before it is a dead process's call, read as OUTCOME_UNKNOWN (PENDING_AT_MOST_MS). */
export function journalRecordOfRow(row: JournalRow, pendingFrom = 0): JournalRecord {
  return {
    status: row.status === 'PENDING' && Number(row.recorded_at) < pendingFrom ? 'OUTCOME_UNKNOWN' : row.status,
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
    callerId: row.caller_id,
    callerName: row.caller_name,
    product: row.product ?? null,
  };
}

export const JOURNAL_COLUMNS =
  'scope, reference, status, operation, key, fas, title_number, charge, day, recorded_at, caller, caller_id, caller_name, product';

/** The columns both SQL backends write a journal entry with, in the order of its values (pendingEntries, settlementOf). */
export const ENTRY_COLUMNS =
  'scope, key, status, operation, fas, title_number, charge, day, recorded_at, reference, product, amount_pence, caller, caller_name, caller_id';
export type EntryValues = (string | number | null)[];

/**
 * The PENDING entries of a chargeable claim, one per product the call may charge (one with no
 * product when it names none), each reserving that product's expected fee until the register
 * answers. Each is the record its product's charge becomes, in place: a statement paged while the
 * call settles meets every record once, whichever side of the settlement it reads it on.
 */
export function pendingEntries(
  scope: string,
  key: string,
  intent: ChargeIntent,
  at: number,
  alreadyCharged: ReadonlySet<string>,
): EntryValues[] {
  const { operation, fas, titleNumber, day, reference, caller, spend } = intent;
  const products: (ChargeableProduct | null)[] = spend && spend.products.length > 0 ? [...new Set(spend.products)] : [null];
  return products.map((product) => [
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
    product,
    product === null || alreadyCharged.has(product) ? 0 : spend!.feesPence[product],
    caller?.subject ?? null,
    caller?.name ?? null,
    caller?.id ?? null,
  ]);
}

/** A key's PENDING (or stale OUTCOME_UNKNOWN) entry as both backends read it before settling it. */
export interface OpenEntry {
  id: string | number;
  product: string | null;
  day: string;
  recorded_at: string | number;
  operation: string;
  fas: string;
  title_number: string;
  reference: string | null;
  caller: string | null;
  caller_name: string | null;
  caller_id: string | null;
}

/** The columns of an OpenEntry. */
export const OPEN_ENTRY_COLUMNS = 'id, product, day, recorded_at, operation, fas, title_number, reference, caller, caller_name, caller_id';

/** The pence of a reported charge's fee (0 for a fee the register wrote oddly: the charge itself is kept). */
const chargePence = (charge: Charge): number => penceOf(charge.fee) ?? 0;

/** What settling a key's open entries with a known outcome writes: entries charged in place, entries added, entries removed. */
export interface Settlement {
  /** Open entries that become CHARGED where they are: same id, same recorded_at, so the same place in a statement. */
  charged: { id: number; values: ChargedValues }[];
  /** Charges no open entry was kept for (a product the call did not name): new entries beside the call's. */
  added: EntryValues[];
  /** Open entries of products the register did not charge (already bought today, or nothing charged). */
  removed: number[];
}

/** What a CHARGED entry's row is set to, in the order of CHARGED_SET_COLUMNS. */
export type ChargedValues = [charge: string, day: string, fas: string, product: string | null, amountPence: number];
export const CHARGED_SET_COLUMNS = ['charge', 'day', 'fas', 'product', 'amount_pence'] as const;

/**
 * How a key's open entries settle with the charges the register reported: each charge takes the
 * entry of its product, then any entry left (one written before entries were kept per product,
 * with none); entries no charge takes are removed. Settling never moves an entry's id or
 * recorded_at: a statement's cursor (day, recorded_at, id) finds it where it was.
 */
export function settlementOf(open: readonly OpenEntry[], reported: ReportedCharges | undefined, scope: string, key: string): Settlement {
  const free = [...open].sort((a, b) => Number(a.id) - Number(b.id));
  const take = (match: (entry: OpenEntry) => boolean) => {
    const index = free.findIndex(match);
    return index < 0 ? undefined : free.splice(index, 1)[0];
  };
  const charges = reported?.charges ?? [];
  const entryOf = new Map<Charge, OpenEntry>();
  for (const charge of charges) {
    const entry = take((e) => e.product === charge.productType);
    if (entry) entryOf.set(charge, entry);
  }
  for (const charge of charges) {
    if (entryOf.has(charge)) continue;
    const entry = take((e) => e.product === null) ?? take(() => true);
    if (entry) entryOf.set(charge, entry);
  }
  const first = open[0]!;
  const valuesOf = (charge: Charge, entry: OpenEntry): ChargedValues => [
    JSON.stringify(charge),
    reported!.day,
    charge.fas || entry.fas,
    charge.productType ?? null,
    chargePence(charge),
  ];
  return {
    charged: [...entryOf].map(([charge, entry]) => ({ id: Number(entry.id), values: valuesOf(charge, entry) })),
    added: charges
      .filter((charge) => !entryOf.has(charge))
      .map((charge) => {
        const [json, day, fas, product, pence] = valuesOf(charge, first);
        return [
          scope,
          key,
          'CHARGED',
          first.operation,
          fas,
          first.title_number,
          json,
          day,
          Number(first.recorded_at),
          first.reference,
          product,
          pence,
          first.caller,
          first.caller_name,
          first.caller_id,
        ];
      }),
    removed: free.map((entry) => Number(entry.id)),
  };
}
