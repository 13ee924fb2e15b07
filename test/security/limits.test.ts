import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import { REGISTER_CALL } from '../../src/security/cost';
import { DEFAULT_LIMITS, type AbuseLimits } from '../../src/security/settings';
import { startService } from '../support/harness';
import { postRaw } from '../support/post-raw';

type Svc = Awaited<ReturnType<typeof startService>>;
let svc: Svc;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.stop());

/** As a request with neither credentials nor an Accept header arrives (the keyless caller is dev-key-a's tenant here). */
const ANONYMOUS = { authorization: null, accept: null };

function appWith(limits: Partial<AbuseLimits> = {}, more: { introspection?: boolean; fieldSuggestions?: boolean } = {}) {
  return createApp(svc.services, { hardening: { limits: { ...DEFAULT_LIMITS, ...limits }, ...more } });
}

/** Each limit: accepted at the limit, refused at limit + 1, and never a register call when refused. */
async function refusedWithoutCalls(run: () => Promise<{ body: { errors?: { message: string }[] } }>, message: RegExp) {
  svc.emulator.calls.reset();
  const { body } = await run();
  expect(body.errors?.map((e) => e.message).join('\n')).toMatch(message);
  expect(svc.emulator.calls.count()).toBe(0);
}

/** Queries of an exact selection depth, along title → right → addresses. */
const nested: Record<number, string> = {
  1: '{ referenceListPaths }',
  2: '{ title(titleNumber: "MID1234") { titleNumber } }',
  3: '{ title(titleNumber: "MID1234") { right { description } } }',
  4: '{ title(titleNumber: "MID1234") { right { addresses { street } } } }',
};

describe('abuse limits', () => {
  it('depth: accepted at the limit, refused above it', async () => {
    const app = appWith({ maxDepth: 3 });
    expect((await postRaw(app, { query: nested[3]! })).body.errors).toBeUndefined();
    await refusedWithoutCalls(() => postRaw(app, { query: nested[4]! }), /depth limit of 3 exceeded/i);
  });

  it('depth: the default admits the deepest path of the contract (title details schedules)', async () => {
    const app = appWith();
    const deepest = `mutation { purchaseTitleDetails(fas: "0877", input: { titleNumber: "MID1234", idempotencyKey: "depth-${Date.now()}" }) { details { right { schedules { entries { subEntries { realBurdens } } } } } } }`;
    expect((await postRaw(app, { query: deepest })).body.errors).toBeUndefined();
  });

  it('aliases', async () => {
    const app = appWith({ maxAliases: 3 });
    const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: referenceListPaths`).join(' ')} }`;
    expect((await postRaw(app, { query: aliases(3) })).body.errors).toBeUndefined();
    await refusedWithoutCalls(() => postRaw(app, { query: aliases(4) }), /Aliases limit of 3 exceeded/);
  });

  it("aliases: the default is graphql-armor's 15", async () => {
    const app = appWith();
    const aliases = (n: number) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: referenceListPaths`).join(' ')} }`;
    expect((await postRaw(app, { query: aliases(15) })).body.errors).toBeUndefined();
    await refusedWithoutCalls(() => postRaw(app, { query: aliases(16) }), /Aliases limit of 15 exceeded/);
  });

  it('tokens', async () => {
    const app = appWith({ maxTokens: 3 }); // `{`, `__typename`, `}`
    expect((await postRaw(app, { query: '{ __typename }' })).body.errors).toBeUndefined();
    await refusedWithoutCalls(() => postRaw(app, { query: '{ __typename __typename }' }), /Token limit of 3 exceeded/);
  });

  it('directives', async () => {
    const app = appWith({ maxDirectives: 2 });
    const withDirectives = (n: number) => `{ referenceListPaths ${'@include(if: true) '.repeat(n)} }`;
    expect((await postRaw(app, { query: withDirectives(2) })).body.errors?.some((e) => /Directives limit/.test(e.message))).toBeFalsy();
    await refusedWithoutCalls(() => postRaw(app, { query: withDirectives(3) }), /Directives limit of 2 exceeded/);
  });

  it('cost: every titles item counts', async () => {
    const fields = 2; // `titles` and `titleNumber`, once each: fields are not multiplied by items
    const app = appWith({ maxCost: fields + 3 * REGISTER_CALL });
    const query = 'query($n: [TitleNumber!]!) { titles(titleNumbers: $n) { titleNumber } }';
    expect((await postRaw(app, { query, variables: { n: ['BLK1', 'BLK2', 'BLK3'] } })).body.errors).toBeUndefined();
    await refusedWithoutCalls(
      () => postRaw(app, { query, variables: { n: ['BLK1', 'BLK2', 'BLK3', 'BLK4'] } }),
      /Query cost 42 exceeds the limit of 32/,
    );
  });

  it('cost: the default admits 100 titles with their securities', async () => {
    const query = 'query($n: [TitleNumber!]!) { titles(titleNumbers: $n) { titleNumber status securities { id } } }';
    const n = Array.from({ length: 100 }, (_, i) => `BLK${i + 1}`);
    const { body } = await postRaw(appWith(), { query, variables: { n } });
    expect(body.errors).toBeUndefined();
  });

  it('document size', async () => {
    const app = appWith({ maxDocumentBytes: 20 });
    expect((await postRaw(app, { query: '{ __typename }'.padEnd(20, ' ') })).body.errors).toBeUndefined();
    await refusedWithoutCalls(
      () => postRaw(app, { query: '{ __typename }'.padEnd(21, ' ') }),
      /The GraphQL document is 21 bytes; the limit is 20/,
    );
  });

  it('a query that is not a string is a 400, not a 500', async () => {
    for (const query of [{ a: 1 }, ['{ __typename }'], 42]) {
      const response = await postRaw(appWith(), { query }, ANONYMOUS);
      expect(response.status).toBe(400);
    }
  });

  it('request body size', async () => {
    const app = appWith({ maxBodyBytes: 200 });
    const body = (size: number) => JSON.stringify({ query: '{ __typename }', variables: { pad: 'x'.repeat(size - 49) } });
    expect(body(200)).toHaveLength(200);
    expect((await postRaw(app, body(200), ANONYMOUS)).status).toBe(200);
    expect((await postRaw(app, body(201), ANONYMOUS)).status).toBe(413);
  });
});

