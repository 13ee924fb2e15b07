/**
 * Near the register's midnight "already bought today" cannot be known: the register's clock is
 * known to this service only from the `Date` header of its answers (a whole second, plus the round
 * trip). Within that uncertainty the quote says so, expects the list fee, and a purchase is held
 * to maxFee as if it will be charged. Judged over real HTTP on the emulator's ledger and call log.
 *
 * Time is the test's: the register's clock (the emulator's, on a frozen base) and this machine's
 * monotonic clock (performance.now, on which the service keeps the register's time) move together,
 * only when the test says, as real time does; this machine's wall clock (Date) is set off from the
 * register's both ways, and plays no part.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test, vi } from 'vitest';
import { londonDate } from '../../src/register/contract/london-day';
import { BuyTitleMutation, ChargeRecordsQuery } from '../support/documents';
import { newKey, type Service, type ServiceOverrides, serviceForTest } from '../support/harness';
import { createTestDatabase, postgresSuite, type TestDatabase } from '../support/pg';
import { postRaw } from '../support/post-raw';

const FAS = '0877';
const TITLE = 'MID15313';

/** London midnights, written out (not computed by the code under test), and the days either side. */
const MIDNIGHTS = [
  { season: 'winter (GMT)', midnight: '2026-01-16T00:00:00.000Z', before: '2026-01-15', after: '2026-01-16' },
  { season: 'summer (BST)', midnight: '2026-06-10T23:00:00.000Z', before: '2026-06-10', after: '2026-06-11' },
  // The day the clocks go forward has 23 hours, the day they go back 25.
  { season: 'the end of the day the clocks go forward', midnight: '2026-03-29T23:00:00.000Z', before: '2026-03-29', after: '2026-03-30' },
  { season: 'the end of the day the clocks go back', midnight: '2026-10-26T00:00:00.000Z', before: '2026-10-25', after: '2026-10-26' },
] as const;

/** This machine's wall clock minus the register's. */
const SKEWS = [
  ['ahead', 1_500],
  ['behind', -1_500],
] as const;

interface Clocks {
  svc: Service;
  /** Both clocks move on by `ms`. */
  passes(ms: number): void;
}

