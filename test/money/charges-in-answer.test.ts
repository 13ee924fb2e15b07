/**
 * No charge is ever missing from an answer, whatever else fails and whatever the caller selects:
 * an exception inside a chargeable payload after the register charged, charges left out or
 * skipped (both executors, and their replays), and the database going away while a purchase is
 * at the register. Judged on the emulator's ledger and on the journal after recovery; requests
 * refused during the outage are told that nothing was sent.
 */
import { defaultFieldResolver, type GraphQLObjectType } from 'graphql';
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { PgIdempotencyStore } from '../../src/storage/idempotency/pg-store';
import { buildSchema } from '../../src/graphql/schema';
import { createTestDatabase, postgresSuite, setDatabaseReachable, type TestDatabase } from '../support/pg';
import { newKey, type Service, serviceForTest } from '../support/harness';
import { postRaw } from '../support/post-raw';
import { parseMetrics, sum } from '../support/prometheus';

const PURCHASE = `mutation Buy($input: PurchaseTitleInput!) {
  purchaseTitleDetails(fas: "0877", input: $input) { charges { fee transactionNumber } userErrors { code message } }
}`;

/** A purchase of `titleNumber` on FAS 0877 under `idempotencyKey`, its whole answer (extensions included). */
const purchase = (svc: Service, titleNumber: string, idempotencyKey: string) =>
  postRaw(svc.yoga, { query: PURCHASE, variables: { input: { titleNumber, idempotencyKey } } });

/**
 * The payload's userErrors resolver, made to throw (`fail()`) once the answer's charges are known: a
 * bug after the register charged. In place before the first request, as graphql-jit takes the
 * resolvers as they are when it compiles; put back when the test ends.
 */
function payloadThatCanFail(): { fail(): void } {
  const payload = buildSchema().getType('PurchaseTitleDetailsPayload') as GraphQLObjectType;
  const field = payload.getFields().userErrors!;
  const resolve = field.resolve;
  let failing = false;
  field.resolve = (source, args, context, info) => {
    if (failing) throw new Error('a bug after the register charged');
    return (resolve ?? defaultFieldResolver)(source, args, context, info);
  };
  onTestFinished(() => {
    field.resolve = resolve;
  });
  return {
    fail() {
      failing = true;
    },
  };
}

describe.each([
  ['graphql-js', false as const],
  ['graphql-jit', { compileAfter: 1 }],
])('an exception inside a chargeable payload after the register charged (%s)', (_, jit) => {
  test('the answer loses data to null propagation but lists the charge in extensions.charges, as the ledger has it', async () => {
    const svc = await serviceForTest({ app: { jit } });
    const payload = payloadThatCanFail();
    // A warm-up run, so that graphql-jit compiles the document before the fault (compileAfter 1).
    const warm = await purchase(svc, 'BLK1', newKey());
    expect(warm.body.errors).toBeUndefined();
    payload.fail();
    const key = newKey();
    const answer = await purchase(svc, 'BLK2', key);
    expect(answer.body.data).toBeNull();
    const ledger = svc.emulator.ledger.charges.filter((c) => c.titleNumber === 'BLK2');
    expect(ledger).toHaveLength(1);
    expect(answer.body.extensions?.charges).toEqual([
      expect.objectContaining({
        operation: 'purchaseTitleDetails',
        idempotencyKey: key,
        fee: ledger[0]!.charge.fee,
        transactionNumber: ledger[0]!.charge.transactionNumber,
      }),
    ]);
  });

  test('a replay that fails after reading the stored answer still lists the charge; one that charged nothing lists none', async () => {
    const svc = await serviceForTest({ app: { jit } });
    const payload = payloadThatCanFail();
    const charged = newKey();
    const first = await purchase(svc, 'BLK1', charged);
    expect(first.body.errors).toBeUndefined();
    // Bought today already, under another key: the register charges nothing the second time.
    const free = newKey();
    expect((await purchase(svc, 'BLK1', free)).body.data).toEqual({ purchaseTitleDetails: { charges: [], userErrors: [] } });
    payload.fail();
    const replay = await purchase(svc, 'BLK1', charged);
    expect(replay.body.data).toBeNull();
    const [made] = svc.emulator.ledger.charges;
    expect(replay.body.extensions?.charges).toEqual([
      expect.objectContaining({
        operation: 'purchaseTitleDetails',
        idempotencyKey: charged,
        fee: made!.charge.fee,
        transactionNumber: made!.charge.transactionNumber,
      }),
    ]);
    const freeReplay = await purchase(svc, 'BLK1', free);
    expect(freeReplay.body.data).toBeNull();
    expect(freeReplay.body.extensions?.charges).toBeUndefined();
    // Not a replay: sent now, charged nothing, and the answer fails the same way.
    const freeNow = await purchase(svc, 'BLK1', newKey());
    expect(freeNow.body.data).toBeNull();
    expect(freeNow.body.extensions?.charges).toBeUndefined();
    // Replays are answered from the store: the register was asked three times in all, and charged once.
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(3);
    expect(svc.emulator.ledger.count()).toBe(1);
  });
});

