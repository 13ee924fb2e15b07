/**
 * Spend control, pinned rule by rule (mutation testing, group `spend`): whose limit applies, who
 * sees whose charges, the quote's boundary, the statement's range and paging, and the CSV's
 * refusals and headers over HTTP.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Charge } from '../../src/register/contract/wire';
import { SpendControl } from '../../src/services/spend';
import { DEFAULT_FEES_PENCE, STATEMENT_MAX_DAYS } from '../../src/services/settings';
import { keyScopes } from '../../src/services/scopes';
import { decodeStatementCursor, encodeStatementCursor, statementRangeProblem, statementRecords } from '../../src/services/statements';
import { SqliteIdempotencyStore } from '../../src/storage/idempotency/sqlite-store';
import { journalRecordOfRow, type JournalRow } from '../../src/storage/idempotency/rows';
import { statementPageOf } from '../../src/storage/idempotency/statement-pages';
import type { IdempotencyStore, JournalRecord, StatementPageQuery, StatementPosition } from '../../src/storage/idempotency/store';
import { DEV_API_KEYS, sha256Hex } from '../../src/services/callers';
import { londonDate } from '../../src/register/contract/london-day';
import { BuyTitleMutation } from '../support/documents';
import { startService } from '../support/harness';

const key = (clientId: string, organisation: string, name: string, accounts = false) => ({
  id: `key:${name}`,
  subject: name,
  ownsLegacyRows: true,
  clientId,
  organisation,
  scopes: keyScopes(undefined, accounts),
});
const A = key('client-a', 'ORG-A', 'key-a', true);
const A2 = key('client-a2', 'ORG-A', 'key-a2');
const B = key('client-b', 'client-b', 'key-b');
const STRANGER = key('stranger', 'ORG-Z', 'stranger');
const own = (name: string) => ({ id: `key:${name}`, subject: name, legacySubject: name });

function control(settings: { clientLimitPence?: number; organisationLimitPence?: number } = {}) {
  return new SpendControl(
    { feesPence: DEFAULT_FEES_PENCE, ...settings },
    [
      { clientId: 'client-a', organisation: 'ORG-A' },
      { clientId: 'client-a2', organisation: 'ORG-A' },
      { clientId: 'client-a2', organisation: 'ORG-A' }, // listed twice: one scope
      { clientId: 'client-b' },
    ],
    { 'ORG-A': { dailySpendLimit: 1000, fasAccounts: ['0877'] } },
    { 'client-a': { dailySpendLimit: 500 } },
  );
}

describe('SpendControl', () => {
  test("a client's own limit (clients in the tenants file) overrides the setting; the organisation's likewise; a key's limit is its own", () => {
    const spend = control({ clientLimitPence: 300, organisationLimitPence: 5000 });
    expect(spend.clientLimitPence(A)).toBe(500);
    expect(spend.clientLimitPence(A2)).toBe(300);
    expect(spend.organisationLimitPence(A)).toBe(1000);
    expect(spend.organisationLimitPence(B)).toBe(5000);
    expect(control().clientLimitPence(A2)).toBeUndefined();
    expect(spend.clientLimitPence(STRANGER)).toBe(300);
    expect(control().organisationLimitPence(B)).toBeUndefined();
    expect(spend.feesPence).toBe(DEFAULT_FEES_PENCE);
  });

  test('scopes: the organisation has its clients once; an accounts key sees them all, another key itself', () => {
    const spend = control();
    expect(spend.organisationClients(A)).toEqual(['client-a', 'client-a2']);
    expect(spend.organisationClients(B)).toEqual(['client-b']);
    expect(spend.organisationClients(STRANGER)).toEqual(['stranger']);
    expect(spend.statementView(A)).toEqual({ clients: ['client-a', 'client-a2'] });
    // An accounts key asks by principal, or by a bare name as before (every caller with that subject).
    expect(spend.statementView(A, 'someone')).toEqual({ clients: ['client-a', 'client-a2'], caller: { subject: 'someone' } });
    expect(spend.statementView(A, 'person:idp:ann')).toEqual({
      clients: ['client-a', 'client-a2'],
      caller: { id: 'person:idp:ann', subject: 'ann', legacySubject: 'ann' },
    });
    expect(spend.statementView(A2)).toEqual({ clients: ['client-a2'], caller: own('key-a2') });
    expect(spend.statementView(A2, 'key-a2')).toEqual({ clients: ['client-a2'], caller: own('key-a2') });
    expect(spend.statementView(A2, 'key:key-a2')).toEqual({ clients: ['client-a2'], caller: own('key-a2') });
    expect(spend.statementView(A2, 'key-a')).toHaveProperty('refused', expect.stringContaining('charges:organisation'));
    expect(spend.statementView(A2, 'person:idp:key-a2')).toHaveProperty('refused', expect.stringContaining('charges:organisation'));
    expect(spend.statementView(STRANGER)).toEqual({ clients: ['stranger'], caller: own('stranger') });
  });

  test('charging accounts: a listed organisation allows only its own; an unlisted one leaves it to the register', () => {
    const spend = control();
    expect(spend.fasAllowed(A, '0877')).toBe(true);
    expect(spend.fasAllowed(A, '1234')).toBe(false);
    expect(spend.fasAllowed(B, '5555')).toBe(true);
  });

  test('the check a claim makes names exactly the limits and the maxFee there are', () => {
    expect(control({ clientLimitPence: 300 }).checkFor(A2, ['TITLE_DATA_AND_PLANS'], 250)).toStrictEqual({
      products: ['TITLE_DATA_AND_PLANS'],
      feesPence: DEFAULT_FEES_PENCE,
      organisation: 'ORG-A',
      organisationClients: ['client-a', 'client-a2'],
      clientLimitPence: 300,
      organisationLimitPence: 1000,
      maxFeePence: 250,
    });
    expect(control().checkFor({ ...B, spendLimitPence: 700 }, ['PENDING_APPLICATIONS'], undefined)).toHaveProperty('callerLimitPence', 700);
    expect(control().checkFor(B, ['PENDING_APPLICATIONS'], undefined)).toStrictEqual({
      products: ['PENDING_APPLICATIONS'],
      feesPence: DEFAULT_FEES_PENCE,
      organisation: 'client-b',
      organisationClients: ['client-b'],
    });
  });

  describe('quotes against a real store', () => {
    const MARCH_10 = { day: '2026-03-10', certainty: 'EXACT', latestDay: '2026-03-10', at: new Date('2026-03-10T12:00:00Z') } as const;
    let dir: string;
    let store: SqliteIdempotencyStore;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'titlegraph-spend-'));
      store = new SqliteIdempotencyStore(dir);
    });
    afterAll(async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    });

    test('a quote of exactly what remains is within the limits; a penny more is not', async () => {
      const exact = await new SpendControl({ feesPence: DEFAULT_FEES_PENCE, clientLimitPence: 300 }, [{ clientId: 'client-b' }]).quote(
        store,
        B,
        MARCH_10,
        '5555',
        'MID1234',
        ['TITLE_DATA_AND_PLANS', 'TITLE_DATA_AND_PLANS'],
      );
      expect(exact).toEqual({
        lines: [{ product: 'TITLE_DATA_AND_PLANS', listFee: '3.00', alreadyChargedToday: false, expectedFee: '3.00' }],
        expectedTotal: '3.00',
        withinLimits: true,
        day: '2026-03-10',
        dayCertainty: 'EXACT',
      });
      const short = await new SpendControl({ feesPence: DEFAULT_FEES_PENCE, organisationLimitPence: 299 }, [
        { clientId: 'client-b' },
      ]).quote(store, B, MARCH_10, '5555', 'MID1234', ['TITLE_DATA_AND_PLANS']);
      expect(short.withinLimits).toBe(false);
    });
  });
});

describe('statement ranges', () => {
  test.each([
    ['2026-13-01', '2026-12-31', 'from', 'from must be a calendar date, YYYY-MM-DD (got "2026-13-01").'],
    ['x2026-01-01', '2026-01-02', 'from', 'from must be a calendar date, YYYY-MM-DD (got "x2026-01-01").'],
    ['2026-01-01', '2026-01-02x', 'to', 'to must be a calendar date, YYYY-MM-DD (got "2026-01-02x").'],
    ['2026-1-5', '2026-01-06', 'from', 'from must be a calendar date, YYYY-MM-DD (got "2026-1-5").'],
    ['+002026-01-05', '2026-01-06', 'from', 'from must be a calendar date, YYYY-MM-DD (got "+002026-01-05").'],
    ['2026-02-27', '2026-02-30', 'to', 'to must be a calendar date, YYYY-MM-DD (got "2026-02-30").'],
    [
      '2026-01-02',
      '2026-01-01',
      'to',
      'to (2026-01-01) is before from (2026-01-02): a statement runs from a day to the same or a later day.',
    ],
    [
      '2025-01-01',
      '2026-01-02',
      'to',
      `A statement covers at most ${STATEMENT_MAX_DAYS} register days (got 367, 2025-01-01 to 2026-01-02): ask for a shorter range.`,
    ],
  ])('%s to %s is refused on %s', (from, to, field, message) => {
    expect(statementRangeProblem(from, to)).toEqual({ field, message });
  });

  test('one day, and exactly 366 days, are fine', () => {
    expect(statementRangeProblem('2026-01-01', '2026-01-01')).toBeUndefined();
    expect(statementRangeProblem('2024-01-01', '2024-12-31')).toBeUndefined();
  });
});

describe('statement paging', () => {
  const record = (n: number): JournalRecord => ({
    status: 'CHARGED',
    operation: 'purchaseTitleDetails',
    idempotencyKey: `k${n}`,
    fas: '0877',
    titleNumber: 'MID1234',
    charge: null,
    day: '2026-03-10',
    recordedAt: n,
    apiClient: 'client-a',
    reference: null,
    caller: 'dev-key-a',
    callerId: 'key:dev-key-a',
    callerName: null,
  });
  /** A store whose statement pages are given: records what each read asked for. */
  function pagedStore(pages: { records: JournalRecord[]; last?: StatementPosition }[]) {
    const asked: (StatementPosition | undefined)[] = [];
    const store = {
      async statementPage({ after }: StatementPageQuery) {
        asked.push(after);
        return pages.shift() ?? { records: [] };
      },
    } as unknown as IdempotencyStore;
    return { store, asked };
  }

  test('a full page is followed by the next one, from where it ended; a short page is the last', async () => {
    const full = Array.from({ length: 500 }, (_, i) => record(i));
    const end = { day: '2026-03-10', recordedAt: 499, id: 499 };
    const { store, asked } = pagedStore([
      { records: full, last: end },
      { records: [record(500)], last: { ...end, id: 500 } },
    ]);
    const all: JournalRecord[] = [];
    for await (const r of statementRecords(store, { clients: ['client-a'] }, '2026-03-10', '2026-03-10')) all.push(r);
    expect(all).toHaveLength(501);
    expect(asked).toEqual([undefined, end]);
  });

  test('a cursor names its position whole, with a millisecond time and a journal id of any length', () => {
    const position = { day: '2026-03-10', recordedAt: 1_795_743_405_827, id: 1_234_567 };
    expect(decodeStatementCursor(encodeStatementCursor(position))).toEqual(position);
    expect(decodeStatementCursor(encodeStatementCursor({ ...position, id: 12 }))).toEqual({ ...position, id: 12 });
    const made = (text: string) => Buffer.from(text).toString('base64url');
    expect(decodeStatementCursor(made('s1:2026-03-10:1795743405827:12 '))).toBeUndefined();
    expect(decodeStatementCursor(made('s0:2026-03-10:1795743405827:12'))).toBeUndefined();
    expect(decodeStatementCursor(made('s1:2026-03-10:12345678901234567:12'))).toBeUndefined();
  });

  test('a full page without a position ends the statement', async () => {
    const { store, asked } = pagedStore([{ records: Array.from({ length: 500 }, (_, i) => record(i)) }]);
    const all: JournalRecord[] = [];
    for await (const r of statementRecords(store, { clients: ['client-a'] }, '2026-03-10', '2026-03-10')) all.push(r);
    expect(all).toHaveLength(500);
    expect(asked).toEqual([undefined]);
  });

  test("a page's position is its last row's; an unknown outcome has no charge", () => {
    const row = (id: number, charge: Charge | null): JournalRow & { id: number } => ({
      id,
      scope: 'client-a',
      reference: 'matter 7',
      status: charge ? 'CHARGED' : 'OUTCOME_UNKNOWN',
      operation: 'purchaseTitleDetails',
      key: `k${id}`,
      fas: '0877',
      title_number: 'MID1234',
      charge: charge ? JSON.stringify(charge) : null,
      day: '2026-03-10',
      recorded_at: String(1000 + id),
      caller: id === 3 ? null : 'dev-key-a',
      caller_id: id === 3 ? null : 'key:dev-key-a',
      caller_name: null,
    });
    const charge = { productType: 'TITLE_DATA_AND_PLANS', fee: '3.00', transactionNumber: 'T1' } as unknown as Charge;
    const page = statementPageOf([row(1, charge), row(2, null)]);
    expect(page.last).toEqual({ day: '2026-03-10', recordedAt: 1002, id: 2 });
    expect(page.records.map((r) => [r.status, r.charge])).toEqual([
      ['CHARGED', charge],
      ['OUTCOME_UNKNOWN', null],
    ]);
    expect(journalRecordOfRow(row(3, null)).recordedAt).toBe(1003);
    // A row from before callers were kept is its API client's.
    expect(journalRecordOfRow(row(3, null)).caller).toBe('client-a');
    expect(journalRecordOfRow(row(1, null)).caller).toBe('dev-key-a');
    expect(statementPageOf([])).toEqual({ records: [] });
  });
});

