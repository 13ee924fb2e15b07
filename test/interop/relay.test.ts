/**
 * Relay works against titlegraph, with the real tools: relay-compiler (21) compiles
 * examples/relay against schema.client.graphql (it rejects the subgraph SDL's `@link`), with
 * persisted queries; the committed output is what it makes now; relay-runtime then runs the
 * operations against the service by `doc_id` only (PERSISTED_OPERATIONS_ONLY), and a title
 * fetched by `title` and by `titles` is one record in Relay's store, refetchable by `node(id:)`.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Environment, fetchQuery, Network, RecordSource, Store, type ConcreteRequest, type RequestParameters } from 'relay-runtime';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { loadPersistedOperations } from '../../src/config';
import { startHttpService, type HttpService } from '../support/harness';
import { postRaw } from '../support/post-raw';

const ROOT = join(import.meta.dirname, '..', '..');
const EXAMPLE = join(ROOT, 'examples', 'relay');

let work: string;
let svc: HttpService;
const sent: Record<string, unknown>[] = [];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'titlegraph-relay-'));
  cpSync(join(EXAMPLE, 'src', 'TitleQueries.ts'), join(work, 'src', 'TitleQueries.ts'), { recursive: true });
  writeFileSync(join(work, 'persisted-queries.json'), '{}');
  const config = JSON.parse(readFileSync(join(EXAMPLE, 'relay.config.json'), 'utf8'));
  writeFileSync(join(work, 'relay.config.json'), JSON.stringify({ ...config, schema: join(ROOT, 'schema.client.graphql') }));
  const compiled = spawnSync(process.execPath, [join(ROOT, 'node_modules', 'relay-compiler', 'cli.js')], { cwd: work, encoding: 'utf8' });
  expect(compiled.status, `${compiled.stdout}${compiled.stderr}`).toBe(0);
  svc = await startHttpService({ app: { persistedOperations: loadPersistedOperations([join(work, 'persisted-queries.json')], true) } });
}, 120_000);

afterAll(async () => {
  await svc?.stop();
  if (work) rmSync(work, { recursive: true, force: true });
});

const artifact = async (name: string) =>
  ((await import(pathToFileURL(join(work, 'src', '__generated__', `${name}.graphql.ts`)).href)) as { default: ConcreteRequest }).default;

test('the committed __generated__ and persisted-queries.json are what relay-compiler makes now (run npx relay-compiler in examples/relay)', () => {
  expect(readFileSync(join(EXAMPLE, 'persisted-queries.json'), 'utf8')).toBe(readFileSync(join(work, 'persisted-queries.json'), 'utf8'));
  const made = readdirSync(join(work, 'src', '__generated__')).sort();
  expect(readdirSync(join(EXAMPLE, 'src', '__generated__')).sort()).toEqual(made);
  for (const file of made) {
    expect(readFileSync(join(EXAMPLE, 'src', '__generated__', file), 'utf8'), file).toBe(
      readFileSync(join(work, 'src', '__generated__', file), 'utf8'),
    );
  }
});

test('relay-runtime runs the persisted operations by doc_id; title and titles fill one record; the fragment refetches by node(id)', async () => {
  const network = Network.create(async (params: RequestParameters, variables) => {
    const body = { doc_id: params.id, variables };
    sent.push(body);
    return (await postRaw(svc.url, body, { accept: null })).body as never;
  });
  const environment = new Environment({ network, store: new Store(new RecordSource()) });

  const byTitle = (await fetchQuery(environment, await artifact('TitleQueriesTitleQuery'), { titleNumber: 'MID15313' }).toPromise()) as {
    title: { __id: string } | null;
  };
  await fetchQuery(environment, await artifact('TitleQueriesTitlesQuery'), { titleNumbers: ['MID15313', 'MID1234'] }).toPromise();

  // Only ids were sent, never the query text (the service takes persisted operations only).
  expect(sent.every((b) => typeof b.doc_id === 'string' && !('query' in b))).toBe(true);
  const source = environment.getStore().getSource();
  const titles = source.getRecordIDs().filter((id) => source.get(id)?.__typename === 'Title');
  expect(titles).toHaveLength(2); // MID15313 once, whichever query brought it, and MID1234
  const record = source.get(byTitle.title!.__id)!;
  expect(record).toMatchObject({ titleNumber: 'MID15313', status: 'REGISTERED' });
  const root = source.get('client:root')!;
  const viaTitles = (root['titles(titleNumbers:["MID15313","MID1234"])'] as { __refs: string[] }).__refs;
  expect(viaTitles[0]).toBe(byTitle.title!.__id);

  // @refetchable: Relay refetches the fragment through node(id:) with the title's global id.
  const refetched = (await fetchQuery(environment, await artifact('TitleQueriesTitleRefetchQuery'), {
    id: record.id as string,
  }).toPromise()) as {
    node: { __id: string } | null;
  };
  expect(refetched.node?.__id).toBe(byTitle.title!.__id);
});
