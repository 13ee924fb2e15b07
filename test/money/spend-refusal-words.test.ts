/**
 * A SPEND_LIMIT_REACHED refusal says how much of the limit calls whose outcome is unknown hold,
 * and where to see them: and they are there. Judged on the emulator's ledger and call log:
 * the refused call is never sent.
 */
import { describe, expect, test } from 'vitest';
import { londonDate } from '../../src/register/contract/london-day';
import { BuyTitleMutation, ChargeRecordsQuery, ChargeStatementQuery } from '../support/documents';
import { newKey, serviceForTest } from '../support/harness';

const buy = (titleNumber: string) => ({ fas: '0877', input: { titleNumber, idempotencyKey: newKey('words') } });
const FEES = { TITLE_DATA_AND_PLANS: 300, PENDING_APPLICATIONS: 300 };

describe('SPEND_LIMIT_REACHED names what unknown outcomes hold', () => {
  test("a client's limit: the held amount, and chargeRecords, which lists the call", async () => {
    const svc = await serviceForTest({ services: { spend: { feesPence: FEES, clientLimitPence: 600 } } });
    svc.emulator.faults.inject('titleDetails', { kind: 'reset', phase: 'after' }, 1);
    expect((await svc.gql(BuyTitleMutation, buy('BLK1'))).data!.purchaseTitleDetails.userErrors[0]!.code).toBe('OUTCOME_UNKNOWN');
    expect((await svc.gql(BuyTitleMutation, buy('BLK2'))).data!.purchaseTitleDetails.charges).toHaveLength(1);

    const refused = (await svc.gql(BuyTitleMutation, buy('BLK3'))).data!.purchaseTitleDetails.userErrors;
    const day = londonDate(svc.services.registerNow());
    expect(refused).toEqual([
      {
        code: 'SPEND_LIMIT_REACHED',
        field: null,
        message:
          `This call is expected to charge 3.00 (before VAT), but your API client's daily spending limit of 6.00 has 0.00 left for ${day}. ` +
          'Nothing was sent to the register. 3.00 of the limit is held by calls whose outcome is not known (their answer was lost, or they ' +
          `are still at the register): they count as spent. chargeRecords(day: "${day}") lists them (status OUTCOME_UNKNOWN), to check ` +
          "against the register's invoice. The limit resets at midnight, London time.",
      },
    ]);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(2);
    expect(svc.emulator.ledger.charges.map((c) => c.titleNumber)).toEqual(['BLK1', 'BLK2']);
    // Where the message points: the call of unknown outcome is there.
    const records = (await svc.gql(ChargeRecordsQuery, { day })).data!.chargeRecords;
    expect(records.filter((r) => r.status === 'OUTCOME_UNKNOWN').map((r) => r.titleNumber)).toEqual(['BLK1']);
  });

  test("an organisation's limit: another client's unknown outcome counts, and an accounts key's chargeStatement lists it", async () => {
    const svc = await serviceForTest({ services: { spend: { feesPence: FEES, organisationLimitPence: 300 } } });
    svc.emulator.faults.inject('titleDetails', { kind: 'reset', phase: 'after' }, 1);
    await svc.gql(BuyTitleMutation, buy('BLK1'), 'dev-key-a2');

    const refused = (await svc.gql(BuyTitleMutation, buy('BLK2'), 'dev-key-a')).data!.purchaseTitleDetails.userErrors[0]!;
    const day = londonDate(svc.services.registerNow());
    expect(refused.code).toBe('SPEND_LIMIT_REACHED');
    expect(refused.message).toContain("your organisation's daily spending limit of 3.00 has 0.00 left");
    expect(refused.message).toContain(
      `3.00 of the limit is held by calls whose outcome is not known (their answer was lost, or they are still at the register): they count as spent. chargeStatement(from: "${day}", to: "${day}") with an accounts key lists them for every API client of your organisation (status OUTCOME_UNKNOWN), to check against the register's invoice.`,
    );
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(1);
    const statement = (await svc.gql(ChargeStatementQuery, { from: day, to: day }, 'dev-key-a')).data!.chargeStatement;
    expect(statement.records.map((r) => [r.apiClient, r.status])).toEqual([['client-a2', 'OUTCOME_UNKNOWN']]);
  });

  test("a client's limit counts only its own unknown outcomes: a sibling client's lost answer is not held against it", async () => {
    const svc = await serviceForTest({ services: { spend: { feesPence: FEES, clientLimitPence: 300 } } });
    svc.emulator.faults.inject('titleDetails', { kind: 'reset', phase: 'after' }, 1);
    const lost = (await svc.gql(BuyTitleMutation, buy('BLK1'), 'dev-key-a2')).data!.purchaseTitleDetails.userErrors[0]!;
    expect(lost.code).toBe('OUTCOME_UNKNOWN');
    expect((await svc.gql(BuyTitleMutation, buy('BLK2'), 'dev-key-a')).data!.purchaseTitleDetails.charges).toHaveLength(1);

    const refused = (await svc.gql(BuyTitleMutation, buy('BLK3'), 'dev-key-a')).data!.purchaseTitleDetails.userErrors[0]!;
    expect(refused.code).toBe('SPEND_LIMIT_REACHED');
    expect(refused.message).toContain("your API client's daily spending limit of 3.00 has 0.00 left");
    expect(refused.message).not.toMatch(/outcome is not known|OUTCOME_UNKNOWN/);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(2);
  });

  test('with nothing of unknown outcome, the refusal says nothing of it', async () => {
    const svc = await serviceForTest({ services: { spend: { feesPence: FEES, clientLimitPence: 300 } } });
    await svc.gql(BuyTitleMutation, buy('BLK1'));
    const refused = (await svc.gql(BuyTitleMutation, buy('BLK2'))).data!.purchaseTitleDetails.userErrors[0]!;
    expect(refused.code).toBe('SPEND_LIMIT_REACHED');
    expect(refused.message).not.toMatch(/outcome is not known|OUTCOME_UNKNOWN/);
    expect(refused.message).toMatch(/Nothing was sent to the register\. The limit resets at midnight, London time\.$/);
  });
});