describe('GET /statements.csv over HTTP', () => {
  let svc: Awaited<ReturnType<typeof startService>>;
  beforeAll(async () => {
    svc = await startService({
      services: { apiKeys: [...DEV_API_KEYS, { name: 'gateway', apiKeySha256: sha256Hex('router-key-csv'), router: true }] },
    });
  });
  afterAll(() => svc?.stop());
  const csv = (query: string, init: RequestInit = {}) =>
    svc.yoga.fetch(`http://titlegraph.test/statements.csv${query}`, {
      ...init,
      headers: { authorization: 'Bearer dev-key-a', ...init.headers },
    });

  test('GET and HEAD only: another method is 405, saying which are allowed', async () => {
    const response = await csv('?from=2026-03-10&to=2026-03-10', { method: 'POST' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(await response.json()).toEqual({ error: { code: 'METHOD_NOT_ALLOWED', message: 'Statements are GET only.' } });
  });

  test('HEAD answers the headers of the file without a body', async () => {
    const response = await csv('?from=2026-03-10&to=2026-03-11', { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="statement-2026-03-10-to-2026-03-11.csv"');
    expect(response.headers.get('cache-control')).toBe('private, no-store');
    expect(await response.text()).toBe('');
  });

  test('every journal row, an unknown outcome with empty charge cells, past the rows sent at once', async () => {
    const day = londonDate(new Date());
    const buy = (titleNumber: string, key: string) => ({ fas: '0877', input: { titleNumber, idempotencyKey: key } });
    for (let i = 1; i <= 205; i++) expect((await svc.gql(BuyTitleMutation, buy(`BLK${i}`, `csv-${i}`))).errors).toBeUndefined();
    svc.emulator.faults.inject('titleDetails', { kind: 'reset', phase: 'after' }, 1);
    await svc.gql(BuyTitleMutation, buy('BLK999', 'csv-lost'));
    const text = await (await csv(`?from=${day}&to=${day}`)).text();
    const lines = text.trimEnd().split('\r\n');
    expect(lines).toHaveLength(1 + 206);
    // Each row on a line of its own, nothing between them: every line after the header starts with its day.
    expect(lines.slice(1).filter((line) => !line.startsWith(`${day},`))).toEqual([]);
    expect(lines.slice(1, 206).map((l) => l.split(',')[4])).toEqual(Array.from({ length: 205 }, (_, i) => `csv-${i + 1}`));
    const lost = lines.at(-1)!.split(',');
    // The product it asked for (a record per product); no fee, no transaction number.
    expect([lost[2], lost[4], lost[9], lost[10], lost[11]]).toEqual(['OUTCOME_UNKNOWN', 'csv-lost', 'TITLE_DATA_AND_PLANS', '', '']);
  }, 60_000);

  test('a reader that stops after the header row ends its file there; the next reader gets the whole statement', async () => {
    const day = londonDate(new Date());
    expect(
      (await svc.gql(BuyTitleMutation, { fas: '0877', input: { titleNumber: 'BLK1000', idempotencyKey: 'csv-reader' } })).errors,
    ).toBeUndefined();
    const reader = (await csv(`?from=${day}&to=${day}`)).body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe(
      'day,recorded_at,status,operation,idempotency_key,api_client,fas,title_number,reference,product,fee,transaction_number,caller,caller_name,caller_id\r\n',
    );
    await reader.cancel();
    const whole = (await (await csv(`?from=${day}&to=${day}`)).text()).trimEnd().split('\r\n');
    expect(whole.length).toBeGreaterThan(1);
    expect(whole.slice(1).filter((line) => !line.startsWith(`${day},`))).toEqual([]);
  });

  test('a wrong key, the router key and a bad range are refused with their codes', async () => {
    const wrong = await csv('?from=2026-03-10&to=2026-03-10', { headers: { authorization: 'Bearer nope' } });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toBe('Bearer');
    expect(((await wrong.json()) as { error: { code: string } }).error.code).toBe('UNAUTHENTICATED');
    const router = await csv('?from=2026-03-10&to=2026-03-10', { headers: { authorization: 'Bearer router-key-csv' } });
    expect(router.status).toBe(403);
    expect(((await router.json()) as { error: { code: string } }).error.code).toBe('ROUTER_KEY_NOT_A_CLIENT');
    // Month 13 is no date at all: a 400 naming it, not a server error.
    const month13 = await csv('?from=2026-13-01&to=2026-12-31');
    expect(month13.status).toBe(400);
    expect(await month13.json()).toEqual({
      error: { code: 'BAD_USER_INPUT', message: 'from must be a calendar date, YYYY-MM-DD (got "2026-13-01").' },
    });
    const range = await csv('');
    expect(range.status).toBe(400);
    expect(await range.json()).toEqual({
      error: { code: 'BAD_USER_INPUT', message: 'from must be a calendar date, YYYY-MM-DD (got "").' },
    });
    const noEnd = await csv('?from=2026-03-10');
    expect(noEnd.status).toBe(400);
    expect(await noEnd.json()).toEqual({
      error: { code: 'BAD_USER_INPUT', message: 'to must be a calendar date, YYYY-MM-DD (got "").' },
    });
  });
});