/** Purchases whose answer selects no charge of its own accord: `$input` and `$hide` (true) are their variables. */
const UNSELECTED: [string, string][] = [
  [
    'charges left out',
    'mutation Buy($input: PurchaseTitleInput!) { purchaseTitleDetails(fas: "0877", input: $input) { userErrors { code } } }',
  ],
  [
    'charges @skip(if: true)',
    'mutation Buy($input: PurchaseTitleInput!) { purchaseTitleDetails(fas: "0877", input: $input) { charges @skip(if: true) { fee transactionNumber } userErrors { code } } }',
  ],
  [
    'charges @include(if: false)',
    'mutation Buy($input: PurchaseTitleInput!) { purchaseTitleDetails(fas: "0877", input: $input) { charges @include(if: false) { fee transactionNumber } userErrors { code } } }',
  ],
  [
    'charges @skip(if: $hide), $hide true',
    'mutation Buy($input: PurchaseTitleInput!, $hide: Boolean!) { purchaseTitleDetails(fas: "0877", input: $input) { charges @skip(if: $hide) { fee transactionNumber } userErrors { code } } }',
  ],
  [
    'a fragment with the charges, @include(if: false) on its spread',
    `mutation Buy($input: PurchaseTitleInput!) { purchaseTitleDetails(fas: "0877", input: $input) { ...Paid @include(if: false) userErrors { code } } }
     fragment Paid on PurchaseTitleDetailsPayload { charges { fee transactionNumber } }`,
  ],
  [
    'the purchase in a fragment on Mutation, its charges in an inline fragment @skip(if: $hide) leaves out',
    `mutation Buy($input: PurchaseTitleInput!, $hide: Boolean!) { ...Purchase }
     fragment Purchase on Mutation {
       purchaseTitleDetails(fas: "0877", input: $input) { ... on PurchaseTitleDetailsPayload @skip(if: $hide) { charges { fee transactionNumber } } userErrors { code } }
     }`,
  ],
  [
    'charges without their transaction numbers',
    'mutation Buy($input: PurchaseTitleInput!) { purchaseTitleDetails(fas: "0877", input: $input) { charges { fee } userErrors { code } } }',
  ],
];

describe.each([
  ['graphql-js', false as const],
  ['graphql-jit', { compileAfter: 1 }],
])('a purchase whose answer does not select its charges (%s)', (_, jit) => {
  /** Buys `titleNumber` with `query` under `key`; the ledger's charge for it must be in the bytes received, under extensions.charges. */
  async function expectChargeInExtensions(svc: Service, query: string, titleNumber: string, key: string) {
    const answer = await postRaw(svc.yoga, { query, variables: { input: { titleNumber, idempotencyKey: key }, hide: true } });
    expect(answer.status).toBe(200);
    expect(answer.body.errors).toBeUndefined();
    const ledger = svc.emulator.ledger.charges.filter((c) => c.titleNumber === titleNumber);
    expect(ledger).toHaveLength(1);
    const { fee, transactionNumber } = ledger[0]!.charge;
    expect(answer.body.extensions?.charges).toEqual([
      expect.objectContaining({ operation: 'purchaseTitleDetails', idempotencyKey: key, fee, transactionNumber, fas: '0877' }),
    ]);
    expect(answer.text).toContain(transactionNumber);
    return answer;
  }

  test.each(UNSELECTED)('%s: the charge is under extensions.charges, as the ledger has it, each run', async (_, query) => {
    const svc = await serviceForTest({ app: { jit } });
    // Twice: on graphql-jit the second run is compiled (compileAfter 1).
    for (const titleNumber of ['BLK1', 'BLK2']) await expectChargeInExtensions(svc, query, titleNumber, newKey());
    expect(svc.emulator.ledger.count()).toBe(2);
    const metrics = parseMetrics(await (await svc.get('/metrics')).text());
    expect(sum(metrics, 'titlegraph_graphql_compilations_total', { outcome: 'compiled' })).toBe(jit ? 1 : 0);
  });

  test('a replay of such a purchase (the same answer again) carries the charge the same way', async () => {
    const svc = await serviceForTest({ app: { jit } });
    const [, query] = UNSELECTED[0]!;
    const key = newKey();
    const first = await expectChargeInExtensions(svc, query, 'BLK1', key);
    const again = await expectChargeInExtensions(svc, query, 'BLK1', key);
    expect(again.text).toBe(first.text);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(1);
  });

  test('a purchase that selects its charges has them in data only, first and on replay', async () => {
    const svc = await serviceForTest({ app: { jit } });
    const key = newKey();
    for (let i = 0; i < 2; i++) {
      const answer = await purchase(svc, 'BLK1', key);
      const [made] = svc.emulator.ledger.charges;
      expect(answer.body).toEqual({
        data: {
          purchaseTitleDetails: { charges: [{ fee: made!.charge.fee, transactionNumber: made!.charge.transactionNumber }], userErrors: [] },
        },
      });
    }
    expect(svc.emulator.ledger.count()).toBe(1);
  });
});

