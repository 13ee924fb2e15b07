/**
 * Entity batches as the two gateways really send them (issue 23 §2): Apollo Gateway sends every
 * reference, repeats included, and one `_entities` request per list; Hive Gateway merges a
 * query's lists into one request. titlegraph counts distinct titles, prices `_entities` like
 * `titles`, and refuses a batch over its cost limit in the client's terms, once.
 */
import { ApolloGateway, RemoteGraphQLDataSource } from '@apollo/gateway';
import { createGatewayRuntime } from '@graphql-hive/gateway-runtime';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  askHive,
  composeWithTitlegraph,
  executeThroughApollo,
  type GatewayAnswer,
  quietApolloLogger,
  serveSubgraph,
  type Subgraph,
} from '../support/federation';
import { startHttpService, type HttpService } from '../support/harness';
import { closeServer } from '../support/http-service';

const ORDERS_SDL = /* GraphQL */ `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.9", import: ["@key"])

  scalar TitleNumber

  type Query {
    "first orders; their titles are BLK(from + 1) onwards, cycling over 'titles' distinct ones."
    orders(first: Int!, from: Int = 0, titles: Int): [Order!]!
  }

  "An order of the firm's own system, about one title."
  type Order @key(fields: "id") {
    id: ID!
    title: Title
  }

  type Title @key(fields: "titleNumber", resolvable: false) {
    titleNumber: TitleNumber!
  }
`;

interface OrdersArgs {
  first: number;
  from: number;
  titles?: number | null;
}

let titlegraph: HttpService;
let orders: Subgraph;
let supergraph: string;

beforeAll(async () => {
  titlegraph = await startHttpService();
  orders = await serveSubgraph('orders', ORDERS_SDL, {
    Query: {
      orders: (_: unknown, { first, from, titles }: OrdersArgs) =>
        Array.from({ length: first }, (_, i) => ({ id: `o${from + i}`, titleNumber: `BLK${from + 1 + (titles ? i % titles : i)}` })),
    },
    Order: { title: (o: { titleNumber: string }) => ({ __typename: 'Title', titleNumber: o.titleNumber }) },
  });
  supergraph = await composeWithTitlegraph(titlegraph.url, [orders], 'dev-key-a', true);
});

afterAll(async () => {
  if (orders) await closeServer(orders.server);
  await titlegraph?.stop();
});

const REPEATS = '{ orders(first: 101, titles: 2) { id title { titleNumber status } } }';
const threeLists = (securities: boolean) =>
  `{ ${['a', 'b', 'c']
    .map(
      (alias, i) =>
        `${alias}: orders(first: 100, from: ${i * 100}) { id title { titleNumber status ${securities ? 'securities { id }' : ''} } }`,
    )
    .join(' ')} }`;

function checkThreeListsRefused(answer: GatewayAnswer) {
  // Refused by titlegraph's cost limit, in the client's terms, and said once.
  const costErrors = (answer.errors ?? []).filter((e) => /cost/i.test(e.message));
  expect(costErrors.length).toBeGreaterThan(0);
  expect(new Set(costErrors.map((e) => e.message)).size).toBe(1);
  expect(costErrors[0]!.message).toMatch(/exceeds the limit of 5000/);
  expect(costErrors[0]!.message).not.toMatch(/representations/);
  expect(titlegraph.emulator.calls.count()).toBe(0);
}

describe('Hive Gateway (merges the lists of one query into one batch)', () => {
  let gateway: ReturnType<typeof createGatewayRuntime>;
  beforeAll(() => {
    gateway = createGatewayRuntime({
      supergraph,
      logging: false,
      maskedErrors: false,
      propagateHeaders: {
        fromClientToSubgraphs: ({ request, subgraphName }) =>
          subgraphName === 'titlegraph' ? { authorization: request.headers.get('authorization') ?? '' } : {},
      },
    });
  });
  afterAll(async () => {
    await gateway?.dispose();
  });
  const ask = (query: string) => askHive(gateway, query);

  test('101 references to 2 titles resolve with 2 register calls', async () => {
    titlegraph.emulator.calls.reset();
    const answer = await ask(REPEATS);
    expect(answer.errors).toBeUndefined();
    expect(answer.data.orders).toHaveLength(101);
    expect(answer.data.orders.every((o: { title: { status: string } }) => o.title.status === 'REGISTERED')).toBe(true);
    expect(titlegraph.emulator.calls.count({ route: 'titleSummary' })).toBe(2);
  });

  test('three lists of 100 distinct titles merged into one batch of 300 resolve within the cost limit, one call per title', async () => {
    titlegraph.emulator.calls.reset();
    const answer = await ask(threeLists(false));
    expect(answer.errors).toBeUndefined();
    expect([answer.data.a, answer.data.b, answer.data.c].flat().filter((o: { title: unknown }) => o.title)).toHaveLength(300);
    expect(titlegraph.emulator.calls.count({ route: 'titleSummary' })).toBe(300);
  });

  test('the same with securities (600 register calls) is refused once, with no register call', async () => {
    titlegraph.emulator.calls.reset();
    checkThreeListsRefused(await ask(threeLists(true)));
  });
});

describe('Apollo Gateway (one batch per list, repeats included)', () => {
  let gateway: ApolloGateway;
  let loaded: Awaited<ReturnType<ApolloGateway['load']>>;
  beforeAll(async () => {
    gateway = new ApolloGateway({
      supergraphSdl: supergraph,
      logger: quietApolloLogger,
      buildService: ({ name, url }) =>
        new (class extends RemoteGraphQLDataSource {
          override willSendRequest({ request }: Parameters<NonNullable<RemoteGraphQLDataSource['willSendRequest']>>[0]) {
            // Another API client than the Hive tests', so each has its own burst budget.
            if (name === 'titlegraph') request.http?.headers.set('authorization', 'Bearer dev-key-b');
          }
        })({ url }),
    });
    loaded = await gateway.load();
  });
  afterAll(async () => {
    await gateway?.stop();
  });
  const ask = (query: string) => executeThroughApollo(loaded, query);

  test('101 references to 2 titles (sent as 101 representations) resolve with 2 register calls', async () => {
    titlegraph.emulator.calls.reset();
    const answer = await ask(REPEATS);
    expect(answer.errors).toBeUndefined();
    expect(answer.data.orders).toHaveLength(101);
    expect(titlegraph.emulator.calls.count({ route: 'titleSummary' })).toBe(2);
  });

  test('three lists of 100 distinct titles resolve, one call per title', async () => {
    titlegraph.emulator.calls.reset();
    const answer = await ask(threeLists(false));
    expect(answer.errors).toBeUndefined();
    expect(titlegraph.emulator.calls.count({ route: 'titleSummary' })).toBe(300);
  });
});
