/**
 * Spend control over GraphQL, judged on the emulator's ledger and call log: the quote, the daily
 * limits (reserved before anything is sent), maxFee, unknown outcomes, statements and their
 * visibility. Store-level races (two stores on one PostgreSQL) are in
 * test/storage/idempotency-store-contract.test.ts.
 */
import { afterAll, beforeAll, describe, expect, vi, test } from 'vitest';
import { PgIdempotencyStore } from '../../src/storage/idempotency/pg-store';
import { createTestDatabase, postgresSuite, type TestDatabase } from '../support/pg';
import { londonDate } from '../../src/register/contract/london-day';
import { logServiceEvents } from '../../src/observability/logging';
import { BuyTitleMutation, ChargeQuoteQuery, ChargeStatementQuery, NodeQuery, SpendingQuery, TitleIdQuery } from '../support/documents';
import { newKey, replicaForTest, serviceForTest } from '../support/harness';
import { memoryLogger } from '../support/memory-logger';
import { mentioning } from '../support/mentions';

const buy = (titleNumber: string, more: Record<string, unknown> = {}) => ({
  fas: '0877',
  input: { titleNumber, idempotencyKey: newKey('buy'), ...more },
});

describe('chargeQuote', () => {
  test('a new title is quoted at the list fee with no register call; after a sibling client bought it, free, and indeed not charged again', async () => {
    const svc = await serviceForTest();
    const ask = (key?: string) =>
      svc.gql(ChargeQuoteQuery, { fas: '0877', titleNumber: 'MID15313', products: ['TITLE_DATA_AND_PLANS', 'PENDING_APPLICATIONS'] }, key);
    const before = await ask();
    expect(before.data!.chargeQuote).toEqual({
      lines: [
        { product: 'TITLE_DATA_AND_PLANS', listFee: '3.00', alreadyChargedToday: false, expectedFee: '3.00' },
        { product: 'PENDING_APPLICATIONS', listFee: '3.00', alreadyChargedToday: false, expectedFee: '3.00' },
      ],
      expectedTotal: '6.00',
      withinLimits: true,
    });
    // Nothing but the sign-in with which a fresh process asks the register's clock (uncounted, free).
    expect(svc.emulator.calls.list().map((c) => c.route)).toEqual(['token']);

    const sibling = await svc.gql(BuyTitleMutation, buy('MID15313'), 'dev-key-a2');
    expect(sibling.data!.purchaseTitleDetails.charges).toHaveLength(1);
    const after = await ask();
    expect(after.data!.chargeQuote.lines[0]).toEqual({
      product: 'TITLE_DATA_AND_PLANS',
      listFee: '3.00',
      alreadyChargedToday: true,
      expectedFee: '0.00',
    });
    expect(after.data!.chargeQuote.expectedTotal).toBe('3.00');

    const mine = await svc.gql(BuyTitleMutation, buy('MID15313'));
    expect(mine.data!.purchaseTitleDetails.charges).toEqual([]);
    expect(svc.emulator.ledger.count({ titleNumber: 'MID15313' })).toBe(1);
    // another organisation's journal says nothing about ORG-A's purchases
    const other = await svc.gql(
      ChargeQuoteQuery,
      { fas: '5555', titleNumber: 'MID15313', products: ['TITLE_DATA_AND_PLANS'] },
      'dev-key-b',
    );
    expect(other.data!.chargeQuote.lines[0]!.alreadyChargedToday).toBe(false);
  });

  test("another organisation's FAS is refused as a purchase would be, revealing nothing", async () => {
    const svc = await serviceForTest();
    const result = await svc.gql(ChargeQuoteQuery, { fas: '5555', titleNumber: 'MID15313', products: ['TITLE_DATA_AND_PLANS'] });
    expect(result.data).toBeNull();
    expect(result.errors).toEqual([
      expect.objectContaining({
        message: 'fas: 5555 is not a charging account of your organisation.',
        extensions: expect.objectContaining({ code: 'FAS_NOT_AUTHORISED' }),
      }),
    ]);
    expect(svc.emulator.calls.count()).toBe(0);
  });
});

