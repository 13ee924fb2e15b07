/**
 * A caller is a principal, never a bare name: a key `ann` and a person `ann` at each of two
 * identity providers, all on one register client, are three callers. None reads, replays or
 * spends another's: judged on the journal, the emulator's call log and ledger, and `spending`.
 */
import { expect, test } from 'vitest';
import { londonDate } from '../../src/register/contract/london-day';
import { DEV_API_KEYS, sha256Hex } from '../../src/services/callers';
import { BuyTitleMutation, CallerSpendingQuery, PrincipalQuery, PrincipalRecordsQuery, StatementPageQuery } from '../support/documents';
import { serviceForTest } from '../support/harness';
import { tokenIssuerForTest } from '../support/token-issuer';

const NO_WAITS = { timing: { jwksCooldownMs: 0, failureBackoffMs: 0 } };
const today = () => londonDate(new Date());

test('a key `ann` and persons `ann` at two providers on one client: three callers, none sees, replays or spends another’s', async () => {
  const [one, two] = [await tokenIssuerForTest(), await tokenIssuerForTest()];
  const svc = await serviceForTest({
    services: {
      apiKeys: [
        ...DEV_API_KEYS,
        {
          name: 'ann',
          apiKeySha256: sha256Hex('ann-key'),
          clientId: 'client-a',
          clientSecret: 'secret-a',
          organisation: 'ORG-A',
          dailySpendLimit: 300,
        },
      ],
      identityProviders: [
        one.provider({ name: 'idp-one', dailySpendLimitPerPerson: 300 }),
        two.provider({ name: 'idp-two', dailySpendLimitPerPerson: 300 }),
      ],
      identity: NO_WAITS,
      anonymousKey: undefined,
    },
  });
  const callers = { key: 'ann-key', personOne: await one.sign({ sub: 'ann' }), personTwo: await two.sign({ sub: 'ann' }) };

  const who = async (credential: string) => (await svc.gql(PrincipalQuery, {}, credential)).data!.viewer;
  expect(await who(callers.key)).toEqual({ id: 'key:ann', kind: 'API_KEY', provider: 'keys', subject: 'ann', callerName: null });
  expect(await who(callers.personOne)).toMatchObject({ id: 'person:idp-one:ann', kind: 'PERSON', provider: 'idp-one', subject: 'ann' });
  expect(await who(callers.personTwo)).toMatchObject({ id: 'person:idp-two:ann', kind: 'PERSON', provider: 'idp-two', subject: 'ann' });

  // The key buys; each person replays its idempotency key with the same input: refused, never the paid answer.
  const purchase = { fas: '0877', input: { titleNumber: 'BLK1', idempotencyKey: 'ann-buys-blk1' } };
  const paid = await svc.gql(BuyTitleMutation, purchase, callers.key);
  expect(paid.data!.purchaseTitleDetails.userErrors).toEqual([]);
  for (const person of [callers.personOne, callers.personTwo]) {
    const replay = await svc.gql(BuyTitleMutation, purchase, person);
    expect(replay.data!.purchaseTitleDetails).toMatchObject({ charges: [], userErrors: [{ code: 'IDEMPOTENCY_KEY_REUSED' }] });
    expect(JSON.stringify(replay)).not.toContain(svc.emulator.ledger.charges[0]!.charge.transactionNumber);
  }
  expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(1);

  // Each person spends their own 3.00: the key's purchase counts against nobody else's limit.
  for (const [person, titleNumber] of [
    [callers.personOne, 'BLK2'],
    [callers.personTwo, 'BLK3'],
  ] as const) {
    const spending = (await svc.gql(CallerSpendingQuery, {}, person)).data!.spending;
    expect(spending.caller).toEqual({ charged: '0.00', pending: '0.00', limit: '3.00', remaining: '3.00' });
    const bought = await svc.gql(
      BuyTitleMutation,
      { fas: '0877', input: { titleNumber, idempotencyKey: `ann-buys-${titleNumber}` } },
      person,
    );
    expect(bought.data!.purchaseTitleDetails.userErrors).toEqual([]);
  }
  expect(svc.emulator.ledger.charges.map((c) => c.titleNumber)).toEqual(['BLK1', 'BLK2', 'BLK3']);
  for (const credential of Object.values(callers)) {
    expect((await svc.gql(CallerSpendingQuery, {}, credential)).data!.spending.caller).toMatchObject({
      charged: '3.00',
      remaining: '0.00',
    });
  }

  // Each reads its own journal only; the accounts key tells them apart by id, and a bare name still names all three.
  const records = async (credential: string) =>
    (await svc.gql(PrincipalRecordsQuery, { day: today() }, credential)).data!.chargeRecords.map((r) => [r.titleNumber, r.callerId]);
  expect(await records(callers.key)).toEqual([['BLK1', 'key:ann']]);
  expect(await records(callers.personOne)).toEqual([['BLK2', 'person:idp-one:ann']]);
  expect(await records(callers.personTwo)).toEqual([['BLK3', 'person:idp-two:ann']]);
  const statement = async (caller: string) =>
    (await svc.gql(StatementPageQuery, { from: today(), to: today(), caller }, 'dev-key-a')).data!.chargeStatement.records.map(
      (r) => r.titleNumber,
    );
  expect(await statement('person:idp-one:ann')).toEqual(['BLK2']);
  expect(await statement('key:ann')).toEqual(['BLK1']);
  expect((await statement('ann')).sort()).toEqual(['BLK1', 'BLK2', 'BLK3']);
  const asked = await svc.gql(StatementPageQuery, { from: today(), to: today(), caller: 'key:ann' }, callers.personOne);
  expect(asked.errors?.[0]).toMatchObject({ extensions: { code: 'FORBIDDEN' } });
}, 60_000);
