/**
 * titlegraph as an Apollo Federation v2 subgraph, proven through a real gateway: its SDL (from
 * `_service { sdl }` over HTTP) is composed with a small "matters" subgraph whose Matter points
 * at a Title by titleNumber; @apollo/gateway runs a query crossing both, over real HTTP to both.
 */
import { createServer, type Server } from 'node:http';
import { composeServices } from '@apollo/composition';
import { ApolloGateway, RemoteGraphQLDataSource } from '@apollo/gateway';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse, type GraphQLSchema } from 'graphql';
import { createYoga } from 'graphql-yoga';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { printSchema } from '../../src/graphql/schema';
import { executeThroughApollo } from '../support/federation';
import { withoutSecurityDirectives } from '../../examples/federation/apollo-gateway';
import { startHttpService, type HttpService } from '../support/harness';
import { closeServer, listen } from '../support/http-service';
import { postRaw } from '../support/post-raw';

const MATTERS_SDL = /* GraphQL */ `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.6", import: ["@key"])

  scalar TitleNumber

  type Query {
    matters: [Matter!]!
  }

  "A conveyancing matter of the firm: points at the title it is about."
  type Matter @key(fields: "id") {
    id: ID!
    reference: String!
    title: Title!
  }

  "Resolved by titlegraph."
  type Title @key(fields: "titleNumber", resolvable: false) {
    titleNumber: TitleNumber!
  }
`;

const MATTERS = [
  { id: 'm1', reference: 'Smith purchase', titleNumber: 'MID15313' },
  { id: 'm2', reference: 'Jones sale', titleNumber: 'GLA5001' },
  { id: 'm3', reference: 'Smith remortgage', titleNumber: 'MID15313' },
];

function mattersSchema(): GraphQLSchema {
  return buildSubgraphSchema({
    typeDefs: parse(MATTERS_SDL),
    resolvers: {
      Query: { matters: () => MATTERS },
      Matter: { title: (m: (typeof MATTERS)[number]) => ({ __typename: 'Title', titleNumber: m.titleNumber }) },
    } as never,
  });
}

interface SubgraphRequest {
  subgraph: string;
  query: string;
  variables?: Record<string, unknown>;
}

let titlegraph: HttpService;
let matters: { server: Server; url: string };
let gateway: ApolloGateway;
let execute: (query: string) => Promise<{ data?: any; errors?: readonly { message: string }[] }>;
let supergraphSdl: string;
let titlegraphSdl: string;
const sent: SubgraphRequest[] = [];

beforeAll(async () => {
  titlegraph = await startHttpService();
  const server = createServer(createYoga({ schema: mattersSchema(), graphqlEndpoint: '/graphql', logging: false }));
  matters = { server, url: `${await listen(server)}/graphql` };

  // The subgraph SDL as a gateway or rover would fetch it: `_service { sdl }` over HTTP.
  const sdl = await postRaw(titlegraph.url, { query: '{ _service { sdl } }' });
  expect(sdl.body.errors).toBeUndefined();
  titlegraphSdl = sdl.body.data._service.sdl as string;

  // @apollo/gateway refuses the security directives it cannot enforce (titlegraph enforces them itself).
  const composed = composeServices([
    { name: 'titlegraph', url: titlegraph.url, typeDefs: parse(withoutSecurityDirectives(titlegraphSdl)) },
    { name: 'matters', url: matters.url, typeDefs: parse(MATTERS_SDL) },
  ]);
  if (composed.errors) throw new Error(`composition failed: ${composed.errors.map((e) => e.message).join('\n')}`);
  supergraphSdl = composed.supergraphSdl;

  gateway = new ApolloGateway({
    supergraphSdl,
    logger: { debug() {}, info() {}, warn() {}, error: console.error },
    buildService: ({ name, url }) =>
      new (class extends RemoteGraphQLDataSource {
        override willSendRequest({ request }: Parameters<NonNullable<RemoteGraphQLDataSource['willSendRequest']>>[0]) {
          sent.push({ subgraph: name, query: request.query ?? '', variables: request.variables });
          // Each caller's own API key travels to titlegraph (here: the emulator's dev-key-a).
          if (name === 'titlegraph') request.http?.headers.set('authorization', 'Bearer dev-key-a');
        }
      })({ url }),
  });
  const loaded = await gateway.load();
  execute = async (query) => (await executeThroughApollo(loaded, query)) as never;
});

afterAll(async () => {
  await gateway?.stop();
  if (matters) await closeServer(matters.server);
  await titlegraph?.stop();
});

beforeEach(() => {
  sent.length = 0;
  titlegraph.emulator.calls.reset();
});

