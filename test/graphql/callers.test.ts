/**
 * Each tenants-file entry is a caller of its own: who the service takes it to be (`viewer`), whose
 * calls it sees (`chargeRecords`, `chargeStatement`), its own spending limit (reserved before
 * anything is sent), and its idempotency keys. Two keys on one register client share the client
 * and its caches, never each other's rights or limits. Judged on the emulator's ledger and call log.
 */
import { describe, expect, test } from 'vitest';
import { londonDate } from '../../src/register/contract/london-day';
import { DEV_API_KEYS, sha256Hex } from '../../src/services/callers';
import type { ApiKeyConfig } from '../../src/services/settings';
import { BuyTitleMutation, CallerRecordsQuery, CallerSpendingQuery, StatementPageQuery, ViewerQuery } from '../support/documents';
import { newKey, serviceForTest } from '../support/harness';

const today = () => londonDate(new Date());
const buy = (titleNumber: string, idempotencyKey = newKey('buy')) => ({ fas: '0877', input: { titleNumber, idempotencyKey } });

/** Two keys of one register client, the ordinary one listed first (as in the report that found them merged). */
const TWO_KEYS_ONE_CLIENT: ApiKeyConfig[] = [
  {
    name: 'clerk',
    apiKeySha256: sha256Hex('clerk-key'),
    clientId: 'client-a',
    clientSecret: 'secret-a',
    organisation: 'ORG-A',
    dailySpendLimit: 300,
  },
  {
    name: 'accounts-a',
    apiKeySha256: sha256Hex('accounts-key'),
    clientId: 'client-a',
    clientSecret: 'secret-a',
    organisation: 'ORG-A',
    accounts: true,
  },
  ...DEV_API_KEYS.filter((t) => t.name === 'dev-key-b'),
];

describe('viewer', () => {
  test('names the key, its register client, organisation and scopes; an accounts key also has charges:organisation', async () => {
    const svc = await serviceForTest();
    expect((await svc.gql(ViewerQuery, {})).data!.viewer).toEqual({
      kind: 'API_KEY',
      caller: 'dev-key-a',
      callerName: null,
      apiClient: 'client-a',
      organisation: 'ORG-A',
      scopes: ['titles:read', 'titles:buy', 'cases:write', 'charges:read', 'charges:organisation'],
    });
    expect((await svc.gql(ViewerQuery, {}, 'dev-key-a2')).data!.viewer).toMatchObject({
      caller: 'dev-key-a2',
      apiClient: 'client-a2',
      scopes: ['titles:read', 'titles:buy', 'cases:write', 'charges:read'],
    });
    expect(svc.emulator.calls.count()).toBe(0);
  });
});