describe('daily spending limits', () => {
  test('20 concurrent purchases against a client limit that fits 3: 3 charged, 17 refused unsent', async () => {
    const svc = await serviceForTest({
      services: { spend: { feesPence: { TITLE_DATA_AND_PLANS: 300, PENDING_APPLICATIONS: 300 }, clientLimitPence: 900 } },
    });
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => svc.gql(BuyTitleMutation, buy(`BLK${i + 1}`))));
    const payloads = results.map((r) => r.data!.purchaseTitleDetails);
    expect(payloads.filter((p) => p.charges.length === 1)).toHaveLength(3);
    const refused = payloads.filter((p) => p.userErrors[0]?.code === 'SPEND_LIMIT_REACHED');
    expect(refused).toHaveLength(17);
    // What the purchases still at the register hold when it is refused depends on timing: see spend-refusal-words.test.ts.
    const words = refused[0]!.userErrors[0]!.message;
    expect(words).toMatch(
      /^This call is expected to charge 3\.00 \(before VAT\), but your API client's daily spending limit of 9\.00 has 0\.00 left for \d{4}-\d{2}-\d{2}\. Nothing was sent to the register\./,
    );
    expect(words).toContain(`left for ${londonDate(new Date())}.`);
    expect(words).toMatch(/ The limit resets at midnight, London time\.$/);
    expect(svc.emulator.ledger.count()).toBe(3);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(3);

    const spending = await svc.gql(SpendingQuery, {});
    expect(spending.data!.spending).toEqual({
      day: londonDate(new Date()),
      client: { charged: '9.00', pending: '0.00', limit: '9.00', remaining: '0.00' },
      organisation: { charged: '9.00', pending: '0.00', limit: null, remaining: null },
    });
    const quote = await svc.gql(ChargeQuoteQuery, { fas: '0877', titleNumber: 'BLK99', products: ['TITLE_DATA_AND_PLANS'] });
    expect(quote.data!.chargeQuote.withinLimits).toBe(false);
    const metrics = await (await svc.get('/metrics')).text();
    expect(metrics).toContain('titlegraph_spend_refusals_total{organisation="ORG-A",reason="client_limit"} 17');
    expect(metrics).toContain('titlegraph_idempotency_outcomes_total{operation="purchaseTitleDetails",outcome="spend_limit"} 17');
    expect(metrics).toContain('titlegraph_spend_charged_total{organisation="ORG-A"} 9');
    // the sibling client has its own allowance
    const sibling = await svc.gql(BuyTitleMutation, buy('BLK99'), 'dev-key-a2');
    expect(sibling.data!.purchaseTitleDetails.charges).toHaveLength(1);
  });

  test('a purchase in flight shows its reservation in the metrics until the register answers', async () => {
    const svc = await serviceForTest({ services: { spend: { feesPence: { TITLE_DATA_AND_PLANS: 300, PENDING_APPLICATIONS: 300 } } } });
    const reserved = async () =>
      /titlegraph_spend_reserved_gbp\{organisation="ORG-A"\} (\S+)/.exec(await (await svc.get('/metrics')).text())?.[1];
    // The register's answer arrives slowly: the call stays in flight meanwhile.
    svc.emulator.faults.inject('titleDetails', { kind: 'drip', chunkBytes: 64, intervalMs: 40 }, 1);
    const purchase = svc.gql(BuyTitleMutation, buy('BLK7'));
    await vi.waitFor(async () => expect(await reserved()).toBe('3'), { timeout: 5000, interval: 20 });
    const result = await purchase;
    expect(result.data!.purchaseTitleDetails.charges).toHaveLength(1);
    expect(await reserved()).toBe('0');
    expect(svc.emulator.ledger.count()).toBe(1);
  });

  test('an unknown outcome keeps its reservation as pending, and its replay reserves nothing more', async () => {
    const svc = await serviceForTest({
      services: { spend: { feesPence: { TITLE_DATA_AND_PLANS: 300, PENDING_APPLICATIONS: 300 }, clientLimitPence: 600 } },
    });
    svc.emulator.faults.inject('titleDetails', { kind: 'reset', phase: 'after' }, 1);
    const variables = buy('BLK1');
    const lost = await svc.gql(BuyTitleMutation, variables);
    expect(lost.data!.purchaseTitleDetails.userErrors[0]!.code).toBe('OUTCOME_UNKNOWN');
    expect(svc.emulator.ledger.count()).toBe(1); // it did charge
    const replay = await svc.gql(BuyTitleMutation, variables);
    expect(replay.data!.purchaseTitleDetails.userErrors[0]!.code).toBe('OUTCOME_UNKNOWN');
    const spending = await svc.gql(SpendingQuery, {});
    expect(spending.data!.spending.client).toEqual({ charged: '0.00', pending: '3.00', limit: '6.00', remaining: '3.00' });
    expect((await svc.gql(BuyTitleMutation, buy('BLK2'))).data!.purchaseTitleDetails.charges).toHaveLength(1);
    const third = await svc.gql(BuyTitleMutation, buy('BLK3'));
    expect(third.data!.purchaseTitleDetails.userErrors[0]!.code).toBe('SPEND_LIMIT_REACHED');
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(2);
  });
});

