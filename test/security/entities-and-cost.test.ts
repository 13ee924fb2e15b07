/**
 * `_entities` is capped and priced like `titles`, and every representation is checked before
 * any register call; the cost model prices register calls, so an ordinary page fits and three
 * pages with securities do not. Refusals are judged on the emulator's call log.
 */
import { parse, type OperationDefinitionNode } from 'graphql';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../src/server/app';
import { buildSchema } from '../../src/graphql/schema';
import { FIELD, operationCost, REGISTER_CALL } from '../../src/security/cost';
import { DEFAULT_LIMITS } from '../../src/security/limits';
import { startService } from '../support/harness';

type Svc = Awaited<ReturnType<typeof startService>>;
let svc: Svc;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.stop());

interface Body {
  data?: Record<string, unknown> | null;
  errors?: { message: string; extensions?: Record<string, unknown> }[];
}
async function post(query: string, variables?: unknown, app: { fetch: Svc['yoga']['fetch'] } = svc.yoga): Promise<Body> {
  const response = await app.fetch('http://titlegraph.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', authorization: 'Bearer dev-key-b' },
    body: JSON.stringify({ query, variables }),
  });
  return (await response.json()) as Body;
}

async function withoutCalls(run: () => Promise<Body>): Promise<Body> {
  svc.emulator.calls.reset();
  const body = await run();
  expect(svc.emulator.calls.count()).toBe(0);
  return body;
}

const ENTITIES = 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Title { titleNumber status } } }';
const reps = (n: number, offset = 0) => Array.from({ length: n }, (_, i) => ({ __typename: 'Title', titleNumber: `BLK${offset + i + 1}` }));

describe('_entities', () => {
  test('100 representations are resolved, one summary call each', async () => {
    svc.emulator.calls.reset();
    const body = await post(ENTITIES, { r: reps(100, 1000) });
    expect(body.errors).toBeUndefined();
    expect((body.data!._entities as unknown[]).length).toBe(100);
    expect(svc.emulator.calls.count({ route: 'titleSummary' })).toBe(100);
  });

  test('101 references to 2 titles, as Apollo Gateway sends them: all resolve, with 2 register calls', async () => {
    svc.emulator.calls.reset();
    const r = Array.from({ length: 101 }, (_, i) => ({ __typename: 'Title', titleNumber: i % 2 ? 'MID1234' : 'MID15313' }));
    const body = await post(ENTITIES, { r });
    expect(body.errors).toBeUndefined();
    expect((body.data!._entities as { titleNumber: string }[]).map((t) => t.titleNumber)).toEqual(r.map((x) => x.titleNumber));
    expect(svc.emulator.calls.count({ route: 'titleSummary' })).toBe(2);
  });

  test.each([501, 1_300])("%i different titles are refused once, in the query's terms, with no register call", async (n) => {
    const body = await withoutCalls(() => post(ENTITIES, { r: reps(n) }));
    expect(body.errors).toEqual([
      expect.objectContaining({
        message: `This query needs ${n} different titles from the register in one request; the limit is 500. Ask for fewer titles at once (a gateway sends all of one query's title references together).`,
        extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }),
      }),
    ]);
  });

  test.each([
    ['no titleNumber', { __typename: 'Title' }, 'representations[2]: titleNumber must be 3 uppercase letters followed by 1 to 8 digits.'],
    ['an unknown __typename', { __typename: 'Matter', titleNumber: 'MID1234' }, 'representations[2]: __typename must be one of Title.'],
    ['no __typename', { titleNumber: 'MID1234' }, 'representations[2]: __typename must be one of Title.'],
    [
      'a path',
      { __typename: 'Title', titleNumber: '../../ref' },
      'representations[2]: titleNumber must be 3 uppercase letters followed by 1 to 8 digits.',
    ],
    [
      'a space',
      { __typename: 'Title', titleNumber: 'bad num' },
      'representations[2]: titleNumber must be 3 uppercase letters followed by 1 to 8 digits.',
    ],
    [
      'a number',
      { __typename: 'Title', titleNumber: 15313 },
      'representations[2]: titleNumber must be 3 uppercase letters followed by 1 to 8 digits.',
    ],
    ['not an object', 'MID1234', 'representations[2] must be an object with __typename and its key.'],
  ])('a representation with %s is refused by index, and none of the request reaches the register', async (_label, bad, message) => {
    const body = await withoutCalls(() => post(ENTITIES, { r: [...reps(2), bad, ...reps(2, 10)] }));
    expect(body.errors).toEqual([{ message, extensions: { code: 'BAD_USER_INPUT', field: 'representations' } }]);
    expect(JSON.stringify(body)).not.toMatch(/route|titleSummary|\.\.\/\.\.\/ref/);
  });

  test('inline representations are checked too', async () => {
    const body = await withoutCalls(() =>
      post('{ _entities(representations: [{ __typename: "Title", titleNumber: "x" }]) { __typename } }'),
    );
    expect(body.errors![0]!.message).toBe('representations[0]: titleNumber must be 3 uppercase letters followed by 1 to 8 digits.');
  });

  test('aliased _entities are priced together: three pages with securities are refused', async () => {
    const query = `query($r: [_Any!]!) {
      a: _entities(representations: $r) { ... on Title { titleNumber securities { id } } }
      b: _entities(representations: $r) { ... on Title { titleNumber securities { id } } }
      c: _entities(representations: $r) { ... on Title { titleNumber securities { id } } }
    }`;
    const body = await withoutCalls(() => post(query, { r: reps(100) }));
    expect(body.errors![0]!.extensions!.code).toBe('COST_LIMIT_EXCEEDED');
  });
});

