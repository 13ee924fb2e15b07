/**
 * Refusals as a client sees them: every limit is an HTTP 400 with a stable code and the limit's
 * own words (never "Syntax Error"), the CSRF refusal has a code, `__typename` aliases and
 * introspection nesting count, and production hides hints and internals, `_service` included.
 */
import { getIntrospectionQuery } from 'graphql';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createApp } from '../../src/server/app';
import { DEFAULT_LIMITS, type AbuseLimits } from '../../src/security/settings';
import { DEV_API_KEYS, sha256Hex } from '../../src/services/callers';
import { startService } from '../support/harness';
import { postRaw, type RawBody } from '../support/post-raw';

type Svc = Awaited<ReturnType<typeof startService>>;
let svc: Svc;
const ROUTER = { name: 'router', apiKeySha256: sha256Hex('router-key'), router: true };
beforeAll(async () => {
  svc = await startService({ services: { apiKeys: [...DEV_API_KEYS, ROUTER] } });
});
afterAll(() => svc.stop());

const appWith = (limits: Partial<AbuseLimits> = {}, production = false) =>
  createApp(svc.services, {
    hardening: { limits: { ...DEFAULT_LIMITS, ...limits }, introspection: !production, fieldSuggestions: !production },
  });

const send = (app: ReturnType<typeof createApp>, body: unknown, { accept = 'application/json', key = 'dev-key-a' } = {}) =>
  postRaw(app, body, { accept, authorization: `Bearer ${key}` });

/**
 * Under application/graphql-response+json a refused request is a 400; under the legacy
 * application/json the GraphQL-over-HTTP spec asks for 200 (graphql-http's audits check it):
 * the code and words are the same in both.
 */
describe('each limit: 400, a stable code, its own words', () => {
  test.each([
    [
      'depth',
      { maxDepth: 3 },
      '{ title(titleNumber: "MID1234") { right { addresses { street } } } }',
      'DEPTH_LIMIT_EXCEEDED',
      'Query depth limit of 3 exceeded, found 4.',
    ],
    [
      'aliases',
      { maxAliases: 2 },
      '{ a: referenceListPaths b: referenceListPaths c: referenceListPaths }',
      'ALIAS_LIMIT_EXCEEDED',
      'Aliases limit of 2 exceeded, found 3.',
    ],
    [
      '__typename aliases',
      { maxAliases: 2 },
      '{ a: __typename b: __typename c: __typename }',
      'ALIAS_LIMIT_EXCEEDED',
      'Aliases limit of 2 exceeded, found 3.',
    ],
    ['tokens', { maxTokens: 30 }, `{ ${'__typename '.repeat(40)}}`, 'TOKEN_LIMIT_EXCEEDED', 'Token limit of 30 exceeded.'],
    [
      'directives',
      { maxDirectives: 1 },
      '{ __typename @include(if: true) @skip(if: false) }',
      'DIRECTIVE_LIMIT_EXCEEDED',
      'Directives limit of 1 exceeded, found 2.',
    ],
  ])('%s', async (_label, limits, query, code, message) => {
    for (const [accept, expected] of [
      ['application/graphql-response+json', 400],
      ['application/json', 200],
    ] as const) {
      svc.emulator.calls.reset();
      const { status, body } = await send(appWith(limits), { query }, { accept });
      expect(status).toBe(expected);
      expect(body.errors![0]).toMatchObject({ message, extensions: { code } });
      expect(JSON.stringify(body)).not.toMatch(/Syntax Error/);
      expect(svc.emulator.calls.count()).toBe(0);
    }
  });

  test('introspection nesting has a limit of its own, which GraphiQL’s introspection query fits', async () => {
    const app = appWith();
    const standard = await send(app, {
      query: getIntrospectionQuery({
        descriptions: true,
        specifiedByUrl: true,
        directiveIsRepeatable: true,
        schemaDescription: true,
        inputValueDeprecation: true,
      }),
    });
    expect(standard.body.errors).toBeUndefined();
    const deep = `{ __schema { types { fields { type ${'{ ofType '.repeat(20)}{ name }${' }'.repeat(20)} } } } }`;
    const { status, body } = await send(app, { query: deep }, { accept: 'application/graphql-response+json' });
    expect(status).toBe(400);
    expect(body.errors![0]).toMatchObject({
      message: expect.stringMatching(/^Introspection depth limit of 15 exceeded/),
      extensions: { code: 'DEPTH_LIMIT_EXCEEDED' },
    });
  });
});

test('the CSRF refusal of a GET without a preflight header has a code and says which headers', async () => {
  const response = await appWith().fetch('http://titlegraph.test/graphql?query=%7B__typename%7D', {
    headers: { authorization: 'Bearer dev-key-a' },
  });
  expect(response.status).toBe(403);
  const body = (await response.json()) as RawBody;
  expect(body.errors![0]).toMatchObject({
    extensions: { code: 'CSRF_HEADER_REQUIRED' },
    message: expect.stringContaining('x-graphql-yoga-csrf'),
  });
  const allowed = await appWith().fetch('http://titlegraph.test/graphql?query=%7B__typename%7D', {
    headers: { authorization: 'Bearer dev-key-a', 'x-graphql-yoga-csrf': '1' },
  });
  expect(allowed.status).toBe(200);
  // A form or text/plain POST is what a cross-site page can send without a preflight: refused alike, in words that fit it.
  for (const [type, body] of [
    ['text/plain', '{"query":"{ __typename }"}'],
    ['application/x-www-form-urlencoded', 'query=%7B__typename%7D'],
  ]) {
    const post = await appWith().fetch('http://titlegraph.test/graphql', {
      method: 'POST',
      headers: { authorization: 'Bearer dev-key-a', 'content-type': type! },
      body,
    });
    expect(post.status, type).toBe(403);
    expect(((await post.json()) as RawBody).errors![0]).toMatchObject({
      extensions: { code: 'CSRF_HEADER_REQUIRED' },
      message: expect.stringContaining('a POST whose body is not JSON (content-type: application/json)'),
    });
  }
});

