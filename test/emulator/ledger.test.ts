/**
 * The emulator's charging ledger, pinned where the register's money rules live: fee arithmetic
 * in pence, the exact credit-limit boundary, one charge per (FAS, title, product, London day),
 * transaction numbers, and the ledger's filters.
 */
import { describe, expect, test } from 'vitest';
import { Ledger } from '../../src/emulator/ledger';
import type { FasAccount } from '../../src/emulator/seed/organisations';

/** An account outside the fixtures: its balance starts at 0. */
const account = (creditLimitPence: number, fas = 'T001'): FasAccount => ({
  fas,
  organisation: 'ORG-T',
  kind: 'title',
  creditLimitPence,
  openingBalancePence: 0,
});
const NOON = new Date('2026-03-10T12:00:00Z');
const request = (
  acct: FasAccount,
  titleNumber = 'MID1',
  products: ('TITLE_DATA_AND_PLANS' | 'PENDING_APPLICATIONS')[] = ['TITLE_DATA_AND_PLANS'],
  now = NOON,
) => ({
  account: acct,
  titleNumber,
  products,
  clientId: 'client-t',
  organisation: 'ORG-T',
  now,
});
const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (error) {
    return error as { status: number; code: string; field?: string };
  }
  return undefined;
};

describe('credit limit', () => {
  test('charges that reach the limit exactly are allowed; one penny over is refused with 402 on fas', () => {
    const ledger = new Ledger({ TITLE_DATA_AND_PLANS: '12.34', PENDING_APPLICATIONS: '0.05' });
    const exact = account(1239);
    expect(ledger.charge(request(exact, 'MID1', ['TITLE_DATA_AND_PLANS', 'PENDING_APPLICATIONS']))).toHaveLength(2);

    const ledger2 = new Ledger({ TITLE_DATA_AND_PLANS: '12.34', PENDING_APPLICATIONS: '0.05' });
    const short = account(1238);
    expect(refusal(() => ledger2.charge(request(short, 'MID1', ['TITLE_DATA_AND_PLANS', 'PENDING_APPLICATIONS'])))).toMatchObject({
      status: 402,
      code: 'CREDIT_LIMIT_EXCEEDED',
      field: 'fas',
    });
    expect(ledger2.charges).toHaveLength(0);
  });

  test('the balance grows by each fee: the charge that would pass the limit is refused, earlier ones stand', () => {
    const ledger = new Ledger(); // 3.00 a product
    const acct = account(600);
    ledger.charge(request(acct, 'MID1'));
    ledger.charge(request(acct, 'MID2'));
    expect(refusal(() => ledger.charge(request(acct, 'MID3')))).toMatchObject({
      status: 402,
      message: 'fas: account T001 is at its credit limit',
    });
    expect(ledger.count({ fas: 'T001' })).toBe(2);
  });

  test('an account at its limit can still ask again for what it bought today: nothing new, no 402', () => {
    const ledger = new Ledger();
    const acct = account(300);
    expect(ledger.charge(request(acct, 'MID1'))).toHaveLength(1);
    expect(ledger.charge(request(acct, 'MID1'))).toEqual([]);
    expect(() => ledger.assertCredit(request(acct, 'MID1'))).not.toThrow();
    expect(refusal(() => ledger.assertCredit(request(acct, 'MID2')))).toMatchObject({ code: 'CREDIT_LIMIT_EXCEEDED' });
  });

  test('a fixture account starts from its opening balance', () => {
    const ledger = new Ledger();
    // FAS 9999 is the fixture account already at its credit limit.
    const atLimit: FasAccount = {
      fas: '9999',
      organisation: 'ORG-A',
      kind: 'title',
      creditLimitPence: 10_000,
      openingBalancePence: 10_000,
    };
    expect(refusal(() => ledger.charge(request(atLimit)))).toMatchObject({ status: 402 });
  });
});