const FULL_SUMMARY = `
  titleNumber status titleType searchSheet titleSheetUpdatedTo
  right { type description addresses { subBuilding name number street locality town postcode uprn organisation county country } }
  proprietorships { considerationEntries { dateOfEntry dateOfRegistration consideration } }
  plans { type paperSize description lastUpdated }
  applications { applicationNumber applicationDate type { code prettyPrint } }
  securities { id applicationType specification dateOfRegistration source }`;
const hundred = Array.from({ length: 100 }, (_, i) => `BLK${i + 2001}`);

describe('the cost of an ordinary page', () => {
  test('titles(100) with every summary field of the contract is accepted by the default limits', async () => {
    svc.emulator.calls.reset();
    const body = await post(`query($n: [TitleNumber!]!) { titles(titleNumbers: $n) { ${FULL_SUMMARY} } }`, { n: hundred });
    expect(body.errors).toBeUndefined();
    expect((body.data!.titles as unknown[]).length).toBe(100);
    expect(svc.emulator.calls.count({ route: 'titleSummary' })).toBe(100);
    expect(svc.emulator.calls.count({ route: 'securities' })).toBe(100);
  });

  test('three aliased titles(100) with securities are refused with no register call', async () => {
    const page = (alias: string) => `${alias}: titles(titleNumbers: $n) { titleNumber securities { id } }`;
    const body = await withoutCalls(() => post(`query($n: [TitleNumber!]!) { ${page('a')} ${page('b')} ${page('c')} }`, { n: hundred }));
    expect(body.errors![0]!.extensions).toMatchObject({ code: 'COST_LIMIT_EXCEEDED', maxCost: 5000 });
  });
});

