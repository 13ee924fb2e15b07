/**
 * GET /statements.csv?from=YYYY-MM-DD&to=YYYY-MM-DD[&reference=…][&caller=…]: the charge statement as CSV
 * for spreadsheets, with the same credentials and visibility as `chargeStatement`. Streamed page
 * by page from the journal (RFC 4180: a header row, CRLF, quoted fields where needed), and cells
 * that a spreadsheet would run as a formula (starting with =, +, -, @, tab or CR, or with one of
 * =, +, -, @ after leading spaces) are prefixed with an apostrophe, as OWASP advises for CSV injection.
 */
import type { Plugin } from 'graphql-yoga';
import type { Services } from '../graphql/context';
import type { JournalRecord } from '../storage/idempotency/store';
import { statementPages, statementRangeProblem, statementRetentionWarning } from '../services/statements';
import { authenticatedCaller, methodNotAllowed, problemResponse } from './route-problems';
import { useReadOnlyRoute } from '../observability/read-only-route';

export const STATEMENTS_CSV_PATH = '/statements.csv';

/** Set when the statement reaches back before the days the journal keeps: `JOURNAL_RETENTION; kept-from=YYYY-MM-DD; <message>`. */
export const STATEMENT_WARNING_HEADER = 'statement-warning';

const COLUMNS = [
  'day',
  'recorded_at',
  'status',
  'operation',
  'idempotency_key',
  'api_client',
  'fas',
  'title_number',
  'reference',
  'product',
  'fee',
  'transaction_number',
  'caller',
  'caller_name',
  // Last, so that readers of the columns before it find them where they were.
  'caller_id',
] as const;

const problem = (status: number, code: string, message: string, headers: Record<string, string> = {}) =>
  problemResponse({ status, code, message, headers });

/** Spreadsheets skip leading blanks before reading a formula: " =1+1" runs as one too. */
const FORMULA_START = /^[\t\r]|^\s*[=+\-@]/;

/** One CSV cell: defused if a spreadsheet would take it for a formula, quoted if it must be. */
export function csvCell(value: string | null | undefined): string {
  let text = value ?? '';
  if (FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const csvLine = (cells: (string | null | undefined)[]) => `${cells.map(csvCell).join(',')}\r\n`;

const rowOf = (r: JournalRecord) =>
  csvLine([
    r.day,
    new Date(r.recordedAt).toISOString(),
    r.status,
    r.operation,
    r.idempotencyKey,
    r.apiClient,
    r.fas,
    r.titleNumber,
    r.reference,
    // A pending or unknown record names the product it reserved: one record per product.
    r.charge?.productType ?? r.product,
    r.charge?.fee,
    r.charge?.transactionNumber,
    r.caller,
    r.callerName,
    r.callerId,
  ]);

/** A GET or HEAD of the statement (useReadOnlyRoute refuses other methods). */
/** What the CSV route uses of the services. */
type StatementServices = Pick<Services, 'callers' | 'spend' | 'idempotency' | 'journalRetentionDays'>;

async function handleStatementsCsv(services: StatementServices, request: Request): Promise<Response> {
  const caller = await authenticatedCaller(services, request, 'charges:read');
  if ('refusal' in caller) return problemResponse(caller.refusal);
  const params = new URL(request.url).searchParams;
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const range = statementRangeProblem(from, to);
  if (range) return problem(400, 'BAD_USER_INPUT', range.message);
  const reference = params.get('reference') ?? undefined;
  const view = services.spend.statementView(caller.caller, params.get('caller'));
  if ('refused' in view) return problem(403, 'FORBIDDEN', view.refused);
  const retention = statementRetentionWarning(from, services.journalRetentionDays);
  const headers = {
    'content-type': 'text/csv; charset=utf-8; header=present',
    'content-disposition': `attachment; filename="statement-${from}-to-${to}.csv"`,
    'cache-control': 'private, no-store',
    // A CSV has no place for a caveat that every reader keeps: a header, as GraphQL's extensions.warnings.
    ...(retention ? { [STATEMENT_WARNING_HEADER]: `${retention.code}; kept-from=${retention.keptFrom}; ${retention.message}` } : {}),
  };
  if (request.method === 'HEAD') return new Response(null, { status: 200, headers });
  const pages = statementPages(services.idempotency, view, from, to, reference);
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(csvLine([...COLUMNS])));
    },
    // Pulled as the caller reads: one page of the journal at a time, never the whole statement.
    async pull(controller) {
      const next = await pages.next();
      if (next.done) controller.close();
      else controller.enqueue(encoder.encode(next.value.map(rowOf).join('')));
    },
    async cancel() {
      await pages.return(undefined);
    },
  });
  return new Response(body, { status: 200, headers });
}

export function useStatementsCsv(services: StatementServices): Plugin {
  return useReadOnlyRoute({
    path: STATEMENTS_CSV_PATH,
    answer: (request) => handleStatementsCsv(services, request),
    refuse: () => problemResponse(methodNotAllowed('Statements')),
  });
}
