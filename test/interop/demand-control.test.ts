/**
 * The cost limit holds through the router (issue 23 §3). titlegraph publishes what it knows of
 * register calls as federation demand-control directives (`@cost` on every field and type that
 * calls the register, `@listSize` on `titles`), so Hive Gateway's demand control, configured as
 * the README says, prices a client operation before it sends anything. The "orders" subgraph is
 * a second team's: its `orders(first:)` list declares its own `@listSize`.
 */
import { createGatewayRuntime } from '@graphql-hive/gateway-runtime';
import { parse, type OperationDefinitionNode } from 'graphql';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { buildSchema } from '../../src/graphql/schema';
import { operationPrice, REGISTER_CALL } from '../../src/security/cost';
import { titlegraphGatewayConfig as HIVE_CONFIG } from '../../examples/federation/hive-gateway.config';
import { askHive, composeWithTitlegraph, serveSubgraph, type Subgraph } from '../support/federation';
import { startHttpService, type HttpService } from '../support/harness';
import { closeServer } from '../support/http-service';
import { postRaw } from '../support/post-raw';

const ORDERS_SDL = /* GraphQL */ `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.9", import: ["@key", "@listSize"])

  scalar TitleNumber

  type Query {
    orders(first: Int!): [Order!]! @listSize(slicingArguments: ["first"])
  }

  "An order of the firm's own system, about one title."
  type Order @key(fields: "id") {
    id: ID!
    title: Title!
  }

  type Title @key(fields: "titleNumber", resolvable: false) {
    titleNumber: TitleNumber!
  }
`;

const orderTitle = (i: number) => `BLK${3000 + i}`;

let titlegraph: HttpService;
let orders: Subgraph;
const subgraphRequests = { titlegraph: 0, orders: 0 };
let gateway: ReturnType<typeof createGatewayRuntime>;

beforeAll(async () => {
  titlegraph = await startHttpService();
  orders = await serveSubgraph('orders', ORDERS_SDL, {
    Query: {
      orders: (_: unknown, { first }: { first: number }) =>
        Array.from({ length: first }, (_, i) => ({ id: `o${i}`, titleNumber: orderTitle(i) })),
    },
    Order: { title: (o: { titleNumber: string }) => ({ __typename: 'Title', titleNumber: o.titleNumber }) },
  });
  gateway = createGatewayRuntime({
    supergraph: await composeWithTitlegraph(titlegraph.url, [orders]),
    logging: false,
    ...HIVE_CONFIG,
    // The README's settings, plus the estimate in each answer, for the test to compare.
    demandControl: { ...HIVE_CONFIG.demandControl, includeExtensionMetadata: true },
    // Counts the requests the gateway really sends to each subgraph.
    plugins: () => [
      {
        onFetch({ url }: { url: string }) {
          if (url === titlegraph.url) subgraphRequests.titlegraph++;
          else if (url === orders.url) subgraphRequests.orders++;
        },
      },
    ],
  });
});

afterAll(async () => {
  await gateway?.dispose();
  if (orders) await closeServer(orders.server);
  await titlegraph?.stop();
});

const throughGateway = (query: string) => askHive(gateway, query);

const blk = (from: number, n: number) => Array.from({ length: n }, (_, i) => `"BLK${from + i}"`).join(', ');

/** The service's own figure for the register calls of a document, from the same directives. */
function servicePrice(query: string) {
  const document = parse(query);
  const operation = document.definitions.find((d) => d.kind === 'OperationDefinition') as OperationDefinitionNode;
  return operationPrice(buildSchema(), operation, {}, {});
}

test.each([
  ['title with its securities', '{ title(titleNumber: "MID15313") { titleNumber securities { id } } }'],
  ['a full page of titles with securities', `{ titles(titleNumbers: [${blk(1, 100)}]) { titleNumber securities { id } } }`],
  ['node', `{ node(id: "${Buffer.from('Title:MID15313').toString('base64')}") { id ... on Title { status } } }`],
  ['creditors and reference lists', '{ creditors(query: "bank") { creditorCode } referenceListPaths }'],
])("the router's estimate for %s is the service's register-call figure", async (_, query) => {
  const body = await throughGateway(query);
  expect(body.errors).toBeUndefined();
  const price = servicePrice(query);
  expect(price.registerCalls).toBeGreaterThan(0);
  expect(body.extensions?.cost?.estimated).toBe(price.registerCalls * REGISTER_CALL);
});

test('three pages of 100 titles with securities are refused by the router before any subgraph call, as the service would refuse them', async () => {
  titlegraph.emulator.calls.reset();
  const subgraphRequestsBefore = subgraphRequests.titlegraph;
  const query = `{ a: titles(titleNumbers: [${blk(1, 100)}]) { titleNumber securities { id } } b: titles(titleNumbers: [${blk(101, 100)}]) { titleNumber securities { id } } c: titles(titleNumbers: [${blk(201, 100)}]) { titleNumber securities { id } } }`;
  const body = await throughGateway(query);
  expect(body.data ?? null).toBeNull();
  expect(body.errors?.[0]?.extensions?.code).toBe('COST_ESTIMATED_TOO_EXPENSIVE');
  expect(body.errors?.[0]?.extensions?.cost).toEqual({ estimated: 6000, max: 5000 });
  expect(subgraphRequests.titlegraph).toBe(subgraphRequestsBefore);
  expect(titlegraph.emulator.calls.count()).toBe(0);
  // The service, asked directly, refuses the same operation at its own figure: the same calls, plus a unit per field.
  expect(servicePrice(query)).toEqual({ fields: 12, registerCalls: 600 });
  const direct = await postRaw(titlegraph.url, { query });
  expect(direct.body.errors?.[0]?.extensions).toMatchObject({ code: 'COST_LIMIT_EXCEEDED', cost: 6012, maxCost: 5000 });
  expect(titlegraph.emulator.calls.count()).toBe(0);
});

test("through another subgraph's list, each title it references is priced as a register call: too many are refused before any subgraph call", async () => {
  titlegraph.emulator.calls.reset();
  const before = { ...subgraphRequests };
  const lists = ['a', 'b', 'c', 'd', 'e', 'f'].map((alias) => `${alias}: orders(first: 100) { title { titleNumber status } }`);
  const body = await throughGateway(`{ ${lists.join(' ')} }`);
  expect(body.errors?.[0]?.extensions?.code).toBe('COST_ESTIMATED_TOO_EXPENSIVE');
  expect(body.errors?.[0]?.extensions?.cost).toEqual({ estimated: 6000, max: 5000 });
  expect(subgraphRequests).toEqual(before);
  expect(titlegraph.emulator.calls.count()).toBe(0);
  // Half of it is within the limit, and runs: one summary call per distinct title.
  const allowed = await throughGateway(`{ ${lists.slice(0, 3).join(' ')} }`);
  expect(allowed.errors).toBeUndefined();
  expect(allowed.extensions?.cost?.estimated).toBe(3000);
  expect(titlegraph.emulator.calls.count({ route: 'titleSummary' })).toBe(100);
  expect(subgraphRequests.orders).toBeGreaterThan(before.orders);
  expect(subgraphRequests.titlegraph).toBeGreaterThan(before.titlegraph);
});
