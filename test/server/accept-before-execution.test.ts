/**
 * Content negotiation finishes before anything runs (src/server/acceptable-answer.ts): a request
 * whose answer could not go out in a media type its `Accept` admits is refused 406, in our words,
 * with nothing sent to the register; every other one is answered in a type it admits, and a
 * purchase's charge is in the bytes received. Judged on the emulator's ledger and call log, on
 * both executors (graphql-jit compiles a document once it repeats), POST and GET.
 */
import { createYoga, createSchema } from 'graphql-yoga';
import { useDeferStream } from '@graphql-yoga/plugin-defer-stream';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { answerMediaType } from '../../src/server/acceptable-answer';
import { parseMetrics, sum } from '../support/prometheus';
import { newKey, type Service, startService } from '../support/harness';
import { postRaw } from '../support/post-raw';

const PURCHASE = `mutation Buy($input: PurchaseTitleInput!) {
  purchaseTitleDetails(fas: "0877", input: $input) { charges { fee transactionNumber } userErrors { code message } }
}`;
const FREE = 'query Free($t: TitleNumber!) { title(titleNumber: $t) { titleNumber status } }';

/** Accept values no answer of ours can go out in (Yoga, unchecked, ran the operation and then answered an empty 406). */
const UNACCEPTABLE = [
  'application/xml',
  'text/html',
  'image/png',
  'IMAGE/PNG',
  'application/json;q=0',
  'application/graphql-response+json;q=0.000, text/html',
  'application/json; charset=iso-8859-1',
  'application/*;q=0',
  '*',
  ',',
];

/** Accept values an answer goes out in ('' is no Accept at all, as for Yoga). */
const ACCEPTABLE = [
  null,
  '',
  '*/*',
  'application/*',
  'text/event-stream',
  'multipart/mixed',
  'multipart/mixed;deferSpec=20220824',
  'application/graphql-response+json',
  'Application/JSON',
  'application/json; charset=UTF-8',
  'application/json;q=0.5',
  'text/html, application/json',
  'text/*',
];

let titles = 0;
/** A title not bought or read before in this file: each purchase is charged, each read goes to the register. */
const freshTitle = () => `BLK${1000 + ++titles}`;

const CSRF = { 'x-graphql-yoga-csrf': '1' };

/** A browser's GET of the endpoint: GraphiQL's page, or the page saying it is off (src/server/graphiql.ts). */
const opensGraphiQL = (accept: string | null) => accept?.includes('text/html') === true;

/** An Accept header as postRaw takes it: null leaves the header out. */
const acceptHeader = (accept: string | null) => ({ accept });

async function buy(svc: Service, titleNumber: string, accept: string | null, key = newKey()) {
  return postRaw(svc.yoga, { query: PURCHASE, variables: { input: { titleNumber, idempotencyKey: key } } }, acceptHeader(accept));
}

async function read(svc: Service, titleNumber: string, accept: string | null) {
  return postRaw(svc.yoga, { query: FREE, variables: { t: titleNumber } }, acceptHeader(accept));
}

async function readByGet(svc: Service, titleNumber: string, accept: string | null) {
  const url = `http://titlegraph.test/graphql?query=${encodeURIComponent(FREE)}&variables=${encodeURIComponent(JSON.stringify({ t: titleNumber }))}`;
  const headers: Record<string, string> = { authorization: 'Bearer dev-key-a', ...CSRF };
  if (accept !== null) headers.accept = accept;
  const response = await svc.yoga.fetch(url, { headers });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text };
}

async function compiledDocuments(svc: Service): Promise<number> {
  const text = await (await svc.yoga.fetch('http://titlegraph.test/metrics')).text();
  return sum(parseMetrics(text), 'titlegraph_graphql_compilations_total', { outcome: 'compiled' });
}

/** A 406 in our words: JSON, code NOT_ACCEPTABLE, naming what we answer in. */
function expectRefusal(answer: { status: number; headers: Headers; text: string }) {
  expect(answer.status).toBe(406);
  expect(answer.headers.get('content-type')).toMatch(/^application\/json/);
  const body = JSON.parse(answer.text) as { errors: { message: string; extensions: { code: string } }[]; data?: unknown };
  expect(body.data).toBeUndefined();
  expect(body.errors).toEqual([
    expect.objectContaining({
      message: expect.stringContaining('application/graphql-response+json or application/json'),
      extensions: expect.objectContaining({ code: 'NOT_ACCEPTABLE' }),
    }),
  ]);
  return body.errors[0]!.message;
}

