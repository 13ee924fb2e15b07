/**
 * The money-safety fault matrix, through GraphQL over real HTTP to the emulator: every route
 * that charges or creates × every way its answer can be lost × fault before and after the
 * effect. Each case is judged on the emulator's call log and ledger, not only on the answer:
 * at most one register call per key, at most one charge, the caller sees the charge or
 * OUTCOME_UNKNOWN, the replay is identical and sends nothing, and the journal agrees.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Fault, RouteName } from '../../src/emulator';
import { EFFECTFUL_ROUTES, type EffectfulRouteName, ROUTE_LIST } from '../../src/register/contract/routes';
import { buildSchema } from '../../src/graphql/schema';
import { generateTitle } from '../../src/emulator/seed/generated';
import { londonDate } from '../../src/register/contract/london-day';
import {
  AddDeedToCaseMutation,
  ChargeRecordsQuery,
  CreateCaseMutation,
  OrderTitleDocumentMutation,
  PurchasePendingApplicationsMutation,
  PurchaseTitleDetailsMutation,
  PurchaseTitlePlansMutation,
} from '../support/documents';
import { newKey, startService, type GqlResult } from '../support/harness';
import type { AddDeedToCaseInput } from '../gql/graphql';
import { FAULT_TEST_TRANSPORT } from '../support/fault-transport';

type Svc = Awaited<ReturnType<typeof startService>>;
let svc: Svc;

beforeAll(async () => {
  svc = await startService({ services: { transport: FAULT_TEST_TRANSPORT } });
});
afterAll(() => svc.stop());

/** Generated titles, each used by one case only, so that every charge in the ledger belongs to one key. */
const unusedTitles = (() => {
  let next = 1;
  return (withPlans: boolean) => {
    for (;;) {
      const titleNumber = `BLK${next++}`;
      if (!withPlans || (generateTitle(titleNumber)?.plans.length ?? 0) > 0) return titleNumber;
    }
  };
})();

interface Payload {
  charges?: { transactionNumber: string | null; fee: string }[];
  userErrors: { code: string; message: string; field: string[] | null }[];
}

interface EffectfulRoute {
  route: EffectfulRouteName;
  operation: string;
  /** Sends the mutation with this key (same variables every time for one key). */
  send(key: string): Promise<Payload>;
  chargeable: boolean;
}

/**
 * How to reach each route that charges or creates through GraphQL, keyed by the route table's own
 * list: a new effectful route is a compile error here (and a red test below) until the matrix
 * covers it. One call's variables are fixed per key so a replay is the same input.
 */
function effectfulRoutes(): EffectfulRoute[] {
  const memo = new Map<string, unknown>();
  const once = <V>(key: string, make: () => V): V => {
    if (!memo.has(key)) memo.set(key, make());
    return memo.get(key) as V;
  };
  const payloadOf = <R>(result: GqlResult<R>, field: keyof R): Payload => {
    expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
    return result.data![field] as Payload;
  };
  const purchase = (withPlans: boolean) => (key: string) =>
    once(key, () => ({ fas: '0877', input: { titleNumber: unusedTitles(withPlans), reference: 'matrix', idempotencyKey: key } }));
  const details = purchase(false);
  const pending = purchase(false);
  const plans = purchase(true);
  const order = (key: string) =>
    once(key, () => ({
      fas: '0877',
      input: { titleNumber: unusedTitles(false), reference: 'matrix', titleSheet: { include: true }, idempotencyKey: key },
    }));
  const caseVariables = (key: string) =>
    once(key, () => ({
      fas: '1877',
      input: {
        reference: 'Matrix',
        contactEmail: 'a@b.example',
        contactTelephone: '0131',
        titleNumbers: ['MID15313'],
        idempotencyKey: key,
      },
    }));
  const deedVariables = (key: string) =>
    once(key, () => ({
      input: {
        caseId: 'RLP06ORGACASE',
        subjectExtent: 'REGISTERED_WHOLE',
        deedType: 'STANDARD_SECURITY',
        creditorApplicant: { creditorCode: 'SANT4' },
        idempotencyKey: key,
      } as AddDeedToCaseInput,
    }));
  const senders: { [R in EffectfulRouteName]: Omit<EffectfulRoute, 'route'> } = {
    titleDetails: {
      operation: 'purchaseTitleDetails',
      chargeable: true,
      send: async (key) => payloadOf(await svc.gql(PurchaseTitleDetailsMutation, details(key)), 'purchaseTitleDetails'),
    },
    pendingApplications: {
      operation: 'purchasePendingApplications',
      chargeable: true,
      send: async (key) => payloadOf(await svc.gql(PurchasePendingApplicationsMutation, pending(key)), 'purchasePendingApplications'),
    },
    orderDocument: {
      operation: 'orderTitleDocument',
      chargeable: true,
      send: async (key) => payloadOf(await svc.gql(OrderTitleDocumentMutation, order(key)), 'orderTitleDocument'),
    },
    purchasePlans: {
      operation: 'purchaseTitlePlans',
      chargeable: true,
      send: async (key) => payloadOf(await svc.gql(PurchaseTitlePlansMutation, plans(key)), 'purchaseTitlePlans'),
    },
    createCase: {
      operation: 'createCase',
      chargeable: false,
      send: async (key) => payloadOf(await svc.gql(CreateCaseMutation, caseVariables(key)), 'createCase'),
    },
    addDeed: {
      operation: 'addDeedToCase',
      chargeable: false,
      send: async (key) => payloadOf(await svc.gql(AddDeedToCaseMutation, deedVariables(key)), 'addDeedToCase'),
    },
  };
  return EFFECTFUL_ROUTES.map((route) => ({ route, ...senders[route] }));
}

