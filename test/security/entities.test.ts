/**
 * `_entities` representations: the pure check (`representationErrors`) as a table, finding the
 * `_entities` fields of an operation (`entitiesCalls`), and what a caller meets over HTTP: up to
 * the cap of distinct titles resolved with one register call each, and every refusal (a bad
 * representation by index, too many titles, in a variable, its default or inline) made before
 * any register call, judged on the emulator's call log. What `_entities` costs is in cost.test.ts.
 */
import { parse, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { entitiesCalls, representationErrors } from '../../src/security/entities';
import { startService } from '../support/harness';
import { postRaw } from '../support/post-raw';

const SHAPE = 'must be 3 uppercase letters followed by 1 to 8 digits.';
const messages = (given: unknown, max = 100) => representationErrors(given, max).map((e) => e.message);

describe('representationErrors', () => {
  test.each([
    ['a Title with a good titleNumber', { __typename: 'Title', titleNumber: 'MID1234' }, []],
    ['a Title with extra fields', { __typename: 'Title', titleNumber: 'MID1234', other: 1 }, []],
    ['false', false, ['representations[0] must be an object with __typename and its key.']],
    ['a number', 7, ['representations[0] must be an object with __typename and its key.']],
    ['a string', 'MID1234', ['representations[0] must be an object with __typename and its key.']],
    ['a list', ['Title', 'MID1234'], ['representations[0] must be an object with __typename and its key.']],
    ['no __typename', { titleNumber: 'MID1234' }, ['representations[0]: __typename must be one of Title.']],
    ['an unknown __typename', { __typename: 'Case', titleNumber: 'MID1234' }, ['representations[0]: __typename must be one of Title.']],
    ['__typename as a list', { __typename: ['Title'], titleNumber: 'MID1234' }, ['representations[0]: __typename must be one of Title.']],
    ['__typename as a number', { __typename: 1, titleNumber: 'MID1234' }, ['representations[0]: __typename must be one of Title.']],
    ['no titleNumber', { __typename: 'Title' }, [`representations[0]: titleNumber ${SHAPE}`]],
    ['titleNumber as a list', { __typename: 'Title', titleNumber: ['MID1234'] }, [`representations[0]: titleNumber ${SHAPE}`]],
    ['titleNumber as a number', { __typename: 'Title', titleNumber: 1234 }, [`representations[0]: titleNumber ${SHAPE}`]],
    ['titleNumber in lower case', { __typename: 'Title', titleNumber: 'mid1234' }, [`representations[0]: titleNumber ${SHAPE}`]],
  ] as [string, unknown, string[]][])('one representation given as %s', (_label, representation, expected) => {
    expect(messages([representation])).toEqual(expected);
    // GraphQL's input coercion: one value where a list is expected is a list of one.
    if (!Array.isArray(representation)) expect(messages(representation)).toEqual(expected);
  });

  test('null in the list is refused by index', () => {
    expect(messages([{ __typename: 'Title', titleNumber: 'MID1234' }, null])).toEqual([
      'representations[1] must be an object with __typename and its key.',
    ]);
  });

  test.each([null, undefined])('%s instead of a list is refused as a whole', (given) => {
    const errors = representationErrors(given, 100);
    expect(errors.map((e) => [e.message, e.extensions])).toEqual([
      ['representations must be a list of entity representations.', { code: 'BAD_USER_INPUT', field: 'representations' }],
    ]);
  });

  test('every bad representation is reported, in order, by index; good ones are not', () => {
    const good = { __typename: 'Title', titleNumber: 'MID1234' };
    expect(messages([good, { __typename: 'Title' }, good, 'x', { __typename: 'Plan' }])).toEqual([
      `representations[1]: titleNumber ${SHAPE}`,
      'representations[3] must be an object with __typename and its key.',
      'representations[4]: __typename must be one of Title.',
    ]);
  });

  test("the cap counts distinct titles: repeats cost nothing; one title past it is refused as a whole, in the caller's terms", () => {
    const reps = (n: number) => Array.from({ length: n }, (_, i) => ({ __typename: 'Title', titleNumber: `BLK${i + 1}` }));
    expect(messages(reps(100))).toEqual([]);
    // 101 references to 2 titles, as Apollo Gateway sends them
    expect(messages(Array.from({ length: 101 }, (_, i) => ({ __typename: 'Title', titleNumber: i % 2 ? 'MID1234' : 'MID15313' })))).toEqual(
      [],
    );
    expect(messages(reps(101))).toEqual([
      "This query needs 101 different titles from the register in one request; the limit is 100. Ask for fewer titles at once (a gateway sends all of one query's title references together).",
    ]);
  });
});

describe('entitiesCalls', () => {
  const calls = (document: string, variables: Record<string, unknown> = {}) => {
    const parsed = parse(document);
    const fragments: Record<string, FragmentDefinitionNode> = {};
    for (const d of parsed.definitions) if (d.kind === 'FragmentDefinition') fragments[d.name.value] = d;
    const operation = parsed.definitions.find((d) => d.kind === 'OperationDefinition') as OperationDefinitionNode;
    return entitiesCalls(operation, fragments, variables);
  };
  const rep = { __typename: 'Title', titleNumber: 'MID1234' };

  test('each _entities field of a query, aliased, in inline or named fragments, with its representations', () => {
    expect(
      calls(
        `query($r: [_Any!]!) {
          a: _entities(representations: $r) { __typename }
          ... { b: _entities(representations: [{ __typename: "Title", titleNumber: "BLK1" }]) { __typename } }
          ... on Query { ...F }
          title(titleNumber: "MID1") { titleNumber }
        }
        fragment F on Query { c: _entities(representations: { __typename: "Title", titleNumber: "BLK2" }) { __typename } }`,
        { r: [rep] },
      ),
    ).toEqual([[rep], [{ __typename: 'Title', titleNumber: 'BLK1' }], { __typename: 'Title', titleNumber: 'BLK2' }]);
  });

  test('a named fragment spread twice is one _entities field', () => {
    expect(calls('{ ...F ...F } fragment F on Query { _entities(representations: []) { __typename } }')).toEqual([[]]);
  });

  test('a missing representations argument (refused by validation anyway) is found as nothing given', () => {
    expect(calls('{ _entities(other: 1) { __typename } }')).toEqual([undefined]);
  });

  test('an unknown fragment (refused by validation anyway) is skipped', () => {
    expect(calls('{ ...Missing _entities(representations: []) { __typename } }')).toEqual([[]]);
  });

  test('mutations have no _entities field', () => {
    expect(calls('mutation { _entities(representations: []) { __typename } }')).toEqual([]);
  });
});

type Svc = Awaited<ReturnType<typeof startService>>;
let svc: Svc;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.stop());