const pgSuite = await postgresSuite();
describe.skipIf(!pgSuite.run)(pgSuite.title('daily spending limits on two replicas sharing PostgreSQL'), () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('spend');
  }, 60_000);
  afterAll(() => database?.drop());

  test('20 concurrent purchases split over two replicas, against a client limit that fits 3: exactly 3 charged', async () => {
    const onDatabase = () => ({
      idempotency: new PgIdempotencyStore({ connectionString: database.url }),
      databaseUrl: database.url,
      spend: { feesPence: { TITLE_DATA_AND_PLANS: 300, PENDING_APPLICATIONS: 300 }, clientLimitPence: 900 },
    });
    const first = await serviceForTest({ services: onDatabase() });
    const second = replicaForTest(first, onDatabase());
    const replicas = [first, second];
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => replicas[i % 2]!.gql(BuyTitleMutation, buy(`BLK${i + 1}`))));
    const payloads = results.map((r) => r.data!.purchaseTitleDetails);
    expect(payloads.filter((p) => p.charges.length === 1)).toHaveLength(3);
    expect(payloads.filter((p) => p.userErrors[0]?.code === 'SPEND_LIMIT_REACHED')).toHaveLength(17);
    expect(first.emulator.ledger.count()).toBe(3);
    expect(first.emulator.calls.count({ route: 'titleDetails' })).toBe(3);
    const onSecond = await second.gql(SpendingQuery, {});
    expect(onSecond.data!.spending.client).toEqual({ charged: '9.00', pending: '0.00', limit: '9.00', remaining: '0.00' });
  }, 60_000);
});

