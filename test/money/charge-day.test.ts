/**
 * The day of a charge is the register day on which the register made it: the `Date` header at
 * the start of the answer of the call that charged, never the time its body finished, never this
 * machine's clock. Judged over real HTTP against the emulator (its clock set, its answer dripped
 * out past its midnight), on the journal, the quote, maxFee, the emulator's ledger and call log.
 */
import { describe, expect, vi, test } from 'vitest';
import { londonDate } from '../../src/register/contract/london-day';
import {
  BuyTitleMutation,
  ChargeQuoteQuery,
  ChargeRecordsQuery,
  ChargeStatementQuery,
  OrderTitleDocumentMutation,
  PurchaseTitlePlansMutation,
  SpendingQuery,
  TitleQuery,
} from '../support/documents';
import { FAULT_TEST_TRANSPORT } from '../support/fault-transport';
import { newKey, type Service, serviceForTest } from '../support/harness';

const DAY_MS = 24 * 60 * 60 * 1000;

const buy = (more: Record<string, unknown> = {}) => ({
  fas: '0877',
  input: { titleNumber: 'MID15313', reference: 'charge-day', idempotencyKey: newKey('day'), ...more },
});

/**
 * The real answer of a purchase, 400 bytes every 250 ms: its 4.7 kB take at least 3 s to arrive,
 * whatever the machine's speed (each chunk waits its interval first).
 */
const SLOW_BODY = { kind: 'drip', chunkBytes: 400, intervalMs: 250 } as const;

async function records(svc: Service, day: string) {
  const { data, errors } = await svc.gql(ChargeRecordsQuery, { day });
  expect(errors).toBeUndefined();
  return data!.chargeRecords.map((r) => ({ key: r.idempotencyKey, status: r.status, transactionNumber: r.charge?.transactionNumber }));
}

describe('a charge whose answer ends after the register’s midnight', () => {
  test('is filed on the day the register charged; the next day is quoted in full and maxFee "0" is refused before sending', async () => {
    const svc = await serviceForTest();
    await svc.gql(TitleQuery, { titleNumber: 'MID1234' }); // a token in place, so the purchase below is sent at once
    // January: London is on GMT, so this is 23:59:58 on the 15th, London time.
    svc.emulator.clock.set(new Date('2026-01-15T23:59:58Z'));
    await svc.gql(TitleQuery, { titleNumber: 'MID1234' }); // the service hears the register's clock
    svc.emulator.faults.inject('titleDetails', SLOW_BODY, 1);
    const key = newKey('late-answer');
    const purchase = svc.gql(BuyTitleMutation, buy({ idempotencyKey: key }));

    await vi.waitFor(() => expect(svc.emulator.ledger.charges).toHaveLength(1));
    const [charged] = svc.emulator.ledger.charges;
    expect(londonDate(charged!.at)).toBe('2026-01-15'); // the register charged on the 15th...
    svc.emulator.clock.advance(5_000);
    await svc.gql(TitleQuery, { titleNumber: 'MID1234' }); // ...and the service hears of the 16th while the answer still drips

    const result = await purchase;
    expect(result.data!.purchaseTitleDetails.userErrors).toEqual([]);
    const transactionNumber = result.data!.purchaseTitleDetails.charges[0]!.transactionNumber;
    expect(transactionNumber).toBe(charged!.charge.transactionNumber);
    expect(londonDate(svc.emulator.clock.now())).toBe('2026-01-16');

    expect(await records(svc, '2026-01-15')).toEqual([{ key, status: 'CHARGED', transactionNumber }]);
    expect(await records(svc, '2026-01-16')).toEqual([]);
    const statement = await svc.gql(ChargeStatementQuery, { from: '2026-01-16', to: '2026-01-16' });
    expect(statement.data!.chargeStatement.records).toEqual([]);

    // The 16th is a new register day: the register would charge again, and the quote says so.
    const quote = await svc.gql(ChargeQuoteQuery, { fas: '0877', titleNumber: 'MID15313', products: ['TITLE_DATA_AND_PLANS'] });
    expect(quote.data!.chargeQuote.lines).toEqual([
      { product: 'TITLE_DATA_AND_PLANS', listFee: '3.00', alreadyChargedToday: false, expectedFee: '3.00' },
    ]);
    const spending = await svc.gql(SpendingQuery, {});
    expect(spending.data!.spending).toMatchObject({ day: '2026-01-16', client: { charged: '0.00', pending: '0.00' } });

    const refused = await svc.gql(BuyTitleMutation, buy({ maxFee: '0' }));
    expect(refused.data!.purchaseTitleDetails.userErrors).toEqual([expect.objectContaining({ code: 'CHARGE_ABOVE_MAXIMUM' })]);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(1);
    expect(svc.emulator.ledger.charges).toHaveLength(1);
  });
});