describe('Apollo Federation v2', () => {
  test('its SDL composes with its scopes for the routers that enforce them; for @apollo/gateway, which refuses them, without', () => {
    const full = composeServices([
      { name: 'titlegraph', url: titlegraph.url, typeDefs: parse(titlegraphSdl) },
      { name: 'matters', url: matters.url, typeDefs: parse(MATTERS_SDL) },
    ]);
    expect(full.errors).toBeUndefined();
    expect(full.supergraphSdl).toMatch(/\): PurchaseTitleDetailsPayload! [^\n]*@requiresScopes\(scopes: \[\["titles:buy"\]\]\)/);
    expect(full.supergraphSdl).toMatch(/viewer: Viewer![^\n]* @authenticated/);
    expect(supergraphSdl).not.toMatch(/@requiresScopes|@authenticated|for: SECURITY/);
    expect(supergraphSdl).toContain('@cost(weight: 10)');
  });

  test("titlegraph's _service SDL is the printed subgraph schema, and composes with another subgraph", () => {
    expect(titlegraphSdl.trim()).toBe(printSchema().trim());
    expect(titlegraphSdl).toContain(
      '@link(url: "https://specs.apollo.dev/federation/v2.9", import: ["@authenticated", "@cost", "@key", "@listSize", "@requiresScopes", "@composeDirective"]',
    );
    // The chargeable marker, linked as its own spec so that composition carries it into the supergraph.
    expect(titlegraphSdl).toContain('@link(url: "https://specs.titlegraph.example/chargeable/v1.0", import: ["@chargeable"])');
    expect(titlegraphSdl).toContain('@composeDirective(name: "@chargeable")');
    expect(supergraphSdl).toMatch(/\): PurchaseTitleDetailsPayload! [^\n]*@chargeable\n/);
    expect(titlegraphSdl).toMatch(/type Title implements Node\s+@key\(fields: "titleNumber"\)/);
    expect(supergraphSdl).toContain('join__Graph');
    expect(supergraphSdl).toMatch(/TITLEGRAPH @join__graph\(name: "titlegraph", url: "http:\/\/127\.0\.0\.1:\d+\/graphql"\)/);
  });

  test('a query crossing both subgraphs resolves every Title reference in one _entities batch through the per-request loader', async () => {
    const result = await execute(`query MattersWithTitles {
      matters { id reference title { titleNumber status right { description } } }
    }`);
    expect(result.errors).toBeUndefined();
    expect(result.data.matters).toEqual([
      { id: 'm1', reference: 'Smith purchase', title: expect.objectContaining({ titleNumber: 'MID15313', status: 'REGISTERED' }) },
      { id: 'm2', reference: 'Jones sale', title: expect.objectContaining({ titleNumber: 'GLA5001', status: 'DRAFT' }) },
      { id: 'm3', reference: 'Smith remortgage', title: expect.objectContaining({ titleNumber: 'MID15313', status: 'REGISTERED' }) },
    ]);
    expect(result.data.matters[0].title.right.description).toEqual(expect.any(String));

    // One request to each subgraph: the matters, then ONE _entities batch to titlegraph.
    expect(sent.map((r) => r.subgraph)).toEqual(['matters', 'titlegraph']);
    const entities = sent[1]!;
    expect(entities.query).toMatch(/_entities\(representations: ?\$representations\)/);
    const representations = entities.variables!.representations as { __typename: string; titleNumber: string }[];
    expect(representations.length).toBeGreaterThanOrEqual(2);
    expect(new Set(representations.map((r) => r.titleNumber))).toEqual(new Set(['MID15313', 'GLA5001']));
    // 3 matters over 2 distinct titles: 2 register title summaries, whatever the gateway dedupes.
    expect(titlegraph.emulator.calls.count({ route: 'titleSummary' })).toBe(2);
  });

  test('duplicate representations in one _entities request are one register call each title (per-request loader)', async () => {
    const result = await postRaw(titlegraph.url, {
      query: 'query ($r: [_Any!]!) { _entities(representations: $r) { ... on Title { titleNumber status } } }',
      variables: {
        r: [
          { __typename: 'Title', titleNumber: 'MID15313' },
          { __typename: 'Title', titleNumber: 'GLA5001' },
          { __typename: 'Title', titleNumber: 'MID15313' },
        ],
      },
    });
    expect(result.body.errors).toBeUndefined();
    expect(result.body.data._entities.map((t: { titleNumber: string }) => t.titleNumber)).toEqual(['MID15313', 'GLA5001', 'MID15313']);
    expect(titlegraph.emulator.calls.count({ route: 'titleSummary' })).toBe(2);
  });

  test('an unknown title referenced from another subgraph is null, not an error of the whole query', async () => {
    const result = await postRaw(titlegraph.url, {
      query: 'query ($r: [_Any!]!) { _entities(representations: $r) { ... on Title { titleNumber } } }',
      variables: { r: [{ __typename: 'Title', titleNumber: 'ZZZ999' }] },
    });
    expect(result.body.data._entities).toEqual([null]);
  });
});
