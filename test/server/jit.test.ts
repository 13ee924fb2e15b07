/**
 * graphql-jit (src/server/jit.ts) must change nothing a caller sees. Each document goes three
 * times to a service with GRAPHQL_JIT off (graphql-js executes everything) and three times to
 * one that compiles a document after one run (so: interpreted, then compiled, compiled), and
 * each answer must equal the other service's, errors, nulls and their paths included. Both
 * services run over their own emulator with the same fixtures and get the same requests in the
 * same order, with faults injected into both alike, so their state (quota, breaker) moves in step.
 */
import { buildSchema, execute, parse } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_COMPILE_AFTER } from '../../src/server/settings';
import { parseMetrics, sum } from '../support/prometheus';
import { serviceForTest, startService, type Service } from '../support/harness';
import { postRaw } from '../support/post-raw';

type Running = Service & { stop(): Promise<void> };
let interpreted: Running;
let jit: Running;

beforeAll(async () => {
  interpreted = await startService({ app: { jit: false } });
  jit = await startService({ app: { jit: { compileAfter: 1 } } });
});
afterAll(async () => {
  await interpreted?.stop();
  await jit?.stop();
});

/** Documents this service compiled with graphql-jit, as its /metrics tells it. */
async function compiledDocuments(svc: Service): Promise<number> {
  const text = await (await svc.yoga.fetch('http://titlegraph.test/metrics')).text();
  return sum(parseMetrics(text), 'titlegraph_graphql_compilations_total', { outcome: 'compiled' });
}

async function send(svc: Service, query: string, variables?: Record<string, unknown>, accept = 'application/graphql-response+json') {
  const answer = await postRaw(svc.yoga, { query, variables }, { accept });
  return { status: answer.status, contentType: answer.headers.get('content-type'), body: answer.text };
}

/** Three answers from each service, the i-th of one equal to the i-th of the other. Returns how many documents were compiled meanwhile. */
async function sameAnswers(query: string, variables?: Record<string, unknown>, options: { fault?: boolean; accept?: string } = {}) {
  const before = await compiledDocuments(jit);
  const answer = async (svc: Running) => {
    if (options.fault) svc.emulator.faults.inject('titleSummary', { kind: 'status', status: 500 }, 50);
    try {
      return await send(svc, query, variables, options.accept);
    } finally {
      if (options.fault) svc.emulator.faults.clear();
    }
  };
  let expected: Awaited<ReturnType<typeof send>> | undefined;
  for (let i = 0; i < 3; i++) {
    const graphqlJs = await answer(interpreted);
    expect(await answer(jit)).toEqual(graphqlJs);
    expected ??= graphqlJs;
  }
  return { expected: expected!, compiledNow: (await compiledDocuments(jit)) - before };
}

test('by default a document is compiled only once it has run 10 times: a caller cannot make us compile each new document', async () => {
  const svc = await serviceForTest();
  const before = await compiledDocuments(svc);
  const query = '{ title(titleNumber: "MID1234") { titleNumber } }';
  for (let i = 0; i < 10; i++) expect(JSON.parse((await send(svc, query)).body).data.title.titleNumber).toBe('MID1234');
  expect(await compiledDocuments(svc)).toBe(before);
  expect(JSON.parse((await send(svc, query)).body).data.title.titleNumber).toBe('MID1234');
  expect(await compiledDocuments(svc)).toBe(before + 1);
});

