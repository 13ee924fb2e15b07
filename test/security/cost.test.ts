/**
 * The cost rule prices register calls: every field that calls the register, as often as it
 * will run. Pinned two ways: `operationCost` as a table of documents and prices, and the
 * running service, which refuses a request priced one above its limit before any register call
 * and answers it at its price. And the default limits: an ordinary page of titles fits, three
 * pages with securities do not, and a document's price follows the variables of each request.
 * Refusals are judged on the emulator's call log.
 */
import { parse, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildSchema } from '../../src/graphql/schema';
import { FIELD, operationCost, REGISTER_CALL } from '../../src/security/cost';
import { DEFAULT_LIMITS } from '../../src/security/settings';
import { createApp } from '../../src/server/app';
import { startService } from '../support/harness';
import { type PostTarget, postRaw } from '../support/post-raw';

function cost(document: string, variables: Record<string, unknown> = {}): number {
  const parsed = parse(document);
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const d of parsed.definitions) if (d.kind === 'FragmentDefinition') fragments[d.name.value] = d;
  const operation = parsed.definitions.find((d) => d.kind === 'OperationDefinition') as OperationDefinitionNode;
  return operationCost(buildSchema(), operation, fragments, variables);
}

const AS_B = { authorization: 'Bearer dev-key-b' };
const F = FIELD;
const R = REGISTER_CALL;
const DETAILS_INPUT = 'fas: "0877", input: { titleNumber: "MID1234", idempotencyKey: "cost-strength" }';
const ENTITIES = 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Title { titleNumber status } } }';
const reps = (n: number, offset = 0) => Array.from({ length: n }, (_, i) => ({ __typename: 'Title', titleNumber: `BLK${offset + i + 1}` }));
const hundred = Array.from({ length: 100 }, (_, i) => `BLK${i + 2001}`);