const ROUTES = effectfulRoutes();

const FAULTS: [string, Fault][] = [
  ['500', { kind: 'status', status: 500 }],
  ['502', { kind: 'status', status: 502 }],
  ['503', { kind: 'status', status: 503 }],
  ['hang', { kind: 'hang' }],
  ['reset', { kind: 'reset' }],
  ['malformed', { kind: 'malformed' }],
  // the deadline (700 ms) ends the body long before the second byte
  ['drip cut off', { kind: 'drip', chunkBytes: 1, intervalMs: 1_500 }],
];
const PHASES = ['before', 'after'] as const;

const CASES = ROUTES.flatMap((route) => FAULTS.flatMap(([label, fault]) => PHASES.map((phase) => ({ route, label, fault, phase }))));

const registerDay = () => londonDate(svc.emulator.clock.now());
async function journal(day = registerDay()) {
  const { data, errors } = await svc.gql(ChargeRecordsQuery, { day });
  expect(errors).toBeUndefined();
  return data!.chargeRecords;
}

/** What happened at the register while `run` ran: calls of the route, new ledger entries, new cases and deeds. */
async function observe<T>(route: RouteName, run: () => Promise<T>) {
  const calls = svc.emulator.calls.count({ route });
  const ledger = svc.emulator.ledger.charges.length;
  const cases = svc.emulator.state.cases.size;
  const deeds = svc.emulator.state.deeds.length;
  const result = await run();
  return {
    result,
    calls: svc.emulator.calls.count({ route }) - calls,
    charges: svc.emulator.ledger.charges.slice(ledger),
    created: svc.emulator.state.cases.size - cases + (svc.emulator.state.deeds.length - deeds),
  };
}

test('each effectful route of the route table is reached through a mutation of the schema that matches its effect', () => {
  const mutations = buildSchema().getMutationType()!.getFields();
  expect(ROUTES.map((r) => [r.route, r.operation in mutations, r.chargeable])).toEqual(
    ROUTE_LIST.filter((route) => route.effect !== 'none').map((route) => [route.name, true, route.effect === 'charges']),
  );
});

describe('every effectful route × every lost answer × before and after the effect', () => {
  test.each(CASES)(
    '$route.operation: $label, phase $phase → at most one call and one charge, OUTCOME_UNKNOWN, identical replay, journal',
    async ({ route, fault, phase }) => {
      const key = newKey(`matrix-${route.route}`);
      svc.emulator.faults.inject(route.route, { ...fault, phase }, 1);

      const first = await observe(route.route, () => route.send(key));
      expect(first.calls).toBe(1);
      expect(first.charges.length).toBeLessThanOrEqual(1);
      if (fault.kind === 'drip' || phase === 'after') {
        // the real effect happened, which is exactly why it must never be sent again
        expect(first.charges.length + first.created).toBe(1);
      } else {
        expect(first.charges.length + first.created).toBe(0);
      }
      // Nothing proves the register did nothing: the answer is OUTCOME_UNKNOWN, with advice fit for the effect.
      expect(first.result.userErrors).toHaveLength(1);
      const [unknown] = first.result.userErrors;
      expect(unknown!.code).toBe('OUTCOME_UNKNOWN');
      if (route.chargeable) expect(unknown!.message).toMatch(/never charges twice .* same register day.*new idempotencyKey is safe/);
      else expect(unknown!.message).toMatch(/check the register for the (case|deed) before creating it again/);
      expect(first.result.charges ?? []).toEqual([]);

      const replay = await observe(route.route, () => route.send(key));
      expect(replay.result).toEqual(first.result);
      expect(replay.calls).toBe(0);
      expect(replay.charges).toEqual([]);
      expect(replay.created).toBe(0);

      const records = (await journal()).filter((r) => r.idempotencyKey === key);
      if (route.chargeable) {
        expect(records).toEqual([
          expect.objectContaining({ status: 'OUTCOME_UNKNOWN', operation: route.operation, fas: '0877', charge: null }),
        ]);
      } else {
        expect(records).toEqual([]);
      }
    },
  );
});

/** The answer with each download link's `expires` and `signature` blanked: the file it names, its client and key stay. */
function withLinkTimesBlanked(payload: Payload): unknown {
  return JSON.parse(JSON.stringify(payload), (_name, value: unknown) =>
    typeof value === 'string' && value.includes('/downloads/') ? value.replace(/([?&](?:expires|signature)=)[^&]*/g, '$1…') : value,
  );
}