describe('a document sent again runs compiled, and callers get the answers graphql-js gives', () => {
  test('a title with fragments, aliases, __typename, nested lists and enums', async () => {
    const { expected, compiledNow } = await sameAnswers(
      `query Full($t: TitleNumber!) {
        title(titleNumber: $t) { ...Head  again: titleNumber __typename
          right { type description addresses { street town postcode } }
          proprietorships { considerationEntries { consideration } }
          plans { type paperSize description lastUpdated }
          applications { applicationNumber applicationDate type { code prettyPrint } }
          securities { id specification dateOfRegistration } }
      }
      fragment Head on Title { titleNumber status titleType searchSheet titleSheetUpdatedTo }`,
      { t: 'MID15313' },
    );
    expect(JSON.parse(expected.body).data.title.titleNumber).toBe('MID15313');
    expect(compiledNow).toBe(1);
  });

  test('a list of titles, one of them unknown (null), with @include and @skip from variables', async () => {
    const { expected, compiledNow } = await sameAnswers(
      `query Page($ts: [TitleNumber!]!, $withPlans: Boolean!, $noStatus: Boolean!) {
        titles(titleNumbers: $ts) { titleNumber status @skip(if: $noStatus) plans @include(if: $withPlans) { description } }
      }`,
      { ts: ['MID15313', 'ZZZ999', 'GLA5001', 'EDN42'], withPlans: true, noStatus: false },
    );
    expect(JSON.parse(expected.body).data.titles).toHaveLength(4);
    expect(compiledNow).toBe(1);
  });

  test("variables that do not coerce keep graphql-js's messages", async () => {
    const { expected, compiledNow } = await sameAnswers('query Bad($t: TitleNumber!) { title(titleNumber: $t) { titleNumber } }', {
      t: 'not a title',
    });
    expect(JSON.parse(expected.body).errors[0].message).toMatch(/\$t/);
    // Compiled on the second sight, but never run: the interpreter answers.
    expect(compiledNow).toBe(1);
  });

  test('a literal argument, and a mutation refused for its input (nothing created)', async () => {
    await sameAnswers('{ title(titleNumber: "EDN42") { titleNumber status } }');
    const { expected } = await sameAnswers(
      `mutation Refused($input: CreateCaseInput!) {
        createCase(fas: "0000000000", input: $input) { case { id } userErrors { code message field } }
      }`,
      { input: { reference: 'x'.repeat(51), contactEmail: 'not an e-mail', contactTelephone: '0131', titleNumbers: [] } },
    );
    const body = JSON.parse(expected.body);
    expect(body.errors ?? body.data.createCase.userErrors).not.toHaveLength(0);
    for (const svc of [interpreted, jit]) expect(svc.emulator.calls.count({ route: 'createCase' })).toBe(0);
  });

  test('federation: _service, and one _entities representation with a variable inside it, given without a list', async () => {
    await sameAnswers('{ _service { sdl } }');
    const { expected, compiledNow } = await sameAnswers(
      'query E($t: String!) { _entities(representations: { __typename: "Title", titleNumber: $t }) { ... on Title { titleNumber status } } }',
      { t: 'MID15313' },
    );
    expect(JSON.parse(expected.body).data._entities[0].titleNumber).toBe('MID15313');
    // graphql-jit parses an _Any literal without the request's variables: graphql-js runs it.
    expect(compiledNow).toBe(0);
    const asList = await sameAnswers(
      'query L($t: String!) { _entities(representations: [{ __typename: "Title", titleNumber: $t }]) { ... on Title { titleNumber status } } }',
      { t: 'MID15313' },
    );
    expect(JSON.parse(asList.expected.body).data._entities[0].titleNumber).toBe('MID15313');
    expect(asList.compiledNow).toBe(0);
    // Without a variable inside, or with the whole list as a variable (as gateways send it), it compiles.
    const literal = await sameAnswers(
      '{ _entities(representations: [{ __typename: "Title", titleNumber: "MID1234" }]) { ... on Title { status } } }',
    );
    expect(literal.compiledNow).toBe(1);
    const gateway = await sameAnswers('query G($r: [_Any!]!) { _entities(representations: $r) { ... on Title { titleNumber status } } }', {
      r: [{ __typename: 'Title', titleNumber: 'GLA5001' }],
    });
    expect(JSON.parse(gateway.expected.body).data._entities[0].status).toBe('DRAFT');
    expect(gateway.compiledNow).toBe(1);
  });

  test('@defer keeps the streaming executor: same parts, never compiled', async () => {
    const { expected, compiledNow } = await sameAnswers(
      'query Deferred { title(titleNumber: "MID15313") { titleNumber ... @defer { plans { description } } } }',
      undefined,
      { accept: 'multipart/mixed' },
    );
    expect(expected.contentType).toMatch(/multipart\/mixed/);
    expect(expected.body).toContain('"hasNext":false');
    expect(compiledNow).toBe(0);
  });

  // Last: the failures it injects open the register circuit breaker for a while.
  test('the register failing: the same error, code, path and null', async () => {
    const { expected, compiledNow } = await sameAnswers(
      'query Failing($t: TitleNumber!) { title(titleNumber: $t) { titleNumber status } }',
      { t: 'MID1234' },
      { fault: true },
    );
    const body = JSON.parse(expected.body);
    expect(body.data).toEqual({ title: null });
    expect(body.errors[0].path).toEqual(['title']);
    expect(body.errors[0].extensions.code).toBeDefined();
    expect(compiledNow).toBe(1);
  });
});