describe('maxFee', () => {
  test.for(['-1', '3.001', 'abc'])('maxFee %j is BAD_USER_INPUT naming the field, and nothing is sent', async (maxFee) => {
    const svc = await serviceForTest();
    const result = await svc.gql(BuyTitleMutation, buy('MID15313', { maxFee }));
    expect(result.errors).toEqual([
      expect.objectContaining({
        message: `input.maxFee must be an amount in pounds with at most two decimals, e.g. "3.00" or "3" (got ${JSON.stringify(maxFee)}).`,
        extensions: expect.objectContaining({ code: 'BAD_USER_INPUT', field: 'input.maxFee' }),
      }),
    ]);
    expect(svc.emulator.calls.count()).toBe(0);
  });

  test('below the expected fee is CHARGE_ABOVE_MAXIMUM unsent; at exactly the fee it goes through', async () => {
    const svc = await serviceForTest();
    const below = await svc.gql(BuyTitleMutation, buy('MID15313', { maxFee: '2.99' }));
    expect(below.data!.purchaseTitleDetails.userErrors).toEqual([
      {
        code: 'CHARGE_ABOVE_MAXIMUM',
        message: 'This call is expected to charge 3.00 (before VAT), which is above input.maxFee 2.99. Nothing was sent to the register.',
        field: ['input', 'maxFee'],
      },
    ]);
    // Nothing sent but the token call by which this fresh process learnt the register's day.
    expect(svc.emulator.calls.list().map((c) => c.route)).toEqual(['token']);
    const metrics = await (await svc.get('/metrics')).text();
    expect(metrics).toContain('titlegraph_spend_refusals_total{organisation="ORG-A",reason="max_fee"} 1');
    expect(metrics).toContain('titlegraph_idempotency_outcomes_total{operation="purchaseTitleDetails",outcome="above_max_fee"} 1');
    const exact = await svc.gql(BuyTitleMutation, buy('MID15313', { maxFee: '3' }));
    expect(exact.data!.purchaseTitleDetails.charges).toEqual([expect.objectContaining({ fee: '3.00' })]);
    // bought today: expected free, so even maxFee 0 goes through, uncharged
    const again = await svc.gql(BuyTitleMutation, buy('MID15313', { maxFee: '0' }));
    expect(again.data!.purchaseTitleDetails).toMatchObject({ userErrors: [], charges: [] });
    expect(svc.emulator.ledger.count()).toBe(1);
  });

  test('a register fee raised above maxFee since the quote: the charge is shown as made, and the operator is told', async () => {
    // The service still expects 3.00; the register now charges 3.50 for title data and plans.
    const svc = await serviceForTest({ emulator: { fees: { TITLE_DATA_AND_PLANS: '3.50' } } });
    const told: unknown[] = [];
    svc.services.events.on('chargeAboveMaxFee', (e) => told.push(e));
    const { logger, lines } = memoryLogger('info');
    logServiceEvents(svc.services.events, logger);

    const above = await svc.gql(BuyTitleMutation, buy('MID15313', { maxFee: '3.00' }));
    expect(above.data!.purchaseTitleDetails.userErrors).toEqual([]);
    expect(above.data!.purchaseTitleDetails.charges).toEqual([expect.objectContaining({ fee: '3.50' })]);
    expect(told).toEqual([{ tenant: 'client-a', operation: 'purchaseTitleDetails', chargedPence: 350, maxFeePence: 300 }]);
    const warning = lines.find((l) => l.operation === 'purchaseTitleDetails' && l.chargedPence !== undefined);
    expect(warning).toMatchObject({ level: 40, chargedPence: 350, maxFeePence: 300 });
    expect(warning!.msg).toMatch(/charged more than the caller allowed with maxFee/);
    expect(JSON.stringify(warning)).not.toMatch(mentioning('0877'));

    // At the fee exactly, and with no maxFee at all, nobody needs telling.
    await svc.gql(BuyTitleMutation, buy('BLK2', { maxFee: '3.50' }));
    await svc.gql(BuyTitleMutation, buy('BLK3'));
    expect(told).toHaveLength(1);
    expect(svc.emulator.ledger.count()).toBe(3);
  });

  test('maxFee given as null is the same request as no maxFee, for the key', async () => {
    // Keys stored before maxFee existed have it absent: an explicit null must still match them.
    const svc = await serviceForTest();
    const variables = buy('MID15313');
    const first = await svc.gql(BuyTitleMutation, { ...variables, input: { ...variables.input, maxFee: null } });
    expect(first.data!.purchaseTitleDetails.charges).toHaveLength(1);
    const replay = await svc.gql(BuyTitleMutation, variables);
    expect(replay.data!.purchaseTitleDetails).toEqual(first.data!.purchaseTitleDetails);
    expect(svc.emulator.ledger.count()).toBe(1);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(1);
  });

  test('maxFee is bound to the idempotency key', async () => {
    const svc = await serviceForTest();
    const variables = buy('MID15313', { maxFee: '3.00' });
    await svc.gql(BuyTitleMutation, variables);
    const changed = await svc.gql(BuyTitleMutation, { ...variables, input: { ...variables.input, maxFee: '4.00' } });
    expect(changed.data!.purchaseTitleDetails.userErrors[0]!.code).toBe('IDEMPOTENCY_KEY_REUSED');
  });
});