/** Documents the service accepts, with their price: [label, document, price, variables?]. */
const PRICED: [string, string, number, Record<string, unknown>?][] = [
  ['a free field alone', '{ registerUsage { calls day } }', 3 * F],
  ['node: one register call for the object it refetches, whatever implements Node', '{ node(id: "VGl0bGU6TUlEMTIzNA") { id } }', 2 * F + R],
  ['chargeRecords, free', '{ chargeRecords(day: "2026-11-23") { status } }', 2 * F],
  ['title', '{ title(titleNumber: "MID1234") { titleNumber } }', 2 * F + R],
  ['creditors', '{ creditors(query: "bank") { creditorCode } }', 2 * F + R],
  ['referenceList', '{ referenceList(path: "lr/creditor") { name } }', 2 * F + R],
  ['referenceListPaths', '{ referenceListPaths }', F + R],
  ['Title.securities', '{ title(titleNumber: "MID1234") { securities { id } } }', 3 * F + 2 * R],
  ['titles, per item', '{ titles(titleNumbers: ["BLK1", "BLK2", "BLK3"]) { titleNumber } }', 2 * F + 3 * R],
  ['securities under each titles item', '{ titles(titleNumbers: ["BLK1", "BLK2"]) { securities { id } } }', 3 * F + 4 * R],
  [
    '_entities, per distinct title (a repeat costs nothing)',
    'query($r: [_Any!]!) { _entities(representations: $r) { __typename } }',
    2 * F + 4 * R,
    { r: [...reps(4), ...reps(1)] },
  ],
  ['_entities with fields of Title, per distinct title', ENTITIES, 3 * F + 4 * R, { r: [...reps(4), ...reps(2)] }],
  [
    'an inline fragment on Title under title adds its securities call',
    '{ title(titleNumber: "MID1234") { ... on Title { securities { id } } } }',
    3 * F + 2 * R,
  ],
  [
    'an inline fragment without a type condition keeps the parent type: securities under each titles item',
    '{ titles(titleNumbers: ["BLK1", "BLK2"]) { ... { securities { id } } } }',
    3 * F + 4 * R,
  ],
  [
    'an inline fragment on Query keeps the titles list length',
    '{ ... on Query { titles(titleNumbers: ["BLK1", "BLK2", "BLK3"]) { titleNumber securities { id } } } }',
    4 * F + 6 * R,
  ],
  [
    'an inline fragment without a type condition at the root prices title',
    '{ ... { title(titleNumber: "MID1234") { titleNumber } } }',
    2 * F + R,
  ],
  [
    'a named fragment on Title is priced under each titles item',
    '{ titles(titleNumbers: ["BLK1", "BLK2", "BLK3"]) { ...S } } fragment S on Title { titleNumber securities { id } }',
    4 * F + 6 * R,
  ],
  [
    'a named fragment used under two aliased titles is priced for each',
    '{ a: title(titleNumber: "MID1234") { ...S } b: title(titleNumber: "BLK1") { ...S } } fragment S on Title { securities { id } }',
    6 * F + 4 * R,
  ],
  [
    'a named fragment on Query is priced with its titles list',
    '{ ...Q } fragment Q on Query { titles(titleNumbers: ["BLK1", "BLK2"]) { titleNumber } }',
    2 * F + 2 * R,
  ],
  ['a single title number given without brackets is one titles item', '{ titles(titleNumbers: "BLK1") { titleNumber } }', 2 * F + R],
  [
    'an inline titles list literal counts each of its items, variables included',
    'query($t: TitleNumber!) { titles(titleNumbers: [$t, "BLK2", "BLK3", "BLK4"]) { titleNumber } }',
    2 * F + 4 * R,
    { t: 'BLK1' },
  ],
  [
    'a titles list in a variable with one item',
    'query($n: [TitleNumber!]!) { titles(titleNumbers: $n) { titleNumber securities { id } } }',
    4 * F + 2 * R,
    { n: ['BLK1'] },
  ],
  [
    'an empty titles list makes no register call',
    'query($n: [TitleNumber!]!) { titles(titleNumbers: $n) { titleNumber securities { id } } }',
    4 * F,
    { n: [] },
  ],
  [
    'each of several titles, creditors and reference lists is a register call',
    '{ a: title(titleNumber: "MID1234") { titleNumber } b: title(titleNumber: "BLK1") { titleNumber } creditors(query: "bank") { creditorCode } referenceList(path: "lr/creditor") { name } }',
    8 * F + 4 * R,
  ],
  [
    'securities inside title details are part of the purchase, not another register call',
    `mutation { purchaseTitleDetails(${DETAILS_INPUT}) { details { securities { creditor } } } }`,
    4 * F + R,
  ],
  ['purchaseTitleDetails', `mutation { purchaseTitleDetails(${DETAILS_INPUT}) { userErrors { code } } }`, 3 * F + R],
  ['purchasePendingApplications', `mutation { purchasePendingApplications(${DETAILS_INPUT}) { userErrors { code } } }`, 3 * F + R],
  ['purchaseTitlePlans', `mutation { purchaseTitlePlans(${DETAILS_INPUT}) { userErrors { code } } }`, 3 * F + R],
  [
    'orderTitleDocument',
    'mutation { orderTitleDocument(fas: "0877", input: { titleNumber: "MID1234", idempotencyKey: "cost-doc" }) { userErrors { code } } }',
    3 * F + R,
  ],
  [
    'addDeedToCase',
    'mutation { addDeedToCase(input: { caseId: "RLP06ORGACASE", deedType: DISPOSITION, subjectExtent: REGISTERED_WHOLE, idempotencyKey: "cost-deed" }) { userErrors { code } } }',
    3 * F + R,
  ],
  [
    'createCase',
    'mutation { createCase(fas: "0877", input: { reference: "r", contactEmail: "a@b.example", contactTelephone: "0131", titleNumbers: ["MID1234"], idempotencyKey: "cost-pin" }) { case { id } } }',
    3 * F + R,
  ],
  [
    'a chargeable mutation inside an inline fragment on Mutation',
    `mutation { ... on Mutation { purchaseTitleDetails(${DETAILS_INPUT}) { userErrors { code } } } }`,
    3 * F + R,
  ],
];