describe('a list whose last item fails while an earlier one is still loading (issue 31)', () => {
  // graphql-jit's own bug, without this service (the reproduction in src/server/jit.ts): a rejected
  // list item was pushed at the end of the array instead of written at its index. Importing
  // src/server/jit.ts corrects graphql-jit's runtime; this proves the correction reaches it.
  const positions = [
    ['first', 0],
    ['middle', 1],
    ['last', 2],
  ] as const;
  test.each(positions.flatMap(([position, failing]) => [true, false].map((failsFirst) => ({ position, failing, failsFirst }))))(
    'graphql-jit alone: the $position of 3 items failing (before the others settle: $failsFirst) is null at its own index, as in graphql-js',
    async ({ failing, failsFirst }) => {
      const schema = buildSchema('type Query { items: [Item] } type Item { n: Int }');
      const settle = (first: boolean) => new Promise((resolve) => setTimeout(resolve, first ? 0 : 20));
      schema.getQueryType()!.getFields().items!.resolve = () =>
        [0, 1, 2].map(async (n) => {
          await settle(n === failing ? failsFirst : !failsFirst);
          if (n === failing) throw new Error(`item ${n} failed`);
          return { n };
        });
      const document = parse('{ items { n } }');
      const compiled = compileQuery(schema, document);
      if (!isCompiledQuery(compiled)) throw new Error('graphql-jit did not compile the reproduction');
      const graphqlJs = await execute({ schema, document });
      const jit = await compiled.query({}, {}, {});
      expect(jit.data).toEqual(graphqlJs.data);
      expect(Object.keys(jit.data!.items as unknown[])).toEqual(['0', '1', '2']); // no hole where the failed item was
      expect(jit.errors?.map((e) => [e.message, e.path])).toEqual(graphqlJs.errors?.map((e) => [e.message, e.path]));
    },
  );

  // Two register calls at a time: the first two titles' calls start together and both get the
  // same slow (dripped) answer, whatever order they reach the emulator in; the last title's call
  // starts when the first of them has answered, so it is the one that meets the 500s, and fails
  // while the second title (the large MID15313) is still arriving.
  const TITLES = ['GLA5001', 'MID15313', 'MID1234'];
  const LAST_FAILS_FIRST = {
    reads: { concurrency: 2, summaryCacheTtlMs: 0 },
    transport: { retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 2 }, breaker: { failureThreshold: 10_000, openMs: 100 } },
  };

  async function lastFailsFirst(svc: Service, query: string, variables: Record<string, unknown>) {
    svc.emulator.calls.reset();
    svc.emulator.faults.inject('titleSummary', { kind: 'drip', chunkBytes: 16, intervalMs: 2 }, 2);
    svc.emulator.faults.inject('titleSummary', { kind: 'status', status: 500 }, 50);
    try {
      return JSON.parse((await send(svc, query, variables)).body);
    } finally {
      svc.emulator.faults.clear();
    }
  }

  test.each([
    ['titles', 'query Page($ts: [TitleNumber!]!) { titles(titleNumbers: $ts) { titleNumber status } }', { ts: TITLES }],
    [
      '_entities',
      'query Entities($r: [_Any!]!) { _entities(representations: $r) { ... on Title { titleNumber status } } }',
      { r: TITLES.map((titleNumber) => ({ __typename: 'Title', titleNumber })) },
    ],
  ])('%s, compiled from its 11th run, answers every item, the failed last one null with its error', async (field, query, variables) => {
    const svc = await serviceForTest({ services: LAST_FAILS_FIRST, app: { jit: { compileAfter: DEFAULT_COMPILE_AFTER } } });
    for (let i = 0; i < DEFAULT_COMPILE_AFTER; i++) expect(JSON.parse((await send(svc, query, variables)).body).errors).toBeUndefined();
    const before = await compiledDocuments(svc);
    const body = await lastFailsFirst(svc, query, variables);
    expect(await compiledDocuments(svc)).toBe(before + 1);
    expect(body.data[field]).toHaveLength(3);
    expect(body.data[field].map((t: { titleNumber: string } | null) => t?.titleNumber ?? null)).toEqual(['GLA5001', 'MID15313', null]);
    expect(body.errors).toHaveLength(1);
    expect(body.errors[0].path).toEqual([field, 2]);
    // Every 500 went to the last title's summary, and the others were answered in full.
    const failed = svc.emulator.calls.list().filter((c) => c.route === 'titleSummary' && c.status === 500);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((c) => c.path.endsWith('/MID1234/summary'))).toBe(true);
    expect(svc.emulator.calls.count({ route: 'titleSummary', status: 200 })).toBe(2);
  });
});