describe.each([
  ['graphql-js', false as const],
  ['graphql-jit, the documents compiled first', { compileAfter: 1 }],
])('%s', (executor, jit) => {
  let svc: Service & { stop(): Promise<void> };
  beforeAll(async () => {
    svc = await startService({ app: { jit } });
    if (!jit) return;
    // Each document runs twice with an Accept we answer: from the second run on it is compiled.
    const before = await compiledDocuments(svc);
    for (let i = 0; i < 2; i++) {
      expect((await buy(svc, freshTitle(), 'application/json')).status).toBe(200);
      expect((await read(svc, freshTitle(), 'application/json')).status).toBe(200);
    }
    expect(await compiledDocuments(svc)).toBe(before + 2);
  });
  afterAll(() => svc?.stop());

  test.each(UNACCEPTABLE)(`a purchase with Accept: %j is refused 406 before anything is sent (${executor})`, async (accept) => {
    const titleNumber = freshTitle();
    const calls = svc.emulator.calls.count();
    const answer = await buy(svc, titleNumber, accept);
    const message = expectRefusal(answer);
    expect(message).toContain(JSON.stringify(accept));
    expect(svc.emulator.calls.count()).toBe(calls);
    expect(svc.emulator.ledger.count({ titleNumber })).toBe(0);
  });

  test.each(UNACCEPTABLE)(
    `a free query with Accept: %j is refused 406 before anything is sent, POST and GET (${executor})`,
    async (accept) => {
      const calls = svc.emulator.calls.count();
      expectRefusal(await read(svc, freshTitle(), accept));
      if (!opensGraphiQL(accept)) expectRefusal(await readByGet(svc, freshTitle(), accept));
      expect(svc.emulator.calls.count()).toBe(calls);
    },
  );

  test.each(ACCEPTABLE)(
    `a purchase with Accept: %j is charged once, and the charge is in the bytes received (${executor})`,
    async (accept) => {
      const titleNumber = freshTitle();
      const answer = await buy(svc, titleNumber, accept);
      expect(answer.status).toBe(200);
      const charged = svc.emulator.ledger.charges.filter((c) => c.titleNumber === titleNumber);
      expect(charged).toHaveLength(1);
      expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(svc.emulator.ledger.count());
      expect(answer.text).toContain(charged[0]!.charge.transactionNumber);
      expect(answer.text).toContain(`"fee":"${charged[0]!.charge.fee}"`);
    },
  );

  test.each(ACCEPTABLE)(`a free query with Accept: %j is answered, POST and GET (${executor})`, async (accept) => {
    const posted = freshTitle();
    const post = await read(svc, posted, accept);
    expect(post.status).toBe(200);
    expect(post.text).toContain(`"titleNumber":"${posted}"`);
    if (opensGraphiQL(accept)) return;
    const got = freshTitle();
    const get = await readByGet(svc, got, accept);
    expect(get.status).toBe(200);
    expect(get.text).toContain(`"titleNumber":"${got}"`);
  });
});