/** A request as dev-key-b, with the register calls it caused. */
async function judged(query: string, variables?: unknown) {
  svc.emulator.calls.reset();
  const answer = await postRaw(svc.yoga, { query, variables }, { authorization: 'Bearer dev-key-b' });
  return { ...answer, calls: svc.emulator.calls.count() };
}

const ENTITIES = 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Title { titleNumber status } } }';
const reps = (n: number, offset = 0) => Array.from({ length: n }, (_, i) => ({ __typename: 'Title', titleNumber: `BLK${offset + i + 1}` }));

describe('over HTTP', () => {
  test('null given through a nullable variable with a default is refused as not a list, with no register call', async () => {
    const { body, calls } = await judged(
      'query($r: [_Any!] = [{ __typename: "Title", titleNumber: "BLK1" }]) { _entities(representations: $r) { __typename } }',
      { r: null },
    );
    expect(body.errors).toEqual([
      {
        message: 'representations must be a list of entity representations.',
        extensions: { code: 'BAD_USER_INPUT', field: 'representations' },
      },
    ]);
    expect(calls).toBe(0);
  });

  test.each([
    ['__typename given as a list', { __typename: ['Title'], titleNumber: 'BLK1' }, 'representations[0]: __typename must be one of Title.'],
    ['titleNumber given as a list', { __typename: 'Title', titleNumber: ['BLK1'] }, `representations[0]: titleNumber ${SHAPE}`],
    ['a list', [{ __typename: 'Title', titleNumber: 'BLK1' }], 'representations[0] must be an object with __typename and its key.'],
  ])('a representation with %s is refused with no register call', async (_label, representation, message) => {
    const { body, calls } = await judged('query($r: [_Any!]!) { _entities(representations: $r) { __typename } }', { r: [representation] });
    expect(body.errors?.map((e) => e.message)).toEqual([message]);
    expect(calls).toBe(0);
  });

  test('a bad representation in a named fragment spread twice is reported once', async () => {
    const { body, calls } = await judged(
      '{ ...F ...F } fragment F on Query { _entities(representations: [{ __typename: "Title" }]) { __typename } }',
    );
    expect(body.errors?.map((e) => e.message)).toEqual([`representations[0]: titleNumber ${SHAPE}`]);
    expect(calls).toBe(0);
  });

  test('_entities in an inline fragment without a type condition is checked too', async () => {
    const { body, calls } = await judged('{ ... { _entities(representations: [{ __typename: "Title" }]) { __typename } } }');
    expect(body.errors?.map((e) => e.message)).toEqual([`representations[0]: titleNumber ${SHAPE}`]);
    expect(calls).toBe(0);
  });

  test.each([
    ['no titleNumber', { __typename: 'Title' }, `representations[2]: titleNumber ${SHAPE}`],
    ['an unknown __typename', { __typename: 'Matter', titleNumber: 'MID1234' }, 'representations[2]: __typename must be one of Title.'],
    ['no __typename', { titleNumber: 'MID1234' }, 'representations[2]: __typename must be one of Title.'],
    ['a path', { __typename: 'Title', titleNumber: '../../ref' }, `representations[2]: titleNumber ${SHAPE}`],
    ['a space', { __typename: 'Title', titleNumber: 'bad num' }, `representations[2]: titleNumber ${SHAPE}`],
    ['a number', { __typename: 'Title', titleNumber: 15313 }, `representations[2]: titleNumber ${SHAPE}`],
    ['not an object', 'MID1234', 'representations[2] must be an object with __typename and its key.'],
  ])(
    'among good ones, a representation with %s is refused by index, and none of the request reaches the register',
    async (_label, bad, message) => {
      const { body, calls } = await judged(ENTITIES, { r: [...reps(2), bad, ...reps(2, 10)] });
      expect(body.errors).toEqual([{ message, extensions: { code: 'BAD_USER_INPUT', field: 'representations' } }]);
      expect(JSON.stringify(body)).not.toMatch(/route|titleSummary|\.\.\/\.\.\/ref/);
      expect(calls).toBe(0);
    },
  );

  test('inline representations are checked too', async () => {
    const { body, calls } = await judged('{ _entities(representations: [{ __typename: "Title", titleNumber: "x" }]) { __typename } }');
    expect(body.errors![0]!.message).toBe(`representations[0]: titleNumber ${SHAPE}`);
    expect(calls).toBe(0);
  });

  test('100 representations are resolved, one summary call each', async () => {
    const { body } = await judged(ENTITIES, { r: reps(100, 1000) });
    expect(body.errors).toBeUndefined();
    expect((body.data!._entities as unknown[]).length).toBe(100);
    expect(svc.emulator.calls.count({ route: 'titleSummary' })).toBe(100);
  });

  test('101 references to 2 titles, as Apollo Gateway sends them: all resolve, with 2 register calls', async () => {
    const r = Array.from({ length: 101 }, (_, i) => ({ __typename: 'Title', titleNumber: i % 2 ? 'MID1234' : 'MID15313' }));
    const { body } = await judged(ENTITIES, { r });
    expect(body.errors).toBeUndefined();
    expect((body.data!._entities as { titleNumber: string }[]).map((t) => t.titleNumber)).toEqual(r.map((x) => x.titleNumber));
    expect(svc.emulator.calls.count({ route: 'titleSummary' })).toBe(2);
  });

  test.each([501, 1_300])("%i different titles are refused once, in the query's terms, with no register call", async (n) => {
    const { body, calls } = await judged(ENTITIES, { r: reps(n) });
    expect(body.errors).toEqual([
      expect.objectContaining({
        message: `This query needs ${n} different titles from the register in one request; the limit is 500. Ask for fewer titles at once (a gateway sends all of one query's title references together).`,
        extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }),
      }),
    ]);
    expect(calls).toBe(0);
  });

  test('a query with no _entities field is not checked for representations', async () => {
    const { body, calls } = await judged('{ title(titleNumber: "BLK1") { titleNumber } }');
    expect(body).toEqual({ data: { title: { titleNumber: 'BLK1' } } });
    expect(calls).toBeGreaterThan(0);
    expect(svc.emulator.calls.count({ route: 'titleSummary' })).toBe(1);
  });
});