const pgSuite = await postgresSuite();
describe.skipIf(!pgSuite.run)(pgSuite.title('the database goes away while a purchase is at the register'), () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('outage');
  }, 60_000);
  afterAll(async () => {
    await setDatabaseReachable(database.name, true).catch(() => undefined);
    await database?.drop();
  });

  test('the caller sees the charge, the journal gets it after recovery, and calls refused meanwhile say nothing was sent', async () => {
    const svc = await serviceForTest({
      emulator: { latencyMs: 600 },
      services: { idempotency: new PgIdempotencyStore({ connectionString: database.url }), databaseUrl: database.url },
    });
    try {
      // Tables, token and pools ready before the outage.
      expect((await purchase(svc, 'BLK1', newKey())).body.errors).toBeUndefined();

      const key = newKey('in-flight');
      const inFlight = purchase(svc, 'BLK2', key);
      // The register has charged (its ledger says so) and is about to answer: now the database goes.
      await expect.poll(() => svc.emulator.ledger.count({ titleNumber: 'BLK2' }), { timeout: 10_000, interval: 10 }).toBe(1);
      await setDatabaseReachable(database.name, false);
      const answer = await inFlight;
      const charged = svc.emulator.ledger.charges.find((c) => c.titleNumber === 'BLK2')!.charge;
      expect(answer.body.data?.purchaseTitleDetails?.charges).toEqual([{ fee: charged.fee, transactionNumber: charged.transactionNumber }]);

      // During the outage: refused before anything is sent, and told so.
      const before = svc.emulator.calls.count();
      const refused = await purchase(svc, 'BLK3', newKey());
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('5');
      expect(refused.body.errors).toEqual([
        expect.objectContaining({
          message: expect.stringContaining('nothing was sent to the register'),
          extensions: expect.objectContaining({ code: 'SERVICE_UNAVAILABLE' }),
        }),
      ]);
      expect(svc.emulator.calls.count()).toBe(before);
      expect(svc.emulator.ledger.count({ titleNumber: 'BLK3' })).toBe(0);
      expect(await (await svc.get('/metrics')).text()).toMatch(/^titlegraph_service_unavailable_total [1-9]/m);
      // Not ready while the database is away, and it says which part is missing.
      const notReady = await svc.get('/ready');
      expect(notReady.status).toBe(503);
      expect(await notReady.json()).toMatchObject({ ready: false, database: { reachable: false, error: 'unreachable' } });

      await setDatabaseReachable(database.name, true);
      await expect.poll(async () => (await svc.get('/ready')).status, { timeout: 20_000, interval: 200 }).toBe(200);
      const day = new Date().toISOString().slice(0, 10);
      await expect
        .poll(async () => (await svc.services.idempotency.chargeRecords('client-a', day)).filter((r) => r.idempotencyKey === key), {
          timeout: 20_000,
          interval: 200,
        })
        .toEqual([
          expect.objectContaining({ status: 'CHARGED', charge: expect.objectContaining({ transactionNumber: charged.transactionNumber }) }),
        ]);
    } finally {
      await setDatabaseReachable(database.name, true);
    }
  }, 60_000);
});
