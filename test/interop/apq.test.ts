/**
 * Automatic persisted queries with the clients people use, over a real socket: Apollo Client's
 * PersistedQueryLink on its default settings and urql's persistedExchange. A hash the service
 * has not seen is PERSISTED_QUERY_NOT_FOUND, the client then registers it, and the next client
 * sends the hash alone; a hash registered on one replica is a hit on another.
 */
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { ApolloClient, gql as apolloGql, HttpLink, InMemoryCache } from '@apollo/client';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { Client as UrqlClient, fetchExchange, gql as urqlGql } from '@urql/core';
import { persistedExchange } from '@urql/exchange-persisted';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { PgIdempotencyStore } from '../../src/storage/idempotency/pg-store';
import { createTestDatabase, postgresSuite, type TestDatabase } from '../support/pg';
import { replicaOf, startService, type Service } from '../support/harness';
import { postRaw } from '../support/post-raw';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');
const TITLE = 'query ApqTitle($t: TitleNumber!) { title(titleNumber: $t) { titleNumber status } }';

type Svc = Awaited<ReturnType<typeof startService>>;
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Serves a service on a real port; records what each POST or GET carried. */
async function serve(svc: Service) {
  const seen: { method: string; hasQuery: boolean; hasHash: boolean; codes: string[] }[] = [];
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const url = new URL(req.url ?? '/', 'http://x');
    const request = new Request(`http://x${req.url}`, {
      method: req.method,
      headers: req.headers as Record<string, string>,
      ...(req.method === 'POST' ? { body } : {}),
    });
    const response = await svc.yoga.fetch(request);
    const text = await response.text();
    const sent =
      req.method === 'POST'
        ? JSON.parse(body || '{}')
        : { query: url.searchParams.get('query'), extensions: url.searchParams.get('extensions') };
    seen.push({
      method: req.method ?? '',
      hasQuery: typeof sent.query === 'string' && sent.query.length > 0,
      hasHash: JSON.stringify(sent.extensions ?? '').includes('sha256Hash'),
      codes: (JSON.parse(text).errors ?? []).map((e: { extensions?: { code?: string } }) => e.extensions?.code),
    });
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/graphql`, seen };
}

const apollo = (uri: string) =>
  new ApolloClient({
    cache: new InMemoryCache(),
    link: new PersistedQueryLink({ sha256 }).concat(new HttpLink({ uri, headers: { authorization: 'Bearer dev-key-a' } })),
  });

describe('Apollo Client, PersistedQueryLink on default settings', () => {
  test('miss → NOT_FOUND → registered with the query → the next client sends the hash alone', async () => {
    const svc = await startService();
    cleanups.push(() => svc.stop());
    const { url, seen } = await serve(svc);

    const first = await apollo(url).query({ query: apolloGql(TITLE), variables: { t: 'MID15313' } });
    expect(first.data).toEqual({ title: { __typename: 'Title', titleNumber: 'MID15313', status: 'REGISTERED' } });
    expect(seen.map((s) => [s.hasHash, s.hasQuery, s.codes])).toEqual([
      [true, false, ['PERSISTED_QUERY_NOT_FOUND']],
      [true, true, []],
    ]);

    seen.length = 0;
    const second = await apollo(url).query({ query: apolloGql(TITLE), variables: { t: 'MID1234' } });
    expect(second.data).toMatchObject({ title: { titleNumber: 'MID1234' } });
    expect(seen.map((s) => [s.hasHash, s.hasQuery, s.codes])).toEqual([[true, false, []]]);
  });
});

describe("urql's persistedExchange", () => {
  test('registers on a miss, then hits, over GET with the CSRF header', async () => {
    const svc = await startService();
    cleanups.push(() => svc.stop());
    const { url, seen } = await serve(svc);
    const client = () =>
      new UrqlClient({
        url,
        fetchOptions: { headers: { authorization: 'Bearer dev-key-a', 'x-graphql-yoga-csrf': '1' } },
        exchanges: [persistedExchange({ preferGetForPersistedQueries: true, generateHash: async (query) => sha256(query) }), fetchExchange],
      });
    const first = await client().query(urqlGql(TITLE), { t: 'MID15313' }).toPromise();
    expect(first.error).toBeUndefined();
    expect(first.data).toMatchObject({ title: { titleNumber: 'MID15313' } });
    expect(seen[0]).toMatchObject({ hasHash: true, hasQuery: false, codes: ['PERSISTED_QUERY_NOT_FOUND'] });

    seen.length = 0;
    const again = await client().query(urqlGql(TITLE), { t: 'GLA5001' }).toPromise();
    expect(again.data).toMatchObject({ title: { titleNumber: 'GLA5001' } });
    expect(seen).toEqual([{ method: 'GET', hasQuery: false, hasHash: true, codes: [] }]);
  });
});

describe('protocol edges', () => {
  let svc: Svc;
  beforeAll(async () => {
    svc = await startService();
  });
  afterAll(() => svc.stop());
  const post = async (body: unknown) => (await postRaw(svc.yoga, body, { accept: null })).body;

  test('a query sent with another query’s hash is refused and registers nothing', async () => {
    const hash = sha256('{ __typename }');
    const mismatch = await post({ query: '{ referenceListPaths }', extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });
    expect(mismatch.errors![0]!.extensions!.code).toBe('PERSISTED_QUERY_MISMATCH');
    const lookup = await post({ extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });
    expect(lookup.errors![0]!.extensions!.code).toBe('PERSISTED_QUERY_NOT_FOUND');
  });

  test('a malformed persistedQuery extension is refused naming the shape', async () => {
    const bad = await post({ extensions: { persistedQuery: { version: 2, sha256Hash: 'abc' } } });
    expect(bad.errors![0]).toMatchObject({
      extensions: { code: 'PERSISTED_QUERY_INVALID' },
      message: expect.stringContaining('version: 1'),
    });
  });
});

const pgSuite = await postgresSuite();
describe.skipIf(!pgSuite.run)(pgSuite.title('replicas on one PostgreSQL database'), () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('apq');
  }, 60_000);
  afterAll(() => database?.drop());

  test('a hash registered through one replica is a hit on the other', async () => {
    const onDatabase = () => ({ idempotency: new PgIdempotencyStore({ connectionString: database.url }), databaseUrl: database.url });
    const first = await startService({ services: onDatabase() });
    cleanups.push(() => first.stop());
    const second = replicaOf(first, onDatabase());
    cleanups.push(() => second.stop());
    const a = await serve(first);
    const b = await serve(second);
    await apollo(a.url).query({ query: apolloGql(TITLE), variables: { t: 'MID15313' } });
    const onB = await apollo(b.url).query({ query: apolloGql(TITLE), variables: { t: 'MID1234' } });
    expect(onB.data).toMatchObject({ title: { titleNumber: 'MID1234' } });
    expect(b.seen.map((s) => [s.hasHash, s.hasQuery, s.codes])).toEqual([[true, false, []]]);
  });
});