describe('chargeStatement', () => {
  const today = () => londonDate(new Date());

  test('an accounts key sees its organisation, another key its own client, nobody another organisation', async () => {
    const svc = await serviceForTest();
    await svc.gql(BuyTitleMutation, buy('BLK1', { reference: 'MATTER-1' }), 'dev-key-a');
    await svc.gql(BuyTitleMutation, buy('BLK2', { reference: 'MATTER-1' }), 'dev-key-a2');
    await svc.gql(BuyTitleMutation, buy('BLK3', { reference: 'MATTER-2' }), 'dev-key-a2');
    await svc.gql(
      BuyTitleMutation,
      { fas: '5555', input: { titleNumber: 'BLK4', idempotencyKey: newKey(), reference: 'MATTER-1' } },
      'dev-key-b',
    );
    const statement = async (key: string, reference?: string) =>
      (await svc.gql(ChargeStatementQuery, { from: today(), to: today(), ...(reference ? { reference } : {}) }, key)).data!.chargeStatement;

    const accounts = await statement('dev-key-a');
    expect(accounts.records.map((r) => [r.apiClient, r.titleNumber, r.reference])).toEqual([
      ['client-a', 'BLK1', 'MATTER-1'],
      ['client-a2', 'BLK2', 'MATTER-1'],
      ['client-a2', 'BLK3', 'MATTER-2'],
    ]);
    expect(accounts).toMatchObject({ total: '9.00', unknownCount: 0, from: today(), to: today() });
    const ledgerNumbers = svc.emulator.ledger.charges.filter((c) => c.organisation === 'ORG-A').map((c) => c.charge.transactionNumber);
    expect(accounts.records.map((r) => r.charge!.transactionNumber)).toEqual(ledgerNumbers);

    expect((await statement('dev-key-a2')).records.map((r) => r.titleNumber)).toEqual(['BLK2', 'BLK3']);
    expect((await statement('dev-key-a', 'MATTER-1')).records.map((r) => r.titleNumber)).toEqual(['BLK1', 'BLK2']);
    expect((await statement('dev-key-b')).records.map((r) => r.titleNumber)).toEqual(['BLK4']);
  });

  test('a range over 366 days, or ending before it starts, is BAD_USER_INPUT', async () => {
    const svc = await serviceForTest();
    const tooLong = await svc.gql(ChargeStatementQuery, { from: '2025-01-01', to: '2026-01-02' });
    expect(tooLong.errors![0]).toMatchObject({
      message: 'A statement covers at most 366 register days (got 367, 2025-01-01 to 2026-01-02): ask for a shorter range.',
      extensions: { code: 'BAD_USER_INPUT' },
    });
    const leapYear = await svc.gql(ChargeStatementQuery, { from: '2024-01-01', to: '2024-12-31' });
    expect(leapYear.data!.chargeStatement.records).toEqual([]);
    const backwards = await svc.gql(ChargeStatementQuery, { from: '2026-02-02', to: '2026-02-01' });
    expect(backwards.errors![0]).toMatchObject({ extensions: { code: 'BAD_USER_INPUT' } });
  });

  test('as CSV: RFC 4180 with a header row, formula-like cells defused, the same visibility and range rules', async () => {
    const svc = await serviceForTest();
    await svc.gql(BuyTitleMutation, buy('BLK1', { reference: '=HYPERLINK("http://x.example","click")' }), 'dev-key-a');
    await svc.gql(BuyTitleMutation, buy('BLK2', { reference: 'Smith, Jones' }), 'dev-key-a2');
    const csv = async (key: string, query: string) => {
      const response = await svc.get(`/statements.csv?${query}`, key);
      return { status: response.status, type: response.headers.get('content-type'), text: await response.text() };
    };
    const whole = await csv('dev-key-a', `from=${today()}&to=${today()}`);
    expect(whole.status).toBe(200);
    expect(whole.type).toBe('text/csv; charset=utf-8; header=present');
    const lines = whole.text.split('\r\n');
    expect(lines[0]).toBe(
      'day,recorded_at,status,operation,idempotency_key,api_client,fas,title_number,reference,product,fee,transaction_number,caller,caller_name,caller_id',
    );
    expect(lines).toHaveLength(4); // header, two rows, and the empty string after the last CRLF
    const [first, second] = svc.emulator.ledger.charges.map((c) => c.charge.transactionNumber);
    expect(lines[1]).toMatch(
      new RegExp(
        `^${today()},[^,]+,CHARGED,purchaseTitleDetails,[^,]+,client-a,0877,BLK1,"'=HYPERLINK\\(""http://x\\.example"",""click""\\)",TITLE_DATA_AND_PLANS,3\\.00,${first},dev-key-a,,key:dev-key-a$`,
      ),
    );
    expect(lines[2]).toMatch(
      new RegExp(`,client-a2,0877,BLK2,"Smith, Jones",TITLE_DATA_AND_PLANS,3\\.00,${second},dev-key-a2,,key:dev-key-a2$`),
    );
    expect((await csv('dev-key-a2', `from=${today()}&to=${today()}`)).text.split('\r\n')).toHaveLength(3);
    expect((await csv('dev-key-a', `from=${today()}&to=${today()}&reference=Smith%2C%20Jones`)).text).toContain('BLK2');
    expect((await csv('dev-key-a', `from=${today()}&to=${today()}&reference=Smith%2C%20Jones`)).text).not.toContain('BLK1');
    expect((await csv('dev-key-b', `from=${today()}&to=${today()}`)).text.split('\r\n')).toHaveLength(2);
    expect(await csv('dev-key-a', 'from=2025-01-01&to=2026-01-02')).toMatchObject({
      status: 400,
      text: expect.stringContaining('at most 366'),
    });
    expect(await csv('dev-key-a', 'from=2026-02-30&to=2026-03-01')).toMatchObject({
      status: 400,
      text: expect.stringContaining('from must be a calendar date'),
    });
    expect((await csv('not-a-key', `from=${today()}&to=${today()}`)).status).toBe(401);
  });

  test('an unknown outcome is counted and has no charge', async () => {
    const svc = await serviceForTest();
    svc.emulator.faults.inject('titleDetails', { kind: 'reset', phase: 'after' }, 1);
    await svc.gql(BuyTitleMutation, buy('BLK3'));
    const { data } = await svc.gql(ChargeStatementQuery, { from: today(), to: today() });
    expect(data!.chargeStatement).toMatchObject({ total: '0.00', unknownCount: 1, records: [{ status: 'OUTCOME_UNKNOWN', charge: null }] });
  });
});

describe('node (Relay object identification)', () => {
  test('a title is refetched by its global id; malformed, unknown-type and missing ids give null', async () => {
    const svc = await serviceForTest();
    const { data } = await svc.gql(TitleIdQuery, { titleNumber: 'MID15313' });
    const id = data!.title!.id;
    expect(id).toBe(Buffer.from('Title:MID15313').toString('base64'));
    expect((await svc.gql(NodeQuery, { id })).data!.node).toEqual({ id, titleNumber: 'MID15313', status: 'REGISTERED' });
    for (const other of [
      'not base64!',
      Buffer.from('Case:RLP01PRIVCASE').toString('base64'),
      Buffer.from('Title:ZZZ999').toString('base64'),
    ]) {
      const result = await svc.gql(NodeQuery, { id: other });
      expect(result).toMatchObject({ data: { node: null } });
      expect(result.errors).toBeUndefined();
    }
  });
});