describe('one chargeable mutation per operation', () => {
  const one = (alias: string) =>
    `${alias}: purchaseTitleDetails(fas: "0877", input: { titleNumber: "MID1234", idempotencyKey: "${alias}-${Date.now()}" }) { userErrors { code } }`;

  it('accepts one, refuses two (aliases and fragments included) before anything is charged', async () => {
    const app = appWith();
    expect((await postRaw(app, { query: `mutation { ${one('a')} }` })).body.errors).toBeUndefined();
    await refusedWithoutCalls(
      () => postRaw(app, { query: `mutation { ${one('a')} ${one('b')} }` }),
      /at most one chargeable mutation; this one has 2 \(a, b\)/,
    );
    await refusedWithoutCalls(
      () => postRaw(app, { query: `mutation { ...F ${one('c')} } fragment F on Mutation { ${one('d')} }` }),
      /at most one chargeable mutation/,
    );
  });

  it('does not count free mutations, but keeps a chargeable one alone at the root', async () => {
    const app = appWith();
    const createCase = (alias: string) =>
      `${alias}: createCase(fas: "1877", input: { reference: "x", contactEmail: "a@b.example", contactTelephone: "1", titleNumbers: ["MID1234"], idempotencyKey: "${alias}-${Date.now()}" }) { userErrors { code } }`;
    expect((await postRaw(app, { query: `mutation { ${createCase('c')} ${createCase('d')} }` })).body.errors).toBeUndefined();
    await refusedWithoutCalls(
      () => postRaw(app, { query: `mutation { ${one('a')} ${createCase('c')} }` }),
      /must be the only field of its operation/,
    );
  });
});

describe('transport hardening', () => {
  it('has no HTTP batching', async () => {
    const response = await postRaw(appWith(), [{ query: '{ __typename }' }, { query: '{ __typename }' }], ANONYMOUS);
    expect(response.status).toBeGreaterThanOrEqual(400);
  });

  it('refuses a GET query without a CSRF header, accepts it with one', async () => {
    const app = appWith();
    const url = `http://t/graphql?query=${encodeURIComponent('{ __typename }')}`;
    expect((await app.fetch(url)).status).toBe(403);
    expect((await app.fetch(url, { headers: { 'x-graphql-yoga-csrf': '1' } })).status).toBe(200);
  });

  it('refuses mutations over GET', async () => {
    const query = `mutation { createCase(fas: "1877", input: { reference: "x", contactEmail: "a@b.example", contactTelephone: "1", titleNumbers: ["MID1234"], idempotencyKey: "get" }) { userErrors { code } } }`;
    svc.emulator.calls.reset();
    const response = await appWith().fetch(`http://t/graphql?query=${encodeURIComponent(query)}`, {
      headers: { 'x-graphql-yoga-csrf': '1' },
    });
    expect(response.status).toBe(405);
    expect(svc.emulator.calls.count()).toBe(0);
  });

  it('in production mode: no introspection, no field suggestions', async () => {
    const prod = appWith({}, { introspection: false, fieldSuggestions: false });
    const introspection = await postRaw(prod, { query: '{ __schema { queryType { name } } }' });
    expect(introspection.body.errors?.[0]?.message).toMatch(/introspection/i);
    const typo = await postRaw(prod, { query: '{ titel(titleNumber: "MID1234") { titleNumber } }' });
    expect(typo.body.errors?.[0]?.message).not.toMatch(/Did you mean/);
    const dev = await postRaw(appWith(), { query: '{ titel(titleNumber: "MID1234") { titleNumber } }' });
    expect(dev.body.errors?.[0]?.message).toMatch(/Did you mean "title"/);
  });
});