describe('operationCost', () => {
  test.each(PRICED)('%s', (_label, document, price, variables = {}) => {
    expect(cost(document, variables)).toBe(price);
  });

  test('_entities representations under an inline fragment on Title pay for each distinct title and its securities', () => {
    const reps = [{ titleNumber: 'A1' }, { titleNumber: 'B2' }, { titleNumber: 'C3' }, { titleNumber: 'A1' }];
    expect(cost('query($r: [_Any!]!) { _entities(representations: $r) { ... on Title { securities { id } } } }', { r: reps })).toBe(
      3 * F + 6 * R,
    );
  });

  test('_entities counts only representations that carry a title number; one given without a list is a list of one', () => {
    const doc = 'query($r: [_Any!]!) { _entities(representations: $r) { __typename } }';
    expect(cost(doc, { r: [null, 'Title', { __typename: 'Title' }, { titleNumber: 7 }, ...reps(2)] })).toBe(2 * F + 2 * R);
    expect(cost(doc, { r: reps(1)[0] })).toBe(2 * F + R);
    expect(cost('{ _entities(representations: { __typename: "Title", titleNumber: "BLK1" }) { __typename } }')).toBe(2 * F + R);
    expect(cost(doc, { r: null })).toBe(2 * F);
  });

  test('a list variable not yet coerced counts one value as one item, and a missing or null one as none', () => {
    const doc = 'query($n: [TitleNumber!]!) { titles(titleNumbers: $n) { titleNumber } }';
    expect(cost(doc, { n: 'BLK1' })).toBe(2 * F + R);
    expect(cost(doc, { n: null })).toBe(2 * F);
    expect(cost(doc, {})).toBe(2 * F);
  });

  test('only the list argument counts the items', () => {
    expect(cost('{ titles(other: ["A1", "B2", "C3"], titleNumbers: ["A1"]) { titleNumber } }')).toBe(2 * F + R);
    expect(cost('{ titles(other: ["A1", "B2", "C3"]) { titleNumber } }')).toBe(2 * F);
  });

  test('fragments, inline or named, add their cost and never subtract it', () => {
    const plain = cost('{ title(titleNumber: "MID1234") { securities { id } } }');
    expect(cost('{ title(titleNumber: "MID1234") { ... on Title { securities { id } } } }')).toBe(plain);
    expect(cost('{ title(titleNumber: "MID1234") { ...S } } fragment S on Title { securities { id } }')).toBe(plain);
    expect(cost('{ ... on Query { titles(titleNumbers: ["A1", "B2"]) { titleNumber } } }')).toBe(2 * F + 2 * R);
  });

  test('a titles list given in a variable counts its items', () => {
    expect(cost('query($n: [TitleNumber!]!) { titles(titleNumbers: $n) { titleNumber } }', { n: hundred })).toBe(2 * F + 100 * R);
  });

  test('a subscription is priced by its own root type, not as a query', () => {
    expect(cost('subscription { title(titleNumber: "MID1234") { titleNumber } }')).toBe(2 * F);
  });

  test('a fragment cycle or an unknown fragment (validation errors) does not hang or throw', () => {
    expect(
      cost('{ title(titleNumber: "MID1") { ...A } } fragment A on Title { ...B securities { id } } fragment B on Title { ...A }'),
    ).toBe(3 * F + 2 * R);
    expect(cost('{ ...Missing title(titleNumber: "MID1") { titleNumber } }')).toBe(2 * F + R);
  });
});

