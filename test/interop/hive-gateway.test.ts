/**
 * titlegraph composed and queried through Hive Gateway (@graphql-hive/gateway-runtime), over
 * real HTTP to both subgraphs, with the caller's API key propagated to titlegraph. A matter that
 * points at a title the register does not have gets `title: null` for that matter alone: which
 * is why the "matters" subgraph declares `title: Title` nullable (a non-null `Title!` would
 * null out the whole list for one dangling reference).
 */
import { createServer, type Server } from 'node:http';
import { composeServices } from '@apollo/composition';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { createGatewayRuntime } from '@graphql-hive/gateway-runtime';
import { parse } from 'graphql';
import { createYoga } from 'graphql-yoga';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startHttpService, type HttpService } from '../support/harness';
import { closeServer, listen } from '../support/http-service';
import { postRaw } from '../support/post-raw';

/** The README's example subgraph: `title` is nullable on purpose. */
const MATTERS_SDL = /* GraphQL */ `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.6", import: ["@key"])

  scalar TitleNumber

  type Query {
    matters: [Matter!]!
  }

  type Matter @key(fields: "id") {
    id: ID!
    reference: String!
    "Null when the register has no such title (a dangling reference)."
    title: Title
  }

  type Title @key(fields: "titleNumber", resolvable: false) {
    titleNumber: TitleNumber!
  }
`;

const MATTERS = [
  { id: 'm1', reference: 'Smith purchase', titleNumber: 'MID15313' },
  { id: 'm2', reference: 'Typo in the file', titleNumber: 'ZZZ999' },
  { id: 'm3', reference: 'Jones sale', titleNumber: 'GLA5001' },
];

let titlegraph: HttpService;
let matters: Server;
let gateway: ReturnType<typeof createGatewayRuntime>;
const keysSeenByTitlegraph: (string | null)[] = [];

beforeAll(async () => {
  titlegraph = await startHttpService();
  const mattersSchema = buildSubgraphSchema({
    typeDefs: parse(MATTERS_SDL),
    resolvers: {
      Query: { matters: () => MATTERS },
      Matter: { title: (m: (typeof MATTERS)[number]) => ({ __typename: 'Title', titleNumber: m.titleNumber }) },
    } as never,
  });
  matters = createServer(createYoga({ schema: mattersSchema, graphqlEndpoint: '/graphql', logging: false }));
  const mattersUrl = `${await listen(matters)}/graphql`;
  const sdl = await postRaw(titlegraph.url, { query: '{ _service { sdl } }' });
  const composed = composeServices([
    { name: 'titlegraph', url: titlegraph.url, typeDefs: parse(sdl.body.data._service.sdl as string) },
    { name: 'matters', url: mattersUrl, typeDefs: parse(MATTERS_SDL) },
  ]);
  if (composed.errors) throw new Error(composed.errors.map((e) => e.message).join('\n'));
  gateway = createGatewayRuntime({
    supergraph: composed.supergraphSdl,
    maskedErrors: false,
    logging: false,
    propagateHeaders: {
      // Each caller's own API key travels to titlegraph, and nowhere else.
      fromClientToSubgraphs: ({ request, subgraphName }) => {
        if (subgraphName !== 'titlegraph') return {};
        keysSeenByTitlegraph.push(request.headers.get('authorization'));
        return { authorization: request.headers.get('authorization') ?? '' };
      },
    },
  });
});

afterAll(async () => {
  await gateway?.dispose();
  if (matters) await closeServer(matters);
  await titlegraph?.stop();
});

test('a query crossing both subgraphs through Hive Gateway, with a dangling reference null for its matter alone', async () => {
  titlegraph.emulator.calls.reset();
  const response = await gateway.fetch('http://gateway.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer dev-key-b' },
    body: JSON.stringify({ query: '{ matters { id reference title { titleNumber status right { description } } } }' }),
  });
  const body = (await response.json()) as {
    data?: { matters: { id: string; title: { titleNumber: string; status: string } | null }[] };
    errors?: { path?: (string | number)[] }[];
  };
  // The gateway reports the dangling reference, on that matter's title only.
  for (const error of body.errors ?? []) expect(error.path?.slice(0, 3)).toEqual(['matters', 1, 'title']);
  expect(body.data!.matters.map((m) => [m.id, m.title?.titleNumber ?? null, m.title?.status ?? null])).toEqual([
    ['m1', 'MID15313', 'REGISTERED'],
    ['m2', null, null],
    ['m3', 'GLA5001', 'DRAFT'],
  ]);
  // One summary call per distinct title, made as the caller's own API client.
  expect(titlegraph.emulator.calls.count({ route: 'titleSummary' })).toBe(3);
  expect(titlegraph.emulator.calls.count({ route: 'titleSummary', clientId: 'client-b' })).toBe(3);
  expect(new Set(keysSeenByTitlegraph)).toEqual(new Set(['Bearer dev-key-b']));
});
