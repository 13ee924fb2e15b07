/**
 * docs/clients.md is code that runs: each snippet there is a file of docs/clients/, included
 * verbatim, and executed here with the real client libraries against the service.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { ApolloClient, gql as apolloGql, HttpLink, InMemoryCache } from '@apollo/client';
import { GraphQL17Alpha9Handler } from '@apollo/client/incremental';
import { generate } from '@graphql-codegen/cli';
import { gql as urqlGql } from '@urql/core';
import { afterAll, beforeAll, describe, expect, onTestFinished, test } from 'vitest';
import { createTitlegraphClient as createApolloClient } from '../../docs/clients/apollo-client';
import { createDeferringClient } from '../../docs/clients/apollo-defer';
import { titlegraphCodegen } from '../../docs/clients/codegen';
import { downloadLinkHtml } from '../../docs/clients/download-link';
import { createTitlegraphClient as createUrqlClient } from '../../docs/clients/urql';
import { createNormalisingClient } from '../../docs/clients/urql-graphcache';
import { startHttpService, type HttpService } from '../support/harness';

const ROOT = resolve(import.meta.dirname, '../..');
const SNIPPETS = ['apollo-client.ts', 'apollo-defer.ts', 'urql.ts', 'urql-graphcache.ts', 'download-link.ts', 'codegen.ts'];

let svc: HttpService;
let url: string;
beforeAll(async () => {
  svc = await startHttpService();
  url = svc.url;
});
afterAll(() => svc.stop());

test.each(SNIPPETS)('docs/clients.md shows docs/clients/%s as it is', (file) => {
  const doc = readFileSync(join(ROOT, 'docs/clients.md'), 'utf8');
  const snippet = readFileSync(join(ROOT, 'docs/clients', file), 'utf8').trim();
  expect(doc).toContain(snippet);
});

describe('Apollo Client', () => {
  test('titles are normalised by titleNumber, and queries go out as persisted hashes', async () => {
    const client = createApolloClient(url, 'dev-key-a');
    await client.query({
      query: apolloGql`query DocsStatus($t: TitleNumber!) { title(titleNumber: $t) { titleNumber status } }`,
      variables: { t: 'MID15313' },
    });
    await client.query({
      query: apolloGql`query DocsType($t: TitleNumber!) { title(titleNumber: $t) { titleNumber titleType } }`,
      variables: { t: 'MID15313' },
    });
    const entry = (client.cache.extract() as Record<string, unknown>)['Title:{"titleNumber":"MID15313"}'];
    expect(entry).toMatchObject({ titleNumber: 'MID15313', status: 'REGISTERED', titleType: expect.any(String) });
    // the second client sends only the hash: the service registered the query for the first
    const calls = svc.emulator.calls.count({ route: 'titleSummary' });
    const again = await createApolloClient(url, 'dev-key-a').query({
      query: apolloGql`query DocsStatus($t: TitleNumber!) { title(titleNumber: $t) { titleNumber status } }`,
      variables: { t: 'MID1234' },
    });
    expect(again.data).toMatchObject({ title: { titleNumber: 'MID1234' } });
    expect(svc.emulator.calls.count({ route: 'titleSummary' })).toBe(calls + 1);
  });
});

test('a download link in a page: its href, followed with no Authorization header, is the PDF', async () => {
  const ordered = await createApolloClient(url, 'dev-key-b').mutate({
    mutation: apolloGql`mutation DocsOrder($input: OrderTitleDocumentInput!) { orderTitleDocument(fas: "5555", input: $input) { document { titleNumber downloadUrl } } }`,
    variables: { input: { titleNumber: 'MID15313', titleSheet: { include: true }, idempotencyKey: `docs-${Date.now()}` } },
  });
  const html = downloadLinkHtml(
    (ordered.data as { orderTitleDocument: { document: { titleNumber: string; downloadUrl: string } } }).orderTitleDocument.document,
  );
  const href = /href="([^"]+)"/.exec(html)![1]!.replace(/&amp;/g, '&');
  expect(href).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/downloads\/titles\/MID15313\/documents\//);
  const response = await fetch(href);
  expect(response.status).toBe(200);
  expect(new TextDecoder().decode(new Uint8Array(await response.arrayBuffer()).slice(0, 5))).toBe('%PDF-');
});

test('urql: a query over GET with persisted hashes', async () => {
  const result = await createUrqlClient(url, 'dev-key-a')
    .query(urqlGql`query DocsUrql($t: TitleNumber!) { title(titleNumber: $t) { titleNumber status } }`, { t: 'GLA5001' })
    .toPromise();
  expect(result.error).toBeUndefined();
  expect(result.data).toMatchObject({ title: { titleNumber: 'GLA5001', status: 'DRAFT' } });
});

test('codegen: the custom scalars come out typed, where a config without the map gives `unknown`', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'titlegraph-codegen-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(
    join(dir, 'documents.graphql'),
    'query DocsJournal($day: Date!) { chargeRecords(day: $day) { fas titleNumber recordedAt } } query DocsTitle { title(titleNumber: "MID15313") { titleSheetUpdatedTo } }',
  );
  const config = titlegraphCodegen(join(ROOT, 'schema.graphql'), [join(dir, 'documents.graphql')], `${dir}/gql/`);
  await generate(config, true);
  const types = readFileSync(join(dir, 'gql', 'graphql.ts'), 'utf8');
  expect(types).toMatch(/chargeRecords: Array<\{ fas: string, titleNumber: string, recordedAt: string \}>/);
  expect(types).toMatch(/titleSheetUpdatedTo: string \| null/);
  expect(types).not.toMatch(/(fas|titleNumber|recordedAt|titleSheetUpdatedTo|day): (unknown|any)\b/);

  // the same project without the scalars map: what a fresh codegen set-up gets
  const bare = structuredClone(config);
  for (const target of Object.values(bare.generates as Record<string, { config?: Record<string, unknown> }>)) delete target.config?.scalars;
  await generate({ ...bare, generates: { [`${dir}/bare/`]: Object.values(bare.generates as object)[0] } }, true);
  expect(readFileSync(join(dir, 'bare', 'graphql.ts'), 'utf8')).toMatch(/fas: (unknown|any)\b/);
});

describe('Apollo Client and @defer', () => {
  const DEFERRED = apolloGql`query DocsDeferred($t: TitleNumber!) { title(titleNumber: $t) { titleNumber ... @defer { plans { description } } } }`;

  test('with Defer20220824Handler (docs/clients/apollo-defer.ts) a deferred query completes', async () => {
    const result = await createDeferringClient(url, 'dev-key-a').query({ query: DEFERRED, variables: { t: 'MID15313' } });
    expect(result.error).toBeUndefined();
    expect(result.data).toMatchObject({ title: { titleNumber: 'MID15313', plans: expect.arrayContaining([expect.any(Object)]) } });
  });

  test('with GraphQL17Alpha9Handler (incrementalSpec=v0.2) the caller is told which handler to set', async () => {
    const client = new ApolloClient({
      cache: new InMemoryCache(),
      link: new HttpLink({ uri: url, headers: { authorization: 'Bearer dev-key-a' } }),
      incrementalHandler: new GraphQL17Alpha9Handler(),
    });
    const failure = await client.query({ query: DEFERRED, variables: { t: 'MID15313' } }).then(
      (r) => r.error,
      (error: Error) => error,
    );
    expect(failure?.message).toMatch(/Defer20220824Handler/);
  });
});

describe('cache redirects: title(X) after titles([…X…]) is served from the cache', () => {
  test('Apollo Client (docs/clients/apollo-client.ts): no second request', async () => {
    const client = createApolloClient(url, 'dev-key-b');
    await client.query({
      query: apolloGql`query DocsPage($n: [TitleNumber!]!) { titles(titleNumbers: $n) { titleNumber status right { description } } }`,
      variables: { n: ['MID15313', 'GLA5001'] },
    });
    const calls = svc.emulator.calls.count();
    const one = await client.query({
      query: apolloGql`query DocsOne($t: TitleNumber!) { title(titleNumber: $t) { titleNumber status right { description } } }`,
      variables: { t: 'GLA5001' },
    });
    expect(one.data).toMatchObject({ title: { titleNumber: 'GLA5001', status: 'DRAFT' } });
    expect(svc.emulator.calls.count()).toBe(calls);
  });

  test('urql Graphcache (docs/clients/urql-graphcache.ts): no second request, and no warning', async () => {
    const warnings: unknown[] = [];
    const warn = console.warn;
    console.warn = (...args: unknown[]) => warnings.push(args);
    try {
      const client = createNormalisingClient(url, 'dev-key-b');
      const fields =
        'titleNumber status right { description } proprietorships { considerationEntries { consideration } } plans { description } applications { applicationNumber }';
      const page = await client
        .query(`query DocsPage($n: [TitleNumber!]!) { titles(titleNumbers: $n) { ${fields} } }`, { n: ['MID15313', 'MID1234'] })
        .toPromise();
      expect(page.error).toBeUndefined();
      const calls = svc.emulator.calls.count();
      const one = await client
        .query(`query DocsOne($t: TitleNumber!) { title(titleNumber: $t) { ${fields} } }`, { t: 'MID15313' })
        .toPromise();
      expect(one.error).toBeUndefined();
      expect(one.data).toMatchObject({ title: { titleNumber: 'MID15313', status: 'REGISTERED' } });
      expect(svc.emulator.calls.count()).toBe(calls);
      expect(warnings).toEqual([]);
    } finally {
      console.warn = warn;
    }
  });
});