describe('production: no hints, no internals', () => {
  const DEED = 'mutation($i: AddDeedToCaseInput!) { addDeedToCase(input: $i) { userErrors { code } } }';
  test.each([
    [
      'an enum value in variables',
      DEED,
      { i: { caseId: 'RLP06ORGACASE', subjectExtent: 'REGISTERED_WHOLE', deedType: 'DISPOSITON', idempotencyKey: 'k1' } },
    ],
    [
      'an input field in variables',
      DEED,
      {
        i: {
          caseId: 'RLP06ORGACASE',
          subjectExtent: 'REGISTERED_WHOLE',
          deedTyp: 'DISPOSITION',
          deedType: 'DISPOSITION',
          idempotencyKey: 'k2',
        },
      },
    ],
    ['a field in the document', '{ titel(titleNumber: "MID1234") { titleNumber } }', {}],
    [
      'an enum literal in the document',
      'mutation { addDeedToCase(input: { caseId: "RLP06ORGACASE", subjectExtent: REGISTERD_WHOLE, deedType: DISPOSITION, idempotencyKey: "k3" }) { userErrors { code } } }',
      {},
    ],
  ])('%s: no "Did you mean"', async (_label, query, variables) => {
    const dev = await send(appWith({}, false), { query, variables });
    const production = await send(appWith({}, true), { query, variables });
    expect(production.body.errors!.length).toBeGreaterThan(0);
    expect(JSON.stringify(production.body)).not.toMatch(/Did you mean|Suggestion/i);
    // the same request in development does carry the hint: the test can tell the difference
    if (!/titel|REGISTERD/.test(query)) expect(JSON.stringify(dev.body)).toMatch(/Did you mean/);
  });

  test('a malformed JSON body: a 400 that names the problem and echoes nothing of the parser', async () => {
    const { status, body } = await send(appWith({}, true), '{"query": "{ __typename }", ', { accept: 'application/graphql-response+json' });
    expect(status).toBe(400);
    expect(body.errors![0]!.message).toBe('POST body sent invalid JSON.');
    expect(body.errors![0]!.extensions).not.toHaveProperty('originalError');
    expect(JSON.stringify(body)).not.toMatch(/position|SyntaxError/);
  });

  test('_service { sdl } only for a router tenant; refused like introspection for the others, with no register call', async () => {
    const app = appWith({}, true);
    svc.emulator.calls.reset();
    const refused = await send(app, { query: '{ _service { sdl } }' }, { accept: 'application/graphql-response+json' });
    expect(refused.status).toBe(400);
    expect(refused.body.errors![0]!.message).toMatch(/introspection has been disabled.*_service/);
    expect(JSON.stringify(refused.body)).not.toMatch(/type Query|TitleNumber/);
    const viaFragment = await send(app, { query: '{ ...F } fragment F on Query { _service { sdl } }' });
    expect(viaFragment.body.errors![0]!.message).toMatch(/_service/);
    // One status for one refusal: 200 under application/json, where a gateway reads the error itself.
    expect(viaFragment.status).toBe(200);
    const router = await send(app, { query: '{ _service { sdl } }' }, { key: 'router-key' });
    expect(router.body.errors).toBeUndefined();
    expect((router.body.data as { _service: { sdl: string } })._service.sdl).toContain('type Title');
    expect(svc.emulator.calls.count()).toBe(0);
    // with introspection on (development), anyone may read it
    expect((await send(appWith(), { query: '{ _service { sdl } }' })).body.errors).toBeUndefined();
  });
});

describe('media types are case-insensitive (RFC 9110 §8.3.1)', () => {
  test.for(['application/JSON', 'Application/Json; charset=UTF-8'])('Content-Type: %s is JSON, answered 200', async (contentType) => {
    const response = await postRaw(appWith(), { query: '{ __typename }' }, { 'content-type': contentType, accept: null });
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ data: { __typename: 'Query' } });
  });

  test('a body that is not JSON under such a spelling is 400, as under the lower-case one', async () => {
    const response = await postRaw(appWith(), '{"query": ', { 'content-type': 'application/JSON', accept: 'application/json' });
    expect(response.status).toBe(400);
    expect(response.body.errors![0]!.message).toBe('POST body sent invalid JSON.');
  });
});

test('a subscription, which this API does not offer, is refused at validation with a code and what to send instead', async () => {
  for (const accept of ['application/graphql-response+json', 'application/json']) {
    const { status, body } = await send(appWith(), { query: 'subscription Watch { __typename }' }, { accept });
    expect(status, accept).toBe(accept === 'application/json' ? 200 : 400);
    expect(body.data, accept).toBeUndefined();
    expect(body.errors, accept).toEqual([
      {
        message: 'This API has no subscription operations: send a query or a mutation.',
        locations: [{ line: 1, column: 1 }],
        extensions: { code: 'GRAPHQL_VALIDATION_FAILED' },
      },
    ]);
  }
  // Validation is of the whole document, as with graphql-js 17's rule: a query named beside it is refused with it.
  const { body } = await send(appWith(), { query: 'query Q { __typename } subscription S { __typename }', operationName: 'Q' });
  expect(body.errors?.[0]?.extensions).toMatchObject({ code: 'GRAPHQL_VALIDATION_FAILED' });
});
