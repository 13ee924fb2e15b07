/**
 * Whose records and journal entries are: a caller's principal id (`caller_id`), with the bare
 * subject the previous release wrote (`caller`) kept beside it, so that a rollback finds its rows
 * as it left them. Rows the previous release wrote have no id; whose they are is decided once, at
 * start (adoptLegacyCallers), and until then by `legacySubject`.
 */

/** Who makes a call, as the store keeps it. */
export interface CallerStamp {
  /** The principal's id (services/principal.ts): whose the record is. */
  id: string;
  /** A person's `sub` or a key's name: what the previous release wrote, and statements show. */
  subject: string;
  /** A person's name as the token gives it; null or absent for a key. */
  name?: string | null | undefined;
  /** Whether rows the previous release wrote with this subject on this API client are this caller's. */
  ownsLegacyRows: boolean;
}

/** Whose calls a question is about. */
export type CallerFilter =
  /**
   * One principal's: its own rows, the previous release's rows with its subject when they are its
   * (`legacySubject`), and rows from before callers were kept (every caller of their client's).
   */
  | { id: string; subject: string; legacySubject?: string | undefined }
  /** Every caller with this subject, as the previous release asked (a statement asked by a bare name). */
  | { subject: string; id?: undefined };

/** The bare name the previous release wrote for this caller's rows, when those rows are this caller's. */
const legacySubjectOf = (stamp: CallerStamp): string | undefined => (stamp.ownsLegacyRows ? stamp.subject : undefined);

/** The filter of one caller's own rows: for what they may see and replay, the previous release's rows only when they are theirs. */
export const ownRows = (stamp: CallerStamp): CallerFilter => {
  const legacySubject = legacySubjectOf(stamp);
  return { id: stamp.id, subject: stamp.subject, ...(legacySubject === undefined ? {} : { legacySubject }) };
};

/**
 * The values a claim writes and matches its caller by, in both backends' order: the bare subject
 * (the previous release's column), the principal's id, and the bare name whose rows without an id
 * are this caller's to take again (null when none are).
 */
export const claimerValues = (stamp: CallerStamp | undefined): [string | null, string | null, string | null] => [
  stamp?.subject ?? null,
  stamp?.id ?? null,
  (stamp && legacySubjectOf(stamp)) ?? null,
];

/**
 * The filter a caller's own spending limit counts: the previous release's rows with its subject
 * always (a limit errs on the side of counting too much, never too little).
 */
export const spendingRows = (stamp: CallerStamp): CallerFilter => ({ id: stamp.id, subject: stamp.subject, legacySubject: stamp.subject });

/** The SQL condition of a caller filter, in either dialect; `param` writes a value's placeholder. */
export function callerCondition(filter: CallerFilter, param: (value: string | null) => string): string {
  if (filter.id === undefined) return `(caller = ${param(filter.subject)} OR caller IS NULL)`;
  return `(caller_id = ${param(filter.id)} OR (caller_id IS NULL AND (caller IS NULL OR caller = ${param(filter.legacySubject ?? null)})))`;
}

/** One index range of a statement: its condition, written with `param`, and the index it reads. */
export interface CallerPart {
  where: (param: (value: string) => string) => string;
  index: 'charge_journal_principal' | 'charge_journal_caller';
}

/**
 * The parts one caller's statement is read in, each one range of an index in the journal's order.
 * A principal's rows carry its subject too, so its part is an equality on the whole
 * (scope, caller_id, caller) prefix of charge_journal_principal.
 */
export function callerParts(filter: CallerFilter): CallerPart[] {
  if (filter.id === undefined) {
    const { subject } = filter;
    return [
      { where: (param) => `caller = ${param(subject)}`, index: 'charge_journal_caller' },
      { where: () => 'caller IS NULL', index: 'charge_journal_caller' },
    ];
  }
  const { id, subject, legacySubject } = filter;
  return [
    { where: (param) => `caller_id = ${param(id)} AND caller = ${param(subject)}`, index: 'charge_journal_principal' },
    ...(legacySubject === undefined
      ? []
      : [
          {
            where: (param: (value: string) => string) => `caller_id IS NULL AND caller = ${param(legacySubject)}`,
            index: 'charge_journal_principal' as const,
          },
        ]),
    { where: () => 'caller_id IS NULL AND caller IS NULL', index: 'charge_journal_principal' },
  ];
}

/** Whether a stored record is this caller's to replay: by its principal, or, written by the previous release, by the rule that adopts its rows. */
export function isOwnRecord(record: { callerId: string | null; callerSubject: string | null }, stamp: CallerStamp): boolean {
  if (record.callerId !== null) return record.callerId === stamp.id;
  // Records from before callers were kept have none, and stay their API client's.
  if (record.callerSubject === null) return true;
  return stamp.ownsLegacyRows && record.callerSubject === stamp.subject;
}