describe('representations in variables, their defaults, or given without a list, as execution coerces them', () => {
  test("_entities representations given as the variable's default are resolved", async () => {
    const { body } = await judged(
      'query($r: [_Any!]! = [{ __typename: "Title", titleNumber: "BLK4001" }, { __typename: "Title", titleNumber: "BLK4002" }]) { _entities(representations: $r) { ... on Title { titleNumber } } }',
    );
    expect(body).toEqual({ data: { _entities: [{ titleNumber: 'BLK4001' }, { titleNumber: 'BLK4002' }] } });
    expect(svc.emulator.calls.count({ route: 'titleSummary' })).toBe(2);
  });

  test("a bad representation in the variable's default is refused by index with no register call", async () => {
    const { body, calls } = await judged(
      'query($r: [_Any!]! = [{ __typename: "Title", titleNumber: "BLK4001" }, { __typename: "Title" }]) { _entities(representations: $r) { __typename } }',
    );
    expect(body.errors).toEqual([
      { message: `representations[1]: titleNumber ${SHAPE}`, extensions: { code: 'BAD_USER_INPUT', field: 'representations' } },
    ]);
    expect(calls).toBe(0);
  });

  test('one representation given without a list is a list of one', async () => {
    const { body } = await judged(
      '{ _entities(representations: { __typename: "Title", titleNumber: "BLK4003" }) { ... on Title { titleNumber } } }',
    );
    expect(body).toEqual({ data: { _entities: [{ titleNumber: 'BLK4003' }] } });
    expect(svc.emulator.calls.count({ route: 'titleSummary' })).toBe(1);
  });

  test('a bad representation given without a list is refused with no register call', async () => {
    const { body, calls } = await judged(
      'query($t: String!) { _entities(representations: { __typename: "Title", titleNumber: $t }) { __typename } }',
      { t: '../../ref' },
    );
    expect(body.errors![0]!.message).toBe(`representations[0]: titleNumber ${SHAPE}`);
    expect(calls).toBe(0);
  });

  test('a variable nested inside a representation literal is checked per request', async () => {
    const query =
      'query($t: String) { _entities(representations: [{ __typename: "Title", titleNumber: $t }]) { ... on Title { titleNumber } } }';
    const good = await judged(query, { t: 'BLK4010' });
    expect(good.body).toEqual({ data: { _entities: [{ titleNumber: 'BLK4010' }] } });
    const bad = await judged(query, { t: 'nope' });
    expect(bad.body.errors![0]!.extensions).toMatchObject({ code: 'BAD_USER_INPUT', field: 'representations' });
    expect(bad.calls).toBe(0);
  });
});

describe('a __typename that names a built-in object property', () => {
  test.each(['constructor', 'toString', '__proto__', 'hasOwnProperty'])('%s is refused as an unknown type, in plain words', (typename) => {
    const errors = representationErrors([{ __typename: typename, titleNumber: 'MID1234' }], 100);
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toMatch(/^representations\[0\]: __typename must be one of /);
    expect(errors[0]!.message).not.toContain('native code');
  });
});