describe('the running service', () => {
  type Svc = Awaited<ReturnType<typeof startService>>;
  let svc: Svc;
  beforeAll(async () => {
    svc = await startService();
  });
  afterAll(() => svc.stop());

  /** A request as dev-key-b, with the register calls it caused. */
  async function judged(app: PostTarget, query: string, variables?: unknown) {
    svc.emulator.calls.reset();
    const answer = await postRaw(app, { query, variables }, AS_B);
    return { ...answer, calls: svc.emulator.calls.count() };
  }
  const limited = (maxCost: number) => createApp(svc.services, { hardening: { limits: { ...DEFAULT_LIMITS, maxCost } } });

  const QUERIES = PRICED.filter(([, document]) => !document.startsWith('mutation'));
  const MUTATIONS = PRICED.filter(([, document]) => document.startsWith('mutation'));

  test.each(QUERIES)(
    '%s: refused one below its price with no register call, answered at it',
    async (_label, document, price, variables) => {
      const refused = await judged(limited(price - 1), document, variables);
      expect(refused.body.errors).toEqual([
        {
          message: `Query cost ${price} exceeds the limit of ${price - 1} (each register call the query would make costs ${R}: every titles item and _entities representation, and each title's securities; each field ${F}).`,
          extensions: { code: 'COST_LIMIT_EXCEEDED', cost: price, maxCost: price - 1 },
        },
      ]);
      expect(refused.calls).toBe(0);

      const answered = await judged(limited(price), document, variables);
      expect(answered.body.errors).toBeUndefined();
    },
  );

  test.each(MUTATIONS)('%s: refused one below its price, with no register call and no charge', async (_label, document, price) => {
    const charges = svc.emulator.ledger.count();
    const refused = await judged(limited(price - 1), document);
    expect(refused.body.errors).toEqual([
      expect.objectContaining({ extensions: { code: 'COST_LIMIT_EXCEEDED', cost: price, maxCost: price - 1 } }),
    ]);
    expect(refused.calls).toBe(0);
    expect(svc.emulator.ledger.count()).toBe(charges);
  });

  test('securities inside title details: the purchase is refused one below its price, with no register call and no charge', async () => {
    const price = 4 * F + R;
    const charges = svc.emulator.ledger.count();
    const refused = await judged(
      limited(price - 1),
      `mutation { purchaseTitleDetails(fas: "5555", input: { titleNumber: "MID1234", idempotencyKey: "cost-${Date.now()}" }) { details { securities { creditor } } } }`,
    );
    expect(refused.body.errors?.[0]?.extensions).toEqual({ code: 'COST_LIMIT_EXCEEDED', cost: price, maxCost: price - 1 });
    expect(refused.calls).toBe(0);
    expect(svc.emulator.ledger.count()).toBe(charges);
  });

  describe('the default limits', () => {
    const page = (alias: string) => `${alias}: titles(titleNumbers: $n) { titleNumber securities { id } }`;

    test('titles(100) with every summary field of the contract is accepted', async () => {
      const FULL_SUMMARY = `
        titleNumber status titleType searchSheet titleSheetUpdatedTo
        right { type description addresses { subBuilding name number street locality town postcode uprn organisation county country } }
        proprietorships { considerationEntries { dateOfEntry dateOfRegistration consideration } }
        plans { type paperSize description lastUpdated }
        applications { applicationNumber applicationDate type { code prettyPrint } }
        securities { id applicationType specification dateOfRegistration source }`;
      const answered = await judged(svc.yoga, `query($n: [TitleNumber!]!) { titles(titleNumbers: $n) { ${FULL_SUMMARY} } }`, {
        n: hundred,
      });
      expect(answered.body.errors).toBeUndefined();
      expect((answered.body.data as { titles: unknown[] }).titles.length).toBe(100);
      expect(svc.emulator.calls.count({ route: 'titleSummary' })).toBe(100);
      expect(svc.emulator.calls.count({ route: 'securities' })).toBe(100);
    });

    test('three aliased titles(100) with securities are refused with no register call', async () => {
      const refused = await judged(svc.yoga, `query($n: [TitleNumber!]!) { ${page('a')} ${page('b')} ${page('c')} }`, { n: hundred });
      expect(refused.body.errors![0]!.extensions).toMatchObject({ code: 'COST_LIMIT_EXCEEDED', maxCost: 5000 });
      expect(refused.calls).toBe(0);
    });

    test("a titles list given as the variable's default counts its items: three pages with securities are refused with no register call", async () => {
      const list = `[${hundred.map((n) => `"${n}"`).join(', ')}]`;
      const refused = await judged(svc.yoga, `query($n: [TitleNumber!]! = ${list}) { ${page('a')} ${page('b')} ${page('c')} }`);
      expect(refused.body.errors![0]!.extensions).toMatchObject({ code: 'COST_LIMIT_EXCEEDED', cost: 12 * F + 600 * R });
      expect(refused.calls).toBe(0);
    });

    test('aliased _entities are priced together: three pages with securities are refused with no register call', async () => {
      const entities = (alias: string) => `${alias}: _entities(representations: $r) { ... on Title { titleNumber securities { id } } }`;
      const refused = await judged(svc.yoga, `query($r: [_Any!]!) { ${entities('a')} ${entities('b')} ${entities('c')} }`, {
        r: reps(100),
      });
      expect(refused.body.errors![0]!.extensions!.code).toBe('COST_LIMIT_EXCEEDED');
      expect(refused.calls).toBe(0);
    });
  });

  describe('a document is priced once unless a variable can change its price', () => {
    const hundredLiteral = `[${Array.from({ length: 100 }, (_, i) => `"BLK${i + 1}"`).join(', ')}]`;
    const threePages = `{ ${['a', 'b', 'c'].map((alias) => `${alias}: titles(titleNumbers: ${hundredLiteral}) { titleNumber securities { id } }`).join(' ')} }`;

    test('the same literal document is refused every time, with no register call', async () => {
      for (let i = 0; i < 3; i++) {
        const refused = await judged(svc.yoga, threePages);
        expect(refused.body.errors![0]!.extensions).toMatchObject({ code: 'COST_LIMIT_EXCEEDED', cost: 12 * F + 600 * R });
        expect(refused.calls).toBe(0);
      }
    });

    test('the same text with a variable list is priced by each request’s variables', async () => {
      const query =
        'query($n: [TitleNumber!]!) { a: titles(titleNumbers: $n) { titleNumber securities { id } } b: titles(titleNumbers: $n) { titleNumber securities { id } } c: titles(titleNumbers: $n) { titleNumber securities { id } } }';
      const small = await judged(svc.yoga, query, { n: ['MID15313'] });
      expect(small.body.errors).toBeUndefined();
      const large = await judged(svc.yoga, query, { n: hundred });
      expect(large.body.errors![0]!.extensions).toMatchObject({ code: 'COST_LIMIT_EXCEEDED' });
      expect(large.calls).toBe(0);
      const smallAgain = await judged(svc.yoga, query, { n: ['MID15313'] });
      expect(smallAgain.body.errors).toBeUndefined();
    });
  });
});