describe('answers that arrive', () => {
  test.each(ROUTES.filter((r) => r.chargeable))('$operation: the charge reaches the caller, the replay and the journal', async (route) => {
    const key = newKey(`ok-${route.route}`);
    const first = await observe(route.route, () => route.send(key));
    expect(first.calls).toBe(1);
    expect(first.charges).toHaveLength(1);
    expect(first.result.userErrors).toEqual([]);
    const ledgerCharge = first.charges[0]!.charge;
    expect(first.result.charges).toEqual([
      expect.objectContaining({ transactionNumber: ledgerCharge.transactionNumber, fee: ledgerCharge.fee }),
    ]);

    const replay = await observe(route.route, () => route.send(key));
    // Every answer signs its download links afresh (services/downloads/links.ts), so a replay in a
    // later second carries a later expiry and signature for the same file; all else is identical.
    expect(withLinkTimesBlanked(replay.result)).toEqual(withLinkTimesBlanked(first.result));
    expect(replay.calls).toBe(0);

    const records = (await journal()).filter((r) => r.idempotencyKey === key);
    expect(records).toEqual([
      expect.objectContaining({
        status: 'CHARGED',
        operation: route.operation,
        fas: '0877',
        charge: expect.objectContaining({ transactionNumber: ledgerCharge.transactionNumber, fee: '3.00' }),
      }),
    ]);
  });

  test('a 4xx proves nothing was done: a final answer, no journal entry', async () => {
    const key = newKey('credit');
    const { data } = await svc.gql(PurchaseTitleDetailsMutation, { fas: '9999', input: { titleNumber: 'MID15313', idempotencyKey: key } });
    expect(data!.purchaseTitleDetails.userErrors[0]!.code).toBe('CREDIT_LIMIT_EXCEEDED');
    expect((await journal()).filter((r) => r.idempotencyKey === key)).toEqual([]);
  });

  test('journals are per tenant: another API client sees none of these entries', async () => {
    const key = newKey('tenant');
    await svc.gql(
      PurchaseTitleDetailsMutation,
      { fas: '5555', input: { titleNumber: unusedTitles(false), idempotencyKey: key } },
      'dev-key-b',
    );
    const mine = await svc.gql(ChargeRecordsQuery, { day: registerDay() }, 'dev-key-b');
    expect(mine.data!.chargeRecords.map((r) => r.idempotencyKey)).toEqual([key]);
    const theirs = await journal();
    expect(theirs.some((r) => r.idempotencyKey === key)).toBe(false);
    expect(theirs.length).toBeGreaterThan(0);
  });
});

describe('invoice text', () => {
  test.each([
    ['BEL', 'ref\u0007'],
    ['ESC', '\u001b[31mred'],
    ['NUL', 'a\u0000b'],
    ['a newline', 'line one\nline two'],
    ['the euro sign', '€100'],
    ['an emoji', 'house 🏠'],
    ['a soft hyphen', 'soft\u00adhyphen'],
    ['76 characters', 'x'.repeat(76)],
  ])('a reference with %s is INVALID_INPUT on input.reference, with no register call', async (_label, reference) => {
    const calls = svc.emulator.calls.list().length;
    const ledger = svc.emulator.ledger.charges.length;
    const checks = [
      svc
        .gql(PurchaseTitleDetailsMutation, { fas: '0877', input: { titleNumber: 'MID15313', reference, idempotencyKey: newKey('ref') } })
        .then((r) => r.data!.purchaseTitleDetails),
      svc
        .gql(PurchasePendingApplicationsMutation, {
          fas: '0877',
          input: { titleNumber: 'MID15313', reference, idempotencyKey: newKey('ref') },
        })
        .then((r) => r.data!.purchasePendingApplications),
      svc
        .gql(PurchaseTitlePlansMutation, { fas: '0877', input: { titleNumber: 'MID15313', reference, idempotencyKey: newKey('ref') } })
        .then((r) => r.data!.purchaseTitlePlans),
      svc
        .gql(OrderTitleDocumentMutation, {
          fas: '0877',
          input: { titleNumber: 'MID15313', reference, titleSheet: { include: true }, idempotencyKey: newKey('ref') },
        })
        .then((r) => r.data!.orderTitleDocument),
    ];
    for (const payload of await Promise.all(checks)) {
      expect(payload.userErrors).toEqual([
        {
          code: 'INVALID_INPUT',
          message: expect.stringMatching(/^input\.reference (must |character \d+ )/),
          field: ['input', 'reference'],
        },
      ]);
    }
    expect(svc.emulator.calls.list().length).toBe(calls);
    expect(svc.emulator.ledger.charges.length).toBe(ledger);
  });

  test('75 characters of Latin-1 text, accents and the pound sign included, are accepted and printed as given', async () => {
    const reference = `Mòrag & Ève — £5`.replace('—', '-').padEnd(75, '.');
    const { data } = await svc.gql(PurchaseTitleDetailsMutation, {
      fas: '0877',
      input: { titleNumber: unusedTitles(false), reference, idempotencyKey: newKey('ref') },
    });
    expect(data!.purchaseTitleDetails.userErrors).toEqual([]);
    expect(data!.purchaseTitleDetails.charges[0]!.reference).toBe(reference);
  });
});