describe('one charge per FAS, title, product and London day', () => {
  test('each part of the key on its own makes a new charge', () => {
    const ledger = new Ledger();
    const a = account(1_000_000, 'A001');
    const b = account(1_000_000, 'B001');
    expect(ledger.charge(request(a, 'MID1'))).toHaveLength(1);
    expect(ledger.charge(request(a, 'MID1'))).toHaveLength(0);
    expect(ledger.charge(request(b, 'MID1'))).toHaveLength(1); // another FAS
    expect(ledger.charge(request(a, 'MID2'))).toHaveLength(1); // another title
    expect(ledger.charge(request(a, 'MID1', ['PENDING_APPLICATIONS']))).toHaveLength(1); // another product
    expect(ledger.charge(request(a, 'MID1', ['TITLE_DATA_AND_PLANS'], new Date('2026-03-11T00:30:00Z')))).toHaveLength(1); // next day
    // 23:30 UTC on 10 March is still 10 March in London (GMT): already charged.
    expect(ledger.charge(request(a, 'MID1', ['TITLE_DATA_AND_PLANS'], new Date('2026-03-10T23:30:00Z')))).toHaveLength(0);
    expect(ledger.charges).toHaveLength(5);
  });

  test('the London day in summer: 23:30 UTC is already the next day', () => {
    const ledger = new Ledger();
    const a = account(1_000_000);
    ledger.charge(request(a, 'MID1', ['TITLE_DATA_AND_PLANS'], new Date('2026-07-01T12:00:00Z')));
    expect(ledger.charge(request(a, 'MID1', ['TITLE_DATA_AND_PLANS'], new Date('2026-07-01T23:30:00Z')))).toHaveLength(1);
  });
});

describe('the charges', () => {
  test('carry the wire shape, the configured fee text, the reference when given, and sequential transaction numbers', () => {
    const ledger = new Ledger({ PENDING_APPLICATIONS: '7.50' });
    const acct = account(1_000_000);
    const [first, second] = ledger.charge({
      ...request(acct, 'MID9', ['TITLE_DATA_AND_PLANS', 'PENDING_APPLICATIONS']),
      reference: 'Ref 1',
    });
    expect(first).toEqual({
      status: 'NEW',
      productType: 'TITLE_DATA_AND_PLANS',
      details: 'Title data, title sheet and plans: MID9',
      fee: '3.00',
      fas: 'T001',
      transactionNumber: 'RT202603100000001',
      reference: 'Ref 1',
    });
    expect(second).toMatchObject({
      productType: 'PENDING_APPLICATIONS',
      fee: '7.50',
      details: 'Advance notices and pending applications: MID9',
      transactionNumber: 'RT202603100000002',
    });
    const [third] = ledger.charge(request(acct, 'MID8'));
    expect(third).not.toHaveProperty('reference');
    expect(third!.transactionNumber).toBe('RT202603100000003');
    expect(ledger.charges.map((e) => [e.clientId, e.organisation, e.titleNumber, e.at])).toEqual([
      ['client-t', 'ORG-T', 'MID9', NOON],
      ['client-t', 'ORG-T', 'MID9', NOON],
      ['client-t', 'ORG-T', 'MID8', NOON],
    ]);
  });

  test.each(['3', '3.0', '3.000', '-1.00', 'abc', ' 3.00'])('a fee written %j is refused when the ledger is made', (fee) => {
    expect(() => new Ledger({ TITLE_DATA_AND_PLANS: fee })).toThrow(TypeError);
    expect(() => new Ledger({ TITLE_DATA_AND_PLANS: fee })).toThrow(JSON.stringify(fee));
  });

  test('count filters by FAS, title, product and client, each on its own', () => {
    const ledger = new Ledger();
    ledger.charge(request(account(1_000_000, 'A001'), 'MID1', ['TITLE_DATA_AND_PLANS', 'PENDING_APPLICATIONS']));
    ledger.charge({ ...request(account(1_000_000, 'B001'), 'MID2'), clientId: 'client-u' });
    expect(ledger.count()).toBe(3);
    expect(ledger.count({ fas: 'A001' })).toBe(2);
    expect(ledger.count({ titleNumber: 'MID2' })).toBe(1);
    expect(ledger.count({ productType: 'PENDING_APPLICATIONS' })).toBe(1);
    expect(ledger.count({ clientId: 'client-u' })).toBe(1);
    expect(ledger.count({ fas: 'A001', titleNumber: 'MID2' })).toBe(0);
  });
});
