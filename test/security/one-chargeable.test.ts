/**
 * The one-chargeable-mutation rule, as a caller meets it over HTTP: an operation with two
 * chargeable fields is refused before anything reaches the register (judged on the emulator's
 * call log and ledger), wherever the fields hide (aliases, inline fragments, named fragments);
 * one chargeable field, however it is spelled, is executed and charged once. And its payload is
 * never deferred: @defer or @stream in or around it is refused the same way.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startService } from '../support/harness';
import { postRaw } from '../support/post-raw';

type Svc = Awaited<ReturnType<typeof startService>>;
let svc: Svc;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.stop());

let counter = 0;
const key = () => `one-chargeable-${process.pid}-${Date.now()}-${++counter}`;
/** The register charges once per account, title and day: a test that expects a charge buys its own title. */
const details = (alias?: string, titleNumber = 'MID1234') =>
  `${alias ? `${alias}: ` : ''}purchaseTitleDetails(fas: "0877", input: { titleNumber: "${titleNumber}", idempotencyKey: "${key()}" }) { userErrors { code } }`;
const plans = (alias?: string) =>
  `${alias ? `${alias}: ` : ''}purchaseTitlePlans(fas: "0877", input: { titleNumber: "MID1234", idempotencyKey: "${key()}" }) { userErrors { code } }`;

/** Runs a request and returns its answer, with the register calls and charges it caused. */
async function judged(query: string, accept?: string) {
  svc.emulator.calls.reset();
  const charges = svc.emulator.ledger.count();
  const answer = await postRaw(svc.yoga, { query }, accept ? { accept } : {});
  return { ...answer, calls: svc.emulator.calls.count(), charged: svc.emulator.ledger.count() - charges };
}

const tooMany = (names: string) =>
  `An operation may contain at most one chargeable mutation; this one has 2 (${names}). Send them as separate requests.`;

describe('two chargeable fields are refused before any register call', () => {
  test('the refusal names each field by its alias, or by its name when it has none, and points at the operation', async () => {
    const answer = await judged(`mutation {\n  ${details()}\n  second: ${plans()}\n}`);
    expect(answer.body).toEqual({
      errors: [
        {
          message: tooMany('purchaseTitleDetails, second'),
          locations: [{ line: 1, column: 1 }],
          extensions: { code: 'TOO_MANY_CHARGEABLE_MUTATIONS' },
        },
      ],
    });
    expect(answer.status).toBe(400);
    expect(answer.calls).toBe(0);
    expect(answer.charged).toBe(0);
  });

  test('an inline fragment on Mutation with a chargeable field counts as a chargeable mutation', async () => {
    const answer = await judged(`mutation { ${details('a')} ... on Mutation { ${plans('b')} } }`);
    expect(answer.body.errors?.map((e) => e.message)).toEqual([tooMany('a, b')]);
    expect(answer.calls).toBe(0);
    expect(answer.charged).toBe(0);
  });

  test('chargeable fields in nested inline fragments, with and without a type condition, are counted', async () => {
    const answer = await judged(`mutation { ... { ${details('a')} } ... on Mutation { ... on Mutation { ${details('b')} } } }`);
    expect(answer.body.errors?.map((e) => e.message)).toEqual([tooMany('a, b')]);
    expect(answer.calls).toBe(0);
  });

  test('a chargeable field in a named fragment inside an inline fragment is counted', async () => {
    const answer = await judged(`mutation { ${plans('a')} ... on Mutation { ...Buy } } fragment Buy on Mutation { ${details('b')} }`);
    expect(answer.body.errors?.map((e) => e.message)).toEqual([tooMany('a, b')]);
    expect(answer.calls).toBe(0);
  });

  test('two different named fragments, one chargeable field each, are refused', async () => {
    const answer = await judged(
      `mutation { ...A ...B } fragment A on Mutation { ${details('a')} } fragment B on Mutation { ${plans('b')} }`,
    );
    expect(answer.body.errors?.map((e) => e.message)).toEqual([tooMany('a, b')]);
    expect(answer.calls).toBe(0);
  });
});

describe('a chargeable mutation stands alone at the root', () => {
  const createCase = (alias = 'created') =>
    `${alias}: createCase(fas: "1877", input: { reference: "R", contactEmail: "a@b.c", contactTelephone: "1", titleNumbers: ["MID15313"], idempotencyKey: "${key()}" }) { userErrors { code } }`;

  test('beside another mutation (here createCase) it is refused before any register call, saying to send them separately', async () => {
    for (const query of [
      `mutation { ${details('bought')} ${createCase()} }`,
      `mutation { ${createCase()} ...Buy } fragment Buy on Mutation { ${details('bought')} }`,
    ]) {
      const answer = await judged(query);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual({
        errors: [
          {
            message:
              'A chargeable mutation must be the only field of its operation; bought is sent with created. Send the mutations as separate requests, so that each answer holds its own outcome and charges.',
            locations: [{ line: 1, column: 1 }],
            extensions: { code: 'CHARGEABLE_MUTATION_NOT_ALONE' },
          },
        ],
      });
      expect(answer.calls).toBe(0);
      expect(answer.charged).toBe(0);
    }
  });

  test('beside two others, the refusal names them all', async () => {
    const answer = await judged(`mutation { ${details('bought')} ${createCase('first')} ${createCase('second')} }`);
    expect(answer.body.errors?.[0]?.message).toContain('bought is sent with first, second.');
    expect(answer.calls).toBe(0);
  });

  test('__typename beside it is allowed, and so are several mutations none of which charges', async () => {
    const alone = await judged(`mutation { __typename ${details('a', 'BLK43')} }`);
    expect(alone.body.data).toEqual({ __typename: 'Mutation', a: { userErrors: [] } });
    expect(alone.charged).toBe(1);
    // The selection leaves the charges out: they come under extensions.charges.
    expect(alone.body.extensions?.charges).toEqual([expect.objectContaining({ operation: 'purchaseTitleDetails' })]);
    const uncharged = await judged(`mutation { ${createCase('one')} ${createCase('two')} }`);
    expect(uncharged.body.errors).toBeUndefined();
  });
});