describe('@defer and @stream need an Accept that admits a stream', () => {
  let svc: Service & { stop(): Promise<void> };
  beforeAll(async () => {
    svc = await startService();
  });
  afterAll(() => svc?.stop());

  const DEFERRED = 'query D($t: TitleNumber!) { title(titleNumber: $t) { titleNumber ... @defer { status } } }';
  const STREAMED =
    'query S($a: TitleNumber!, $b: TitleNumber!) { titles(titleNumbers: [$a, $b]) @stream(initialCount: 0) { titleNumber } }';

  test.each([
    ['@defer', 'application/json', DEFERRED],
    ['@defer', 'application/graphql-response+json, application/json', DEFERRED],
    ['@defer', 'multipart/mixed;q=0, application/json', DEFERRED],
    ['@stream', 'application/*', STREAMED],
    ['@stream', 'text/event-stream;q=0, application/json', STREAMED],
  ])('%s with Accept: %j is refused 406, in JSON, before anything is sent', async (_, accept, query) => {
    const calls = svc.emulator.calls.count();
    const answer = await postRaw(svc.yoga, { query, variables: { t: freshTitle(), a: freshTitle(), b: freshTitle() } }, { accept });
    expect(answer.status).toBe(406);
    expect(answer.body.errors).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(/multipart\/mixed or text\/event-stream/),
        extensions: expect.objectContaining({ code: 'NOT_ACCEPTABLE' }),
      }),
    ]);
    expect(answer.body.data).toBeUndefined();
    expect(svc.emulator.calls.count()).toBe(calls);
  });

  test.each([
    ['multipart/mixed', /^multipart\/mixed/],
    ['text/event-stream', /^text\/event-stream/],
    ['multipart/mixed;deferSpec=20220824, application/json', /^multipart\/mixed/],
    ['*/*', /^multipart\/mixed/],
  ])('@defer with Accept: %j streams its parts', async (accept, type) => {
    const titleNumber = freshTitle();
    const answer = await postRaw(svc.yoga, { query: DEFERRED, variables: { t: titleNumber } }, { accept });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(type);
    expect(answer.text).toContain(`"titleNumber":"${titleNumber}"`);
    expect(answer.text).toContain('"status"');
  });

  test.each([
    ['@defer(if: false)', 'query { title(titleNumber: "MID15313") { titleNumber ... @defer(if: false) { status } } }', {}],
    [
      '@defer(if: $d), $d false',
      'query ($d: Boolean!) { title(titleNumber: "MID15313") { titleNumber ... @defer(if: $d) { status } } }',
      { d: false },
    ],
    [
      '@defer inside a field @skip leaves out',
      'query { title(titleNumber: "MID15313") { titleNumber plans @skip(if: true) { ... @defer { type } } } }',
      {},
    ],
    [
      '@stream inside @include(if: $i), $i false',
      'query ($i: Boolean!) { title(titleNumber: "MID15313") @include(if: $i) { titleNumber } titles(titleNumbers: ["MID15313"]) @include(if: $i) @stream { titleNumber } }',
      { i: false },
    ],
  ])('a document whose %s streams nothing is answered in JSON, as Yoga would', async (_, query, variables) => {
    const answer = await postRaw(svc.yoga, { query, variables }, { accept: 'application/json' });
    expect(answer.status).toBe(200);
    expect(answer.body.errors).toBeUndefined();
  });

  test('a purchase under @defer is still refused by its own rule, with nothing sent', async () => {
    const calls = svc.emulator.calls.count();
    const answer = await postRaw(
      svc.yoga,
      {
        query:
          'mutation ($input: PurchaseTitleInput!) { purchaseTitleDetails(fas: "0877", input: $input) { ... @defer { charges { fee } } } }',
        variables: { input: { titleNumber: freshTitle(), idempotencyKey: newKey() } },
      },
      { accept: 'application/json' },
    );
    expect(answer.body.errors?.[0]?.extensions?.code).toBe('CHARGEABLE_PAYLOAD_DEFERRED');
    expect(svc.emulator.calls.count()).toBe(calls);
  });

  test('an incremental format we do not send is still told so, in its own words', async () => {
    const answer = await postRaw(
      svc.yoga,
      { query: DEFERRED, variables: { t: freshTitle() } },
      { accept: 'multipart/mixed;incrementalSpec=v0.2' },
    );
    expect(answer.body.errors?.[0]?.extensions?.code).toBe('INCREMENTAL_FORMAT_NOT_SUPPORTED');
  });

  test('the routes that are not GraphQL answer as before, whatever the Accept', async () => {
    for (const path of ['/metrics', '/ready', '/health']) {
      const response = await svc.yoga.fetch(`http://titlegraph.test${path}`, { headers: { accept: 'image/png' } });
      expect(response.status, path).not.toBe(406);
    }
    for (const path of ['/statements.csv?day=2026-11-25', '/downloads/nothing-here']) {
      const response = await svc.yoga.fetch(`http://titlegraph.test${path}`, {
        headers: { accept: 'image/png', authorization: 'Bearer dev-key-a' },
      });
      expect(await response.text(), path).not.toContain('NOT_ACCEPTABLE');
    }
  });
});

describe("the decision is Yoga's own", () => {
  // Yoga unchecked (no titlegraph plugin): the media type it answers in, or its 406 after running.
  const yoga = createYoga({
    schema: createSchema({ typeDefs: 'type Query { hello: String }', resolvers: { Query: { hello: () => 'hi' } } }),
    plugins: [useDeferStream()],
    logging: false,
  });
  async function yogasAnswer(accept: string | null, query: string) {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (accept !== null) headers.accept = accept;
    const response = await yoga.fetch('http://yoga.test/graphql', { method: 'POST', headers, body: JSON.stringify({ query }) });
    await response.text();
    return response.status === 406 ? undefined : response.headers.get('content-type')?.split(';')[0];
  }

  const type = fc.constantFrom(
    'application/json',
    'application/graphql-response+json',
    'multipart/mixed',
    'text/event-stream',
    'application/xml',
    'text/html',
    'image/png',
    '*/*',
    'application/*',
    'text/*',
    'multipart/*',
    '*/json',
    '*',
    '',
  );
  const param = fc.constantFrom(
    ';q=0',
    ';q=0.5',
    ';q=1',
    ';charset=utf-8',
    ';charset=UTF-8',
    ';charset=latin1',
    '; charset = "utf-8"',
    ';deferSpec=20220824',
    ';incrementalSpec=v0.2',
    '',
  );
  const range = fc.tuple(type, param, param, fc.boolean()).map(([t, p1, p2, upper]) => {
    const text = ` ${t}${p1}${p2} `;
    return upper ? text.toUpperCase() : text;
  });
  const accept = fc.option(
    fc.array(range, { maxLength: 4 }).map((ranges) => ranges.join(',')),
    { nil: null },
  );

  test('for any Accept, the type this service expects Yoga to answer in is the one Yoga answers in, one result or a stream', async () => {
    await fc.assert(
      fc.asyncProperty(accept, async (value) => {
        expect(answerMediaType(value, 'single')).toBe(await yogasAnswer(value, '{ hello }'));
        expect(answerMediaType(value, 'streamed')).toBe(await yogasAnswer(value, '{ ... @defer { hello } }'));
      }),
      { numRuns: 300 },
    );
  });
});