/** A service whose register's clock reads `registerAt` and whose machine's wall clock is `skewMs` off it. */
async function serviceAt(registerAt: number, skewMs: number, services?: ServiceOverrides): Promise<Clocks> {
  const svc = await serviceForTest({ emulator: { now: () => new Date(0) }, ...(services ? { services } : {}) });
  svc.emulator.clock.set(new Date(registerAt));
  let monotonic = performance.now();
  vi.spyOn(performance, 'now').mockImplementation(() => monotonic);
  vi.useFakeTimers({ toFake: ['Date'], now: registerAt + skewMs });
  return {
    svc,
    passes(ms) {
      monotonic += ms;
      svc.emulator.clock.advance(ms);
      vi.setSystemTime(Date.now() + ms);
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

/** A register call of the service's, whose answer's Date header it reads. */
async function hearRegister(svc: Service) {
  const { body } = await postRaw(svc.yoga, { query: `{ title(titleNumber: "MID1234") { titleNumber } }` });
  expect(body.errors).toBeUndefined();
}

interface QuoteAnswer {
  day: string;
  dayCertainty: string;
  expectedTotal: string;
  lines: { alreadyChargedToday: boolean; expectedFee: string }[];
}

async function quote(svc: Service): Promise<QuoteAnswer> {
  const { body } = await postRaw<{ chargeQuote: QuoteAnswer }>(svc.yoga, {
    query: `query($fas: FasNumber!, $title: TitleNumber!) {
      chargeQuote(fas: $fas, titleNumber: $title, products: [TITLE_DATA_AND_PLANS]) {
        day dayCertainty expectedTotal lines { alreadyChargedToday expectedFee }
      }
    }`,
    variables: { fas: FAS, title: TITLE },
  });
  expect(body.errors).toBeUndefined();
  return body.data!.chargeQuote;
}

async function buy(svc: Service, maxFee?: string) {
  const input = { titleNumber: TITLE, idempotencyKey: newKey('midnight'), ...(maxFee !== undefined ? { maxFee } : {}) };
  const { data, errors } = await svc.gql(BuyTitleMutation, { fas: FAS, input });
  expect(errors).toBeUndefined();
  return data!.purchaseTitleDetails;
}

async function journal(svc: Service, day: string) {
  const { data, errors } = await svc.gql(ChargeRecordsQuery, { day });
  expect(errors).toBeUndefined();
  return data!.chargeRecords.map((r) => ({ status: r.status, transactionNumber: r.charge?.transactionNumber }));
}

const ledgerDays = (svc: Service) => svc.emulator.ledger.charges.map((c) => londonDate(c.at));
const sent = (svc: Service) => svc.emulator.calls.count({ route: 'titleDetails' });

describe.each(MIDNIGHTS)('London midnight at the $season', ({ midnight, before, after }) => {
  const M = Date.parse(midnight);

  describe.each(SKEWS)("with this machine's clock %s of the register's", (_, skewMs) => {
    test('a title bought before midnight: maxFee "0" is refused unsent just before and just after it; an adequate maxFee is charged once, on the new day', async () => {
      const { svc, passes } = await serviceAt(M - 10 * 60_000, skewMs);
      expect((await buy(svc)).charges).toHaveLength(1);
      expect(ledgerDays(svc)).toEqual([before]);
      // Well before midnight the day is known, and the title is free again today.
      expect(await quote(svc)).toEqual({
        day: before,
        dayCertainty: 'EXACT',
        expectedTotal: '0.00',
        lines: [{ alreadyChargedToday: true, expectedFee: '0.00' }],
      });

      // Just before midnight, the register heard: a purchase may reach it after its midnight.
      passes(10 * 60_000 - 300);
      await hearRegister(svc);
      const justBefore = await buy(svc, '0');
      expect(sent(svc)).toBe(1);
      expect(justBefore.charges).toEqual([]);
      expect(justBefore.userErrors).toEqual([
        {
          code: 'CHARGE_ABOVE_MAXIMUM',
          field: ['input', 'maxFee'],
          // Why a title bought today costs again: the day may change before the register sees the call.
          message: expect.stringMatching(
            /The register's day is about to change or has just changed \(.*\), and on the new day what was bought today is charged again\./,
          ),
        },
      ]);
      expect(await quote(svc)).toEqual({
        day: after,
        dayCertainty: 'NEAR_MIDNIGHT',
        expectedTotal: '3.00',
        lines: [{ alreadyChargedToday: false, expectedFee: '3.00' }],
      });

      // Just after midnight, not heard since: the service's estimate still allows the day before.
      // (Sent, this is the purchase the register charges on the new day while maxFee says "0".)
      passes(600);
      const justAfter = await buy(svc, '0');
      expect(sent(svc)).toBe(1);
      expect(ledgerDays(svc)).toEqual([before]);
      expect(justAfter.userErrors).toEqual([expect.objectContaining({ code: 'CHARGE_ABOVE_MAXIMUM' })]);
      expect(await quote(svc)).toMatchObject({ day: after, dayCertainty: 'NEAR_MIDNIGHT', expectedTotal: '3.00' });

      // The same, with a maxFee that allows the list fee: charged once, journalled on the new day.
      const bought = await buy(svc, '3.00');
      expect(bought.userErrors).toEqual([]);
      expect(sent(svc)).toBe(2);
      expect(ledgerDays(svc)).toEqual([before, after]);
      const [, newDay] = svc.emulator.ledger.charges;
      expect(bought.charges).toEqual([expect.objectContaining({ transactionNumber: newDay!.charge.transactionNumber })]);
      expect(await journal(svc, after)).toEqual([{ status: 'CHARGED', transactionNumber: newDay!.charge.transactionNumber }]);
      expect(await journal(svc, before)).toHaveLength(1);

      // Its answer told the new day: known again, and the title free on it.
      expect(await quote(svc)).toEqual({
        day: after,
        dayCertainty: 'EXACT',
        expectedTotal: '0.00',
        lines: [{ alreadyChargedToday: true, expectedFee: '0.00' }],
      });
      expect(await buy(svc, '0')).toMatchObject({ charges: [], userErrors: [] });
      expect(sent(svc)).toBe(3);
      expect(svc.emulator.ledger.charges).toHaveLength(2);
    });

    test('the first half second after midnight, unheard since just before it: maxFee "0" is never charged', async () => {
      const { svc, passes } = await serviceAt(M - 5 * 60_000, skewMs);
      expect((await buy(svc)).charges).toHaveLength(1);
      passes(5 * 60_000 - 100); // 23:59:59.9: its Date header says 23:59:59
      await hearRegister(svc);
      passes(300); // 00:00:00.2, which the header's second plus half a second puts at 23:59:59.8
      const result = await buy(svc, '0');
      expect(svc.emulator.ledger.charges.map((c) => londonDate(c.at))).toEqual([before]);
      expect(sent(svc)).toBe(1);
      expect(result).toMatchObject({ charges: [], userErrors: [{ code: 'CHARGE_ABOVE_MAXIMUM' }] });
      expect(await journal(svc, after)).toEqual([]);
    });

    test('heard at midnight itself, the new day is known: the quote is exact, in full, and maxFee "0" refused in plain words', async () => {
      const { svc, passes } = await serviceAt(M - 5 * 60_000, skewMs);
      expect((await buy(svc)).charges).toHaveLength(1);
      passes(5 * 60_000);
      await hearRegister(svc);
      expect(await quote(svc)).toEqual({
        day: after,
        dayCertainty: 'EXACT',
        expectedTotal: '3.00',
        lines: [{ alreadyChargedToday: false, expectedFee: '3.00' }],
      });
      const [refused] = (await buy(svc, '0')).userErrors;
      expect(refused!.code).toBe('CHARGE_ABOVE_MAXIMUM');
      expect(refused!.message).not.toContain('about to change');
      expect(sent(svc)).toBe(1);
      expect(ledgerDays(svc)).toEqual([before]);
    });
  });
});

describe("the window: the register's clock as its latest Date header bounds it", () => {
  const M = Date.parse('2026-01-16T00:00:00Z');
  const days = async (svc: Service) => {
    const { body } = await postRaw(svc.yoga, {
      query: `{ chargeQuote(fas: "${FAS}", titleNumber: "${TITLE}", products: [TITLE_DATA_AND_PLANS]) { day dayCertainty expectedTotal } spending { day dayCertainty } }`,
    });
    expect(body.errors).toBeUndefined();
    return body.data;
  };

  test('a purchase is held from the call deadline (30 s) and a second before midnight; any answer, up to a second after it', async () => {
    const { svc, passes } = await serviceAt(M - 60_000, 0);
    await buy(svc);
    // A minute before midnight a purchase sent now reaches the register before it, at the latest.
    expect(await days(svc)).toEqual({
      chargeQuote: { day: '2026-01-15', dayCertainty: 'EXACT', expectedTotal: '0.00' },
      spending: { day: '2026-01-15', dayCertainty: 'EXACT' },
    });
    passes(28_000); // 32 s before midnight, by the register's answer of 28 s ago: 1 s + 30 s + drift short of it
    expect(await days(svc)).toMatchObject({ chargeQuote: { dayCertainty: 'EXACT', expectedTotal: '0.00' } });
    passes(2_000); // 30 s before: a purchase may reach the register after its midnight; spending is about now
    expect(await days(svc)).toEqual({
      chargeQuote: { day: '2026-01-16', dayCertainty: 'NEAR_MIDNIGHT', expectedTotal: '3.00' },
      spending: { day: '2026-01-15', dayCertainty: 'EXACT' },
    });
    passes(29_700); // 0.3 s before, by an answer of 59.7 s ago: within a second of midnight
    expect((await days(svc)).spending).toMatchObject({ dayCertainty: 'NEAR_MIDNIGHT' });
    await hearRegister(svc); // its Date says 23:59:59: the register is somewhere in that second
    passes(600); // 0.3 s after midnight, unheard since
    expect((await days(svc)).spending).toEqual({ day: '2026-01-16', dayCertainty: 'NEAR_MIDNIGHT' });
    passes(800); // 1.1 s after: past the second the header named, plus the time since
    expect(await days(svc)).toEqual({
      chargeQuote: { day: '2026-01-16', dayCertainty: 'EXACT', expectedTotal: '3.00' },
      spending: { day: '2026-01-16', dayCertainty: 'EXACT' },
    });
    expect(sent(svc)).toBe(1);
  });
});

describe('the daily limits near midnight', () => {
  test("are those of the register's day now: the day before's limit, used up, refuses a purchase in its last half minute unsent", async () => {
    const M = Date.parse('2026-06-10T23:00:00Z');
    const svc = await serviceForTest({
      emulator: { now: () => new Date(0) },
      services: { spend: { feesPence: { TITLE_DATA_AND_PLANS: 300, PENDING_APPLICATIONS: 300 }, clientLimitPence: 300 } },
    });
    svc.emulator.clock.set(new Date(M - 10 * 60_000));
    vi.spyOn(performance, 'now').mockImplementation(() => 1_000_000);
    expect((await buy(svc)).charges).toHaveLength(1); // the 10th's limit used up
    svc.emulator.clock.set(new Date(M - 20_000));
    await hearRegister(svc);
    const { data } = await svc.gql(BuyTitleMutation, { fas: FAS, input: { titleNumber: 'MID1234', idempotencyKey: newKey('limit') } });
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(1);
    expect(ledgerDays(svc)).toEqual(['2026-06-10']);
    expect(data!.purchaseTitleDetails.userErrors).toEqual([expect.objectContaining({ code: 'SPEND_LIMIT_REACHED' })]);
    expect(data!.purchaseTitleDetails.userErrors[0]!.message).toContain('has 0.00 left for 2026-06-10');
  });
});

describe("a fresh process's first free answers", () => {
  /** A register day three days after the machine's, at noon (UTC): the same London date in any season. */
  const registerDay = () => new Date(Date.parse(`${londonDate(new Date())}T12:00:00Z`) + 3 * 86_400_000).toISOString().slice(0, 10);

  test.each([
    ['chargeQuote', `{ chargeQuote(fas: "${FAS}", titleNumber: "${TITLE}", products: [TITLE_DATA_AND_PLANS]) { day dayCertainty } }`],
    ['spending', '{ spending { day dayCertainty } }'],
    ['registerUsage', '{ registerUsage { day dayCertainty } }'],
  ])("%s is on the register's day, asked first with a sign-in and nothing else", async (field, query) => {
    const svc = await serviceForTest();
    const day = registerDay();
    svc.emulator.clock.set(new Date(`${day}T12:00:00Z`));
    const { body } = await postRaw(svc.yoga, { query });
    expect(body.errors).toBeUndefined();
    expect(body.data[field]).toEqual({ day, dayCertainty: 'EXACT' });
    expect(svc.emulator.calls.list().map((c) => c.route)).toEqual(['token']);
    expect(svc.emulator.ledger.charges).toEqual([]);
  });

  test("when the register cannot be asked, the answer is given on this machine's clock and says so; the quote expects the list fee", async () => {
    const svc = await serviceForTest();
    await svc.emulator.close();
    const { body } = await postRaw(svc.yoga, {
      query: `{ chargeQuote(fas: "${FAS}", titleNumber: "${TITLE}", products: [TITLE_DATA_AND_PLANS]) { day dayCertainty expectedTotal } spending { day dayCertainty } }`,
    });
    expect(body.errors).toBeUndefined();
    const machineDay = londonDate(new Date());
    expect(body.data).toEqual({
      chargeQuote: { day: machineDay, dayCertainty: 'MACHINE_CLOCK', expectedTotal: '3.00' },
      spending: { day: machineDay, dayCertainty: 'MACHINE_CLOCK' },
    });
  });
});

const pgSuite = await postgresSuite();
describe.skipIf(!pgSuite.run)(pgSuite.title('on PostgreSQL'), () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('midnight');
  }, 60_000);
  afterAll(() => database?.drop());

  test('just after midnight, unheard since just before it: maxFee "0" is refused unsent; an adequate one is charged once, on the new day', async () => {
    const M = Date.parse('2026-10-26T00:00:00Z');
    const { svc, passes } = await serviceAt(M - 5 * 60_000, 1_500, { databaseUrl: database.url });
    expect((await buy(svc)).charges).toHaveLength(1);
    passes(5 * 60_000 - 100);
    await hearRegister(svc);
    passes(300);
    expect(await buy(svc, '0')).toMatchObject({ charges: [], userErrors: [{ code: 'CHARGE_ABOVE_MAXIMUM' }] });
    expect(sent(svc)).toBe(1);
    const bought = await buy(svc, '3.00');
    expect(ledgerDays(svc)).toEqual(['2026-10-25', '2026-10-26']);
    const transactionNumber = svc.emulator.ledger.charges[1]!.charge.transactionNumber;
    expect(bought.charges).toEqual([expect.objectContaining({ transactionNumber })]);
    expect(await journal(svc, '2026-10-26')).toEqual([{ status: 'CHARGED', transactionNumber }]);
  });
});