describe('two keys on one register client', () => {
  test("each has its own limit, sees its own calls, and the accounts key sees both; neither's rights pass to the other", async () => {
    const svc = await serviceForTest({ services: { apiKeys: TWO_KEYS_ONE_CLIENT } });
    const first = await svc.gql(BuyTitleMutation, buy('BLK1'), 'clerk-key');
    expect(first.data!.purchaseTitleDetails.charges).toHaveLength(1);
    // The clerk's own 3.00 is spent: refused before anything is sent, naming the clerk's own limit.
    const refused = await svc.gql(BuyTitleMutation, buy('BLK2'), 'clerk-key');
    expect(refused.data!.purchaseTitleDetails.userErrors).toEqual([
      expect.objectContaining({ code: 'SPEND_LIMIT_REACHED', message: expect.stringContaining('your own daily spending limit of 3.00') }),
    ]);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(1);
    // The accounts key of the same client has no such limit: the clerk's is not the client's.
    expect((await svc.gql(BuyTitleMutation, buy('BLK3'), 'accounts-key')).data!.purchaseTitleDetails.charges).toHaveLength(1);
    expect(svc.emulator.ledger.charges).toHaveLength(2);

    const spending = async (key: string) => (await svc.gql(CallerSpendingQuery, {}, key)).data!.spending;
    expect(await spending('clerk-key')).toEqual({
      caller: { charged: '3.00', pending: '0.00', limit: '3.00', remaining: '0.00' },
      client: { charged: '6.00', pending: '0.00', limit: null, remaining: null },
    });
    expect((await spending('accounts-key')).caller).toEqual({ charged: '3.00', pending: '0.00', limit: null, remaining: null });

    const statement = async (key: string, caller?: string) =>
      svc.gql(StatementPageQuery, { from: today(), to: today(), ...(caller ? { caller } : {}) }, key);
    const titles = (result: Awaited<ReturnType<typeof statement>>) =>
      result.data!.chargeStatement.records.map((r) => [r.titleNumber, r.caller]);
    expect(titles(await statement('clerk-key'))).toEqual([['BLK1', 'clerk']]);
    expect((await statement('clerk-key')).data!.chargeStatement.total).toBe('3.00');
    expect(titles(await statement('accounts-key'))).toEqual([
      ['BLK1', 'clerk'],
      ['BLK3', 'accounts-a'],
    ]);
    expect(titles(await statement('accounts-key', 'clerk'))).toEqual([['BLK1', 'clerk']]);
    const forbidden = await statement('clerk-key', 'accounts-a');
    expect(forbidden.errors?.[0]).toMatchObject({
      extensions: { code: 'FORBIDDEN' },
      message: expect.stringContaining('charges:organisation'),
    });
    // The CSV draws the same lines: one's own rows, an accounts key's choice of caller, and a refusal.
    const csv = (key: string, caller?: string) =>
      svc.get(`/statements.csv?from=${today()}&to=${today()}${caller ? `&caller=${caller}` : ''}`, key);
    const csvTitles = async (response: Response) =>
      (await response.text())
        .trim()
        .split('\r\n')
        .slice(1)
        .map((row) => ['BLK1', 'BLK3'].find((title) => row.includes(`,${title},`)));
    expect(await csvTitles(await csv('clerk-key'))).toEqual(['BLK1']);
    expect(await csvTitles(await csv('accounts-key', 'clerk'))).toEqual(['BLK1']);
    const csvRefused = await csv('clerk-key', 'accounts-a');
    expect(csvRefused.status).toBe(403);
    expect(await csvRefused.json()).toEqual({
      error: {
        code: 'FORBIDDEN',
        message: 'You may see only your own calls (caller "key:clerk"); another caller\'s need the charges:organisation scope.',
      },
    });
    // The day's journal is each caller's own, with its name on every record.
    const records = await svc.gql(CallerRecordsQuery, { day: today() }, 'clerk-key');
    expect(records.data!.chargeRecords).toEqual([{ titleNumber: 'BLK1', caller: 'clerk', callerName: null, apiClient: 'client-a' }]);
  });

  test("a person's or key's own limit holds only that caller's unknown outcomes, not another caller's of the same client", async () => {
    const svc = await serviceForTest({ services: { apiKeys: TWO_KEYS_ONE_CLIENT } });
    svc.emulator.faults.inject('titleDetails', { kind: 'reset', phase: 'after' }, 1);
    const lost = await svc.gql(BuyTitleMutation, buy('BLK9'), 'accounts-key');
    expect(lost.data!.purchaseTitleDetails.userErrors.map((e) => e.code)).toEqual(['OUTCOME_UNKNOWN']);
    expect((await svc.gql(BuyTitleMutation, buy('BLK1'), 'clerk-key')).data!.purchaseTitleDetails.charges).toHaveLength(1);
    const [refused] = (await svc.gql(BuyTitleMutation, buy('BLK2'), 'clerk-key')).data!.purchaseTitleDetails.userErrors;
    expect(refused!.code).toBe('SPEND_LIMIT_REACHED');
    expect(refused!.message).toContain('your own daily spending limit of 3.00 has 0.00 left');
    expect(refused!.message).not.toMatch(/outcome is not known|OUTCOME_UNKNOWN/);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(2);
  });

  test("an idempotency key is its caller's: the other key of the client never gets its answer, and nothing is sent", async () => {
    const svc = await serviceForTest({ services: { apiKeys: TWO_KEYS_ONE_CLIENT } });
    const key = newKey('shared');
    expect((await svc.gql(BuyTitleMutation, buy('BLK1', key), 'accounts-key')).data!.purchaseTitleDetails.charges).toHaveLength(1);
    const other = await svc.gql(BuyTitleMutation, buy('BLK1', key), 'clerk-key');
    expect(other.data!.purchaseTitleDetails).toMatchObject({
      charges: [],
      userErrors: [
        {
          code: 'IDEMPOTENCY_KEY_REUSED',
          message: 'This idempotencyKey was already used by another caller of your API client; use a new key for a new request.',
          field: ['input', 'idempotencyKey'],
        },
      ],
    });
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(1);
    expect(await (await svc.get('/metrics')).text()).toContain(
      'titlegraph_idempotency_outcomes_total{operation="purchaseTitleDetails",outcome="key_reused"} 1',
    );
    // The owner still gets its stored answer, with its charge.
    expect((await svc.gql(BuyTitleMutation, buy('BLK1', key), 'accounts-key')).data!.purchaseTitleDetails.charges).toHaveLength(1);
  });
});

