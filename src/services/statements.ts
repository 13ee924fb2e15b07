/**
 * Charge statements: the journal of a range of register days, for the clients a caller may see,
 * read page by page so that a year of a large firm's charges is never held in memory at once.
 * One reader for the GraphQL `chargeStatement` and the CSV download.
 */
import { londonDate } from '../register/contract/london-day';
import type { IdempotencyStore, JournalRecord, StatementPosition } from '../storage/idempotency/store';
import type { StatementView } from './spend';
import { STATEMENT_MAX_DAYS } from './settings';

const DAY_MS = 86_400_000;

/**
 * The first register day the journal still holds whole: entries recorded before `now` less the
 * retention are purged, so the day of that moment may be partly gone, and the next is whole.
 */
export function journalKeptFrom(retentionDays: number, now: number = Date.now()): string {
  const cutDay = londonDate(new Date(now - retentionDays * DAY_MS));
  return new Date(Date.parse(`${cutDay}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
}

/** What a statement's answer says when it starts before the journal's kept days: some of its records may be gone. */
export interface StatementWarning {
  code: 'JOURNAL_RETENTION';
  message: string;
  /** The first register day the journal holds whole. */
  keptFrom: string;
}

export function statementRetentionWarning(from: string, retentionDays: number, now: number = Date.now()): StatementWarning | undefined {
  const keptFrom = journalKeptFrom(retentionDays, now);
  if (from >= keptFrom) return undefined;
  return {
    code: 'JOURNAL_RETENTION',
    message: `The charge journal is kept ${retentionDays} days: it holds register days from ${keptFrom} on, so this statement lacks any records of the days before (${from} to the day before ${keptFrom}). The register's invoices have them.`,
    keptFrom,
  };
}

const PAGE = 500;
/**
 * YYYY-MM-DD and a day of the calendar: only such a text comes back from its own date's ISO form
 * (anything else parses to no date or to a text of another shape, and 02-30 to another day).
 */
function validDay(day: string): boolean {
  const date = new Date(`${day}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === day;
}
const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000) + 1;

/** What is wrong with a statement's range, in the caller's words; undefined when it is fine. */
export function statementRangeProblem(from: string, to: string): { field: 'from' | 'to'; message: string } | undefined {
  if (!validDay(from)) return { field: 'from', message: `from must be a calendar date, YYYY-MM-DD (got ${JSON.stringify(from)}).` };
  if (!validDay(to)) return { field: 'to', message: `to must be a calendar date, YYYY-MM-DD (got ${JSON.stringify(to)}).` };
  if (to < from)
    return { field: 'to', message: `to (${to}) is before from (${from}): a statement runs from a day to the same or a later day.` };
  const days = daysBetween(from, to);
  if (days > STATEMENT_MAX_DAYS) {
    return {
      field: 'to',
      message: `A statement covers at most ${STATEMENT_MAX_DAYS} register days (got ${days}, ${from} to ${to}): ask for a shorter range.`,
    };
  }
  return undefined;
}

/** The statement's records, oldest first, fetched a page at a time as the reader asks for them. */
export async function* statementRecords(
  store: IdempotencyStore,
  view: StatementView,
  from: string,
  to: string,
  reference?: string,
): AsyncGenerator<JournalRecord> {
  for await (const page of statementPages(store, view, from, to, reference)) yield* page;
}

/**
 * The same, a page at a time: a reader that writes whole pages (the CSV) takes one step per 500
 * records instead of one per record (an async generator's step costs a promise and a turn each).
 */
export async function* statementPages(
  store: IdempotencyStore,
  view: StatementView,
  from: string,
  to: string,
  reference?: string,
): AsyncGenerator<JournalRecord[]> {
  let after: StatementPosition | undefined;
  for (;;) {
    const page = await store.statementPage({ ...view, from, to, reference, after, limit: PAGE });
    if (page.records.length > 0) yield page.records;
    if (page.records.length < PAGE || !page.last) return;
    after = page.last;
  }
}

/** Records of a GraphQL statement page when the caller does not say `first`. */
export const DEFAULT_STATEMENT_PAGE = 500;
/** The most records one GraphQL statement page may hold (a CSV has no such bound: it is streamed). */
export const MAX_STATEMENT_PAGE = 1000;

/**
 * A page cursor: where the previous page ended, opaque to callers. Keyset paging on (day,
 * recorded_at, id) reads one index range per page, however deep the page, and a record written
 * while a caller pages lands on exactly one page.
 */
export function encodeStatementCursor(position: StatementPosition): string {
  return Buffer.from(`s1:${position.day}:${position.recordedAt}:${position.id}`).toString('base64url');
}

/** The position a cursor names; undefined for a cursor this service did not make. */
export function decodeStatementCursor(cursor: string): StatementPosition | undefined {
  const match = /^s1:(\d{4}-\d{2}-\d{2}):(\d{1,16}):(\d{1,16})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) return undefined;
  return { day: match[1]!, recordedAt: Number(match[2]), id: Number(match[3]) };
}