describe('one chargeable field is executed and charged once', () => {
  test('the same named fragment spread twice is one chargeable mutation (GraphQL merges it), charged once', async () => {
    const answer = await judged(`mutation { ...Buy ...Buy } fragment Buy on Mutation { ${details('a', 'BLK41')} }`);
    expect(answer.body.data).toEqual({ a: { userErrors: [] } });
    expect(answer.charged).toBe(1);
    expect(answer.body.extensions?.charges).toHaveLength(1);
  });

  test('a chargeable field inside an inline fragment alone is accepted and charged once', async () => {
    const answer = await judged(`mutation { ... on Mutation { ${details('a', 'BLK42')} } }`);
    expect(answer.body.data).toEqual({ a: { userErrors: [] } });
    expect(answer.charged).toBe(1);
    expect(answer.body.extensions?.charges).toHaveLength(1);
  });
});

describe("the rule leaves other operations' errors to GraphQL", () => {
  test('a mutation with an unknown field gets the unknown-field error, and nothing else', async () => {
    const answer = await judged(`mutation { ${details('a')} nope }`);
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.map((e) => e.message)).toEqual(['Cannot query field "nope" on type "Mutation".']);
    expect(answer.calls).toBe(0);
  });

  test('a mutation spreading an unknown fragment gets the unknown-fragment error, and nothing else', async () => {
    const answer = await judged(`mutation { ${details('a')} ...Missing }`);
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.map((e) => e.message)).toEqual(['Unknown fragment "Missing".']);
    expect(answer.calls).toBe(0);
  });

  test('a query naming chargeable mutation fields is told they are not query fields, not that it has two chargeable mutations', async () => {
    const answer = await judged('{ a: purchaseTitleDetails b: purchaseTitlePlans }');
    expect(answer.status).toBe(400);
    expect(answer.body.errors?.map((e) => e.message)).toEqual([
      'Cannot query field "purchaseTitleDetails" on type "Query".',
      'Cannot query field "purchaseTitlePlans" on type "Query".',
    ]);
    expect(answer.calls).toBe(0);
  });
});

describe('a chargeable payload is never deferred', () => {
  const deferred = (directive: string) =>
    `A chargeable mutation's payload is never deferred: bought has @${directive} in or around its selection. Remove it, so that the outcome and its charges come in one answer.`;
  const purchase = (selection: string) =>
    `bought: purchaseTitleDetails(fas: "0877", input: { titleNumber: "MID1234", idempotencyKey: "${key()}" }) { ${selection} }`;

  test('@defer around its charges is refused before any register call, pointing at the @defer', async () => {
    const answer = await judged(`mutation { ${purchase('userErrors { code } ... @defer { charges { fee } }')} }`);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      errors: [
        {
          message: deferred('defer'),
          locations: [{ line: 1, column: expect.any(Number) }],
          extensions: { code: 'CHARGEABLE_PAYLOAD_DEFERRED' },
        },
      ],
    });
    expect(answer.calls).toBe(0);
    expect(answer.charged).toBe(0);
  });

  test('wherever it hides: deep in the payload, in a named fragment, in a fragment the operation spreads twice, or @stream', async () => {
    for (const [query, directive] of [
      [`mutation { ${purchase('details { ... @defer { securities { __typename } } } charges { fee }')} }`, 'defer'],
      [
        `mutation { ${purchase('...Part')} } fragment Part on PurchaseTitleDetailsPayload { details { ...Deep } } fragment Deep on TitleDetails { ... @defer { burdens { __typename } } }`,
        'defer',
      ],
      [`mutation { ...Buy ...Buy @defer } fragment Buy on Mutation { ${purchase('charges { fee }')} }`, 'defer'],
      [`mutation { ${purchase('charges @stream(initialCount: 0) { fee }')} }`, 'stream'],
    ] as const) {
      const answer = await judged(query);
      expect(answer.status, query).toBe(400);
      expect(answer.body.errors?.[0]?.message, query).toBe(deferred(directive));
      expect(answer.body.errors?.[0]?.extensions?.code).toBe('CHARGEABLE_PAYLOAD_DEFERRED');
      expect(answer.calls, query).toBe(0);
      expect(answer.charged).toBe(0);
    }
  });

  test('@defer elsewhere is left alone: in a mutation that charges nothing, and in a query', async () => {
    const created = await judged(
      `mutation { created: createCase(fas: "1877", input: { reference: "R", contactEmail: "a@b.c", contactTelephone: "1", titleNumbers: ["MID15313"], idempotencyKey: "${key()}" }) { case { __typename } ... @defer { userErrors { code } } } }`,
      'multipart/mixed',
    );
    expect(created.status).toBe(200);
    expect(created.text).toContain('"userErrors":[]');
    expect(created.text).not.toContain('errors');
    const query = await judged('{ title(titleNumber: "MID15313") { titleNumber ... @defer { status } } }', 'multipart/mixed');
    expect(query.text).toContain('"status":"REGISTERED"');
    expect(query.text).not.toContain('errors');
  });
});