describe('chargeStatement pages', () => {
  test('every record exactly once across pages, a record written while paging included; totals cover the whole range', async () => {
    const svc = await serviceForTest();
    for (const title of ['BLK1', 'BLK2', 'BLK3', 'BLK4', 'BLK5']) await svc.gql(BuyTitleMutation, buy(title));
    const page = (after?: string | null) =>
      svc
        .gql(StatementPageQuery, { from: today(), to: today(), first: 2, ...(after ? { after } : {}) })
        .then((r) => r.data!.chargeStatement);
    const seen: string[] = [];
    let current = await page();
    seen.push(...current.records.map((r) => r.titleNumber));
    expect(current.total).toBe('15.00');
    // Written after the first page was read: it is newer than every record paged so far.
    await svc.gql(BuyTitleMutation, buy('BLK6'));
    while (current.nextCursor) {
      current = await page(current.nextCursor);
      seen.push(...current.records.map((r) => r.titleNumber));
      expect(current.records.length).toBeLessThanOrEqual(2);
    }
    expect(seen).toEqual(['BLK1', 'BLK2', 'BLK3', 'BLK4', 'BLK5', 'BLK6']);
    expect(current).toMatchObject({ nextCursor: null, total: '18.00', unknownCount: 0 });
  });

  test('a page size outside 1 to 1000 and a cursor this service did not make are refused, naming the argument', async () => {
    const svc = await serviceForTest();
    for (const title of ['BLK1', 'BLK2']) await svc.gql(BuyTitleMutation, buy(title));
    const given = (await svc.gql(StatementPageQuery, { from: today(), to: today(), first: 1 })).data!.chargeStatement.nextCursor!;
    // A cursor this service made, with something before or after it: not one it made.
    const text = Buffer.from(given, 'base64url').toString('utf8');
    const altered = (s: string) => Buffer.from(s, 'utf8').toString('base64url');
    for (const [variables, field] of [
      [{ first: 0 }, 'first'],
      [{ first: 1001 }, 'first'],
      [{ after: 'not-a-cursor' }, 'after'],
      [{ after: altered(`x${text}`) }, 'after'],
      [{ after: altered(`${text}:1`) }, 'after'],
    ] as const) {
      const result = await svc.gql(StatementPageQuery, { from: today(), to: today(), ...variables });
      expect(result.errors?.[0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' }, message: expect.stringContaining(field) });
    }
  });
});