describe('a charge the register made after its midnight, before this service heard of it', () => {
  /** The service hears the register at 23:59:50 on the 15th; the register's clock then moves to 00:00:05 on the 16th, unheard. */
  async function justAfterMidnight() {
    const svc = await serviceForTest({ services: { transport: FAULT_TEST_TRANSPORT } });
    svc.emulator.clock.set(new Date('2026-01-15T23:59:50Z'));
    await svc.gql(TitleQuery, { titleNumber: 'MID1234' });
    svc.emulator.clock.advance(15_000);
    expect(londonDate(svc.services.registerNow())).toBe('2026-01-15');
    return svc;
  }

  test('is filed on the day of its answer, not the day the service claimed it on', async () => {
    const svc = await justAfterMidnight();
    const key = newKey('after-midnight');
    const result = await svc.gql(BuyTitleMutation, buy({ idempotencyKey: key }));
    const transactionNumber = result.data!.purchaseTitleDetails.charges[0]!.transactionNumber;
    expect(svc.emulator.ledger.charges.map((c) => londonDate(c.at))).toEqual(['2026-01-16']);
    expect(await records(svc, '2026-01-16')).toEqual([{ key, status: 'CHARGED', transactionNumber }]);
    expect(await records(svc, '2026-01-15')).toEqual([]);
  });

  test('a document ordered and plans bought are filed on the day of their answers too', async () => {
    const svc = await justAfterMidnight();
    const documentKey = newKey('document-after-midnight');
    const plansKey = newKey('plans-after-midnight');
    const ordered = await svc.gql(OrderTitleDocumentMutation, {
      fas: '0877',
      input: { titleNumber: 'MID15313', titleSheet: { include: true }, idempotencyKey: documentKey },
    });
    expect(ordered.data!.orderTitleDocument.userErrors).toEqual([]);
    const bought = await svc.gql(PurchaseTitlePlansMutation, { fas: '0877', input: { titleNumber: 'LAN50', idempotencyKey: plansKey } });
    expect(bought.data!.purchaseTitlePlans.userErrors).toEqual([]);
    expect(svc.emulator.ledger.charges.map((c) => londonDate(c.at))).toEqual(['2026-01-16', '2026-01-16']);
    const filed = await records(svc, '2026-01-16');
    expect(filed.map((r) => r.key).sort()).toEqual([documentKey, plansKey].sort());
    expect(filed.map((r) => r.transactionNumber).sort()).toEqual(svc.emulator.ledger.charges.map((c) => c.charge.transactionNumber).sort());
    expect(await records(svc, '2026-01-15')).toEqual([]);
  });

  test('whose answer began but broke off: OUTCOME_UNKNOWN on the day the register began to answer', async () => {
    const svc = await justAfterMidnight();
    // The headers come at once, the body never in time (slower than the transport's body timeout).
    svc.emulator.faults.inject('titleDetails', { kind: 'drip', chunkBytes: 16, intervalMs: 5_000 }, 1);
    const key = newKey('broken-answer');
    const result = await svc.gql(BuyTitleMutation, buy({ idempotencyKey: key }));
    const [lost] = result.data!.purchaseTitleDetails.userErrors;
    expect(lost!.code).toBe('OUTCOME_UNKNOWN');
    expect(lost!.message).toContain('safe until the end of 2026-01-16 (London time)');
    expect(svc.emulator.ledger.charges.map((c) => londonDate(c.at))).toEqual(['2026-01-16']);
    expect(await records(svc, '2026-01-16')).toEqual([{ key, status: 'OUTCOME_UNKNOWN', transactionNumber: undefined }]);
    expect(await records(svc, '2026-01-15')).toEqual([]);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(1);
  });
});

describe('a fresh process whose first call is a purchase', () => {
  test("learns the register's clock first: its reservation, its record and its spend check are on the register's day, not the machine's", async () => {
    const svc = await serviceForTest();
    const machineDay = londonDate(new Date());
    // Noon (UTC) three days ahead: the same London date whatever the season.
    const registerDay = new Date(Date.parse(`${machineDay}T12:00:00Z`) + 3 * DAY_MS).toISOString().slice(0, 10);
    svc.emulator.clock.set(new Date(`${registerDay}T12:00:00Z`));

    svc.emulator.faults.inject('titleDetails', SLOW_BODY, 1);
    const key = newKey('fresh');
    const purchase = svc.gql(BuyTitleMutation, buy({ idempotencyKey: key }));
    await vi.waitFor(() => expect(svc.emulator.ledger.charges).toHaveLength(1));
    // While the answer is on its way, its fee is reserved on the register's day.
    const inFlight = await svc.gql(SpendingQuery, {});
    expect(inFlight.data!.spending).toMatchObject({ day: registerDay, client: { charged: '0.00', pending: '3.00' } });
    expect(await records(svc, registerDay)).toEqual([{ key, status: 'PENDING', transactionNumber: undefined }]);

    const result = await purchase;
    const transactionNumber = result.data!.purchaseTitleDetails.charges[0]!.transactionNumber;
    expect(await records(svc, registerDay)).toEqual([{ key, status: 'CHARGED', transactionNumber }]);
    expect(await records(svc, machineDay)).toEqual([]);
    expect(svc.emulator.ledger.charges.map((c) => [londonDate(c.at), c.charge.transactionNumber])).toEqual([
      [registerDay, transactionNumber],
    ]);
    // Nothing was called before the purchase but the token it needs, whose answer told the register's clock.
    expect(svc.emulator.calls.list().map((c) => c.route)).toEqual(['token', 'titleDetails']);

    // Another fresh process: the title is already charged on the register's day, so a purchase
    // with maxFee "0" is within it, is sent, and the register does not charge it again.
    await svc.restart();
    const again = await svc.gql(BuyTitleMutation, buy({ maxFee: '0' }));
    expect(again.data!.purchaseTitleDetails).toMatchObject({ charges: [], userErrors: [] });
    expect(svc.emulator.calls.list().map((c) => c.route)).toEqual(['token', 'titleDetails', 'token', 'titleDetails']);
    expect(svc.emulator.ledger.charges).toHaveLength(1);
    expect(await records(svc, registerDay)).toEqual([{ key, status: 'CHARGED', transactionNumber }]);
  });
});
