/**
 * Messages a person can act on, where they used to be blank or misleading: a browser opening
 * /graphql with GraphiQL off, a FAS of another organisation sent with a maxFee, the quota's
 * refusals and `registerUsage` while free reads are refused, and the allow-list's refusal of
 * query text. Run by the `core` and the `production` vitest projects.
 */
import { describe, expect, test } from 'vitest';
import { loadConfig } from '../../src/config';
import { endOfLondonDay } from '../../src/register/contract/london-day';
import { CreateCaseMutation, PurchaseTitleDetailsMutation, TitleQuery } from '../support/documents';
import { type Service, serviceForTest } from '../support/harness';
import { postRaw } from '../support/post-raw';

const PRODUCTION = { NODE_ENV: 'production', REGISTER: 'emulator' } as const;

describe('GraphiQL off', () => {
  test('a browser opening /graphql in production reads that GraphiQL is off and that GRAPHIQL=true turns it on', async () => {
    const svc = await serviceForTest({ app: { graphiql: loadConfig(PRODUCTION).graphiql } });
    const browser = await svc.yoga.fetch('http://titlegraph.test/graphql', {
      headers: { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' },
    });
    expect(browser.status).toBe(406);
    expect(browser.headers.get('content-type')).toBe('text/html; charset=utf-8');
    const page = await browser.text();
    expect(page).toContain('GraphiQL is off');
    expect(page).toContain('Set GRAPHIQL=true to turn it on');
    expect(page).toContain('NODE_ENV=production');

    // An API client asking for JSON still gets the API's own answer.
    const api = await svc.yoga.fetch('http://titlegraph.test/graphql?query=%7B__typename%7D', {
      headers: { accept: 'application/json', 'x-graphql-yoga-csrf': '1', authorization: 'Bearer dev-key-a' },
    });
    expect(api.status).toBe(200);
    expect(await api.json()).toEqual({ data: { __typename: 'Query' } });
  });

  test('with GRAPHIQL=true in production the browser gets GraphiQL itself', async () => {
    const svc = await serviceForTest({ app: { graphiql: loadConfig({ ...PRODUCTION, GRAPHIQL: 'true' }).graphiql } });
    const browser = await svc.yoga.fetch('http://titlegraph.test/graphql', { headers: { accept: 'text/html' } });
    expect(browser.status).toBe(200);
    expect(await browser.text()).not.toContain('GraphiQL is off');
  });
});

describe('maxFee and the FAS', () => {
  test('a FAS of another organisation is FAS_NOT_AUTHORISED, whatever the maxFee, and nothing is sent', async () => {
    const svc = await serviceForTest();
    // 5555 is ORG-B's (organisations.ORG-B.fasAccounts); dev-key-a is ORG-A's.
    const other = await svc.gql(PurchaseTitleDetailsMutation, {
      fas: '5555',
      input: { titleNumber: 'MID15313', idempotencyKey: 'fas-first-1', maxFee: '0.01' },
    });
    expect(other.data!.purchaseTitleDetails.userErrors).toEqual([
      { code: 'FAS_NOT_AUTHORISED', message: 'fas: 5555 is not a charging account of your organisation.', field: ['fas'] },
    ]);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(0);
    expect(svc.emulator.ledger.count()).toBe(0);

    // On one of its own accounts the same maxFee is the refusal.
    const own = await svc.gql(PurchaseTitleDetailsMutation, {
      fas: '0877',
      input: { titleNumber: 'MID15313', idempotencyKey: 'fas-first-2', maxFee: '0.01' },
    });
    expect(own.data!.purchaseTitleDetails.userErrors.map((e) => e.code)).toEqual(['CHARGE_ABOVE_MAXIMUM']);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(0);
  });
});

/** registerUsage with both blocks (sent as text: a document of its own would be codegen's to type). */
async function usage(svc: Service): Promise<unknown> {
  const { body } = await postRaw(svc.yoga, { query: '{ registerUsage { calls blockedUntil freeReadsBlockedUntil } }' });
  return body.data.registerUsage;
}

/** "00:00:00 on 27 November": a moment as the refusals write it, in London time. */
function londonWords(at: Date): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone: 'Europe/London',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
    day: 'numeric',
    month: 'long',
  }).formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${get('hour')}:${get('minute')}:${get('second')} on ${get('day')} ${get('month')}`;
}

describe('the quota', () => {
  test('refusals give the time in London as well as the seconds; registerUsage says until when free reads, then all calls, are refused', async () => {
    // No share for free reads, and one paid call a day.
    const svc = await serviceForTest({ services: { quota: { dailyQuota: 1, freeShare: 0 } } });
    const midnight = endOfLondonDay(svc.services.registerNow());
    expect(await usage(svc)).toEqual({ calls: 0, blockedUntil: null, freeReadsBlockedUntil: midnight.toISOString() });
    // registerUsage asked the register's clock first, with the one sign-in (uncounted) a fresh process makes.
    const signIns = svc.emulator.calls.count({ route: 'token' });

    const read = await svc.gql(TitleQuery, { titleNumber: 'MID15313' });
    const refusal = read.errors![0]!;
    expect(refusal.extensions).toMatchObject({ code: 'RATE_LIMITED' });
    const seconds = refusal.extensions!.retryAfterSeconds as number;
    expect(refusal.message).toBe(
      "Free reads have used their share (0%) of this organisation's 1 register calls today; the rest is kept for purchases, orders, cases and deeds. " +
        `Free reads start again at midnight (Europe/London), in ${seconds} s (at ${londonWords(midnight)}, London time).`,
    );
    expect(svc.emulator.calls.count({ route: 'titleSummary' })).toBe(0);
    // Refused before any sign-in of its own: same words.
    expect(svc.emulator.calls.count({ route: 'token' })).toBe(signIns);

    // The paid call goes through; then every call is refused until midnight.
    const created = await svc.gql(CreateCaseMutation, {
      fas: '1877',
      input: {
        reference: 'Usage',
        contactEmail: 'cases@example.test',
        contactTelephone: '0131 496 0000',
        titleNumbers: ['MID15313'],
        idempotencyKey: 'usage-case',
      },
    });
    expect(created.data!.createCase.userErrors).toEqual([]);
    expect(await usage(svc)).toEqual({
      calls: 1,
      blockedUntil: midnight.toISOString(),
      freeReadsBlockedUntil: midnight.toISOString(),
    });
  });
});

describe('the allow-list', () => {
  test('query text under PERSISTED_OPERATIONS_ONLY is refused naming both ids: documentId, and Relay’s doc_id', async () => {
    const svc = await serviceForTest({ app: { persistedOperations: { store: new Map(), only: true } } });
    const response = await postRaw(svc.yoga, { query: '{ __typename }' });
    expect(response.status).toBe(400);
    const { errors } = response.body as { errors: { message: string; extensions: { code: string } }[] };
    expect(errors[0]!.extensions.code).toBe('PERSISTED_QUERY_ONLY');
    expect(errors[0]!.message).toContain('PERSISTED_OPERATIONS_ONLY');
    expect(errors[0]!.message).toContain('"documentId": "sha256:…"');
    expect(errors[0]!.message).toContain('Relay\'s "doc_id"');
  });
});