describe('every field that calls the register is priced', () => {
  const cost = (document: string, variables: Record<string, unknown> = {}) => {
    const parsed = parse(document);
    const fragments = Object.fromEntries(
      parsed.definitions.filter((d) => d.kind === 'FragmentDefinition').map((d) => [(d as { name: { value: string } }).name.value, d]),
    );
    const operation = parsed.definitions.find((d) => d.kind === 'OperationDefinition') as OperationDefinitionNode;
    return operationCost(buildSchema(), operation, fragments as never, variables);
  };

  test.each([
    ['title', '{ title(titleNumber: "MID1234") { titleNumber } }', 2 * FIELD + REGISTER_CALL],
    ['creditors', '{ creditors(query: "bank") { creditorCode } }', 2 * FIELD + REGISTER_CALL],
    ['referenceList', '{ referenceList(path: "lr/creditor") { name } }', 2 * FIELD + REGISTER_CALL],
    ['referenceListPaths', '{ referenceListPaths }', FIELD + REGISTER_CALL],
    ['Title.securities', '{ title(titleNumber: "MID1234") { securities { id } } }', 3 * FIELD + 2 * REGISTER_CALL],
    ['titles, per item', '{ titles(titleNumbers: ["A1", "B2", "C3"]) { titleNumber } }', 2 * FIELD + 3 * REGISTER_CALL],
    ['securities under each titles item', '{ titles(titleNumbers: ["A1", "B2"]) { securities { id } } }', 3 * FIELD + 4 * REGISTER_CALL],
    [
      '_entities, per distinct title (a repeat costs nothing)',
      'query($r: [_Any!]!) { _entities(representations: $r) { __typename } }',
      2 * FIELD + 4 * REGISTER_CALL,
      { r: [{ titleNumber: 'A1' }, { titleNumber: 'B2' }, { titleNumber: 'C3' }, { titleNumber: 'D4' }, { titleNumber: 'A1' }] },
    ],
    ['a mutation', 'mutation { createCase(fas: "1877", input: {}) { case { id } } }', 3 * FIELD + REGISTER_CALL],
    ['registerUsage (free)', '{ registerUsage { calls } }', 2 * FIELD],
    ['chargeRecords (free)', '{ chargeRecords(day: "2026-11-23") { status } }', 2 * FIELD],
  ] as [string, string, number, Record<string, unknown>?][])('%s', (_label, document, expected, variables = {}) => {
    expect(cost(document, variables)).toBe(expected);
  });

  test('fragments, inline or named, add their cost and never subtract it', () => {
    const plain = cost('{ title(titleNumber: "MID1234") { securities { id } } }');
    expect(cost('{ title(titleNumber: "MID1234") { ... on Title { securities { id } } } }')).toBe(plain);
    expect(cost('{ title(titleNumber: "MID1234") { ...S } } fragment S on Title { securities { id } }')).toBe(plain);
    expect(cost('{ ... on Query { titles(titleNumbers: ["A1", "B2"]) { titleNumber } } }')).toBe(2 * FIELD + 2 * REGISTER_CALL);
  });

  test('a titles list given in a variable counts its items', () => {
    expect(cost('query($n: [TitleNumber!]!) { titles(titleNumbers: $n) { titleNumber } }', { n: hundred })).toBe(
      2 * FIELD + 100 * REGISTER_CALL,
    );
  });
});

describe('variables are priced and checked as execution coerces them', () => {
  const list = (numbers: string[]) => `[${numbers.map((n) => `"${n}"`).join(', ')}]`;

  test("a titles list given as the variable's default counts its items: three pages with securities are refused with no register call", async () => {
    const page = (alias: string) => `${alias}: titles(titleNumbers: $n) { titleNumber securities { id } }`;
    const query = `query($n: [TitleNumber!]! = ${list(hundred)}) { ${page('a')} ${page('b')} ${page('c')} }`;
    const body = await withoutCalls(() => post(query));
    expect(body.errors![0]!.extensions).toMatchObject({ code: 'COST_LIMIT_EXCEEDED', cost: 12 * FIELD + 600 * REGISTER_CALL });
  });

  test("_entities representations given as the variable's default are resolved", async () => {
    svc.emulator.calls.reset();
    const body = await post(
      'query($r: [_Any!]! = [{ __typename: "Title", titleNumber: "BLK4001" }, { __typename: "Title", titleNumber: "BLK4002" }]) { _entities(representations: $r) { ... on Title { titleNumber } } }',
    );
    expect(body).toEqual({ data: { _entities: [{ titleNumber: 'BLK4001' }, { titleNumber: 'BLK4002' }] } });
    expect(svc.emulator.calls.count({ route: 'titleSummary' })).toBe(2);
  });

  test("a bad representation in the variable's default is refused by index with no register call", async () => {
    const body = await withoutCalls(() =>
      post(
        'query($r: [_Any!]! = [{ __typename: "Title", titleNumber: "BLK4001" }, { __typename: "Title" }]) { _entities(representations: $r) { __typename } }',
      ),
    );
    expect(body.errors).toEqual([
      {
        message: 'representations[1]: titleNumber must be 3 uppercase letters followed by 1 to 8 digits.',
        extensions: { code: 'BAD_USER_INPUT', field: 'representations' },
      },
    ]);
  });

  test('one representation given without a list is a list of one, as GraphQL coerces it', async () => {
    svc.emulator.calls.reset();
    const body = await post(
      '{ _entities(representations: { __typename: "Title", titleNumber: "BLK4003" }) { ... on Title { titleNumber } } }',
    );
    expect(body).toEqual({ data: { _entities: [{ titleNumber: 'BLK4003' }] } });
    expect(svc.emulator.calls.count({ route: 'titleSummary' })).toBe(1);
  });

  test('a bad representation given without a list is refused with no register call', async () => {
    const body = await withoutCalls(() =>
      post('query($t: String!) { _entities(representations: { __typename: "Title", titleNumber: $t }) { __typename } }', {
        t: '../../ref',
      }),
    );
    expect(body.errors![0]!.message).toBe('representations[0]: titleNumber must be 3 uppercase letters followed by 1 to 8 digits.');
  });
});

/**
 * The same prices end to end: with the limit one below a field's price the request is refused,
 * having made no register call. Priced at zero, each of these would be answered instead.
 */
describe('every field that calls the register is priced by the running service', () => {
  test.each([
    ['title', '{ title(titleNumber: "MID1234") { titleNumber } }', 2 * FIELD + REGISTER_CALL],
    ['creditors', '{ creditors(query: "bank") { creditorCode } }', 2 * FIELD + REGISTER_CALL],
    ['referenceList', '{ referenceList(path: "lr/creditor") { name } }', 2 * FIELD + REGISTER_CALL],
    ['referenceListPaths', '{ referenceListPaths }', FIELD + REGISTER_CALL],
    ['Title.securities', '{ title(titleNumber: "MID1234") { securities { id } } }', 3 * FIELD + 2 * REGISTER_CALL],
    ['titles, per item', '{ titles(titleNumbers: ["BLK1", "BLK2", "BLK3"]) { titleNumber } }', 2 * FIELD + 3 * REGISTER_CALL],
    ['_entities, per distinct title', ENTITIES, 3 * FIELD + 4 * REGISTER_CALL, { r: [...reps(4), ...reps(2)] }],
    [
      'createCase (a mutation)',
      'mutation { createCase(fas: "0877", input: { reference: "r", contactEmail: "a@b.example", contactTelephone: "0131", titleNumbers: ["MID1234"], idempotencyKey: "cost-pin" }) { case { id } } }',
      3 * FIELD + REGISTER_CALL,
    ],
  ] as [string, string, number, Record<string, unknown>?][])('%s', async (_label, document, price, variables) => {
    const app = createApp(svc.services, { hardening: { limits: { ...DEFAULT_LIMITS, maxCost: price - 1 } } });
    const body = await withoutCalls(() => post(document, variables, app));
    expect(body.errors).toEqual([
      expect.objectContaining({ extensions: expect.objectContaining({ code: 'COST_LIMIT_EXCEEDED', cost: price, maxCost: price - 1 }) }),
    ]);
  });
});

describe('a document is priced once unless a variable can change its price', () => {
  const hundredLiteral = `[${Array.from({ length: 100 }, (_, i) => `"BLK${i + 1}"`).join(', ')}]`;
  const threePages = `{ ${['a', 'b', 'c'].map((alias) => `${alias}: titles(titleNumbers: ${hundredLiteral}) { titleNumber securities { id } }`).join(' ')} }`;

  test('the same literal document is refused every time, with no register call', async () => {
    for (let i = 0; i < 3; i++) {
      const body = await withoutCalls(() => post(threePages));
      expect(body.errors![0]!.extensions).toMatchObject({ code: 'COST_LIMIT_EXCEEDED', cost: 12 * FIELD + 600 * REGISTER_CALL });
    }
  });

  test('the same text with a variable list is priced by each request’s variables', async () => {
    const query =
      'query($n: [TitleNumber!]!) { a: titles(titleNumbers: $n) { titleNumber securities { id } } b: titles(titleNumbers: $n) { titleNumber securities { id } } c: titles(titleNumbers: $n) { titleNumber securities { id } } }';
    const small = await post(query, { n: ['MID15313'] });
    expect(small.errors).toBeUndefined();
    const large = await withoutCalls(() => post(query, { n: hundred }));
    expect(large.errors![0]!.extensions).toMatchObject({ code: 'COST_LIMIT_EXCEEDED' });
    const smallAgain = await post(query, { n: ['MID15313'] });
    expect(smallAgain.errors).toBeUndefined();
  });

  test('a variable nested inside a representation literal is checked per request', async () => {
    const query =
      'query($t: String) { _entities(representations: [{ __typename: "Title", titleNumber: $t }]) { ... on Title { titleNumber } } }';
    const good = await post(query, { t: 'BLK4010' });
    expect(good).toEqual({ data: { _entities: [{ titleNumber: 'BLK4010' }] } });
    const bad = await withoutCalls(() => post(query, { t: 'nope' }));
    expect(bad.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'representations' });
  });
});
