/**
 * An operation-wide cost limit for @apollo/gateway (examples/federation/apollo-cost-rule.ts):
 * without it, three lists of 200 orders from another subgraph, each order's title resolved by
 * titlegraph, run in full (each `_entities` request is within titlegraph's own limit). With it,
 * the gateway prices the whole operation from the supergraph's @cost/@listSize, composed for
 * @apollo/gateway (without the security directives), and refuses it before any subgraph request:
 * the register's call log shows no call. Its figures are titlegraph's own for titlegraph's fields.
 */
import { ApolloGateway } from '@apollo/gateway';
import { type OperationDefinitionNode, parse } from 'graphql';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { estimateCost, pricingOf, withCostLimit } from '../../examples/federation/apollo-cost-rule';
import { buildService, type GatewayContext } from '../../examples/federation/apollo-gateway';
import { buildSchema } from '../../src/graphql/schema';
import { operationPrice, REGISTER_CALL } from '../../src/security/cost';
import { DEV_ROUTER_KEY } from '../../src/services/callers';
import { composeWithTitlegraph, executeThroughApollo, quietApolloLogger, serveSubgraph, type Subgraph } from '../support/federation';
import { closeServer } from '../support/http-service';
import { startHttpService, type HttpService } from '../support/harness';

const ORDERS_SDL = /* GraphQL */ `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.9", import: ["@key", "@listSize"])

  scalar TitleNumber

  type Query {
    "The firm's orders, from the offset-th: each about one title."
    orders(first: Int!, offset: Int = 0): [Order!]! @listSize(slicingArguments: ["first"])
    "The same orders, with no @listSize: a router cannot tell how many there are."
    unsizedOrders(first: Int!, offset: Int = 0): [Order!]!
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

const AUTH = { authorization: 'Bearer dev-key-a' };

let titlegraph: HttpService;
let orders: Subgraph;
let ordersRequests = 0;
let supergraph: string;
let limited: Awaited<ReturnType<ApolloGateway['load']>>;
let unlimited: Awaited<ReturnType<ApolloGateway['load']>>;
const gateways: ApolloGateway[] = [];

beforeAll(async () => {
  // The client's call budget (CLIENT_BUDGET_BURST) is off: the register calls counted are the operations' own.
  titlegraph = await startHttpService({ services: { quota: { clientBurst: 0 } } });
  const list = (_: unknown, { first, offset }: { first: number; offset: number }) =>
    Array.from({ length: first }, (_, i) => ({ id: `o${offset + i}`, titleNumber: `BLK${3000 + offset + i}` }));
  orders = await serveSubgraph(
    'orders',
    ORDERS_SDL,
    {
      Query: { orders: list, unsizedOrders: list },
      Order: { title: (o: { titleNumber: string }) => ({ __typename: 'Title', titleNumber: o.titleNumber }) },
    },
    () => ordersRequests++,
  );
  // As the README says for @apollo/gateway: composed without @authenticated/@requiresScopes.
  supergraph = await composeWithTitlegraph(titlegraph.url, [orders], 'dev-key-a', true);
  const gateway = () => {
    const made = new ApolloGateway({ supergraphSdl: supergraph, buildService: buildService(DEV_ROUTER_KEY), logger: quietApolloLogger });
    gateways.push(made);
    return made;
  };
  limited = await withCostLimit(gateway(), { maxCost: 5000 }).load();
  unlimited = await gateway().load();
});

afterAll(async () => {
  await Promise.all(gateways.map((g) => g.stop()));
  if (orders) await closeServer(orders.server);
  await titlegraph?.stop();
});

const through = (loaded: typeof limited, query: string, headers: Record<string, string> = AUTH) =>
  executeThroughApollo(loaded, query, {}, { headers } satisfies GatewayContext);

/** `count` lists of `size` orders, about titles BLK3000+from onwards, each title once. */
const lists = (count: number, size: number, from: number) =>
  `{ ${['a', 'b', 'c']
    .slice(0, count)
    .map((alias, i) => `${alias}: orders(first: ${size}, offset: ${from + i * size}) { id title { titleNumber status } }`)
    .join(' ')} }`;

const blk = (from: number, n: number) => Array.from({ length: n }, (_, i) => `"BLK${from + i}"`).join(', ');

test('the supergraph composed for @apollo/gateway keeps the @cost and @listSize the rule reads', () => {
  const pricing = pricingOf(supergraph);
  expect(pricing.weights.get('Title')).toBe(REGISTER_CALL);
  expect(pricing.weights.get('Title.securities')).toBe(REGISTER_CALL);
  expect(pricing.listSizes.get('Query.titles')).toMatchObject({ assumedSize: 100 });
  expect(pricing.listSizes.get('Query.orders')).toEqual({ slicingArguments: ['first'] });
  expect(supergraph).not.toMatch(/@requiresScopes|@authenticated/);
});

test.each([
  ['title with its securities', '{ title(titleNumber: "MID15313") { titleNumber securities { id } } }'],
  ['a full page of titles with securities', `{ titles(titleNumbers: [${blk(1, 100)}]) { titleNumber securities { id } } }`],
  ['node', `{ node(id: "${Buffer.from('Title:MID15313').toString('base64')}") { id ... on Title { status } } }`],
  ['creditors and reference lists', '{ creditors(query: "bank") { creditorCode } referenceListPaths }'],
  [
    'a fragment spread twice',
    '{ a: title(titleNumber: "MID15313") { ...S } b: title(titleNumber: "GLA5001") { ...S } } fragment S on Title { securities { id } }',
  ],
])("the rule's estimate for %s is titlegraph's own register-call figure, and the operation runs", async (_, query) => {
  const document = parse(query);
  const operation = document.definitions.find((d) => d.kind === 'OperationDefinition') as OperationDefinitionNode;
  const fragments = Object.fromEntries(
    document.definitions.flatMap((d) => (d.kind === 'FragmentDefinition' ? [[d.name.value, d] as const] : [])),
  );
  const titlegraphFigure = operationPrice(buildSchema(), operation, fragments, {}).registerCalls * REGISTER_CALL;
  expect(titlegraphFigure).toBeGreaterThan(0);
  expect(estimateCost(pricingOf(supergraph), limited.schema, document, null)).toBe(titlegraphFigure);
  const answer = await through(limited, query);
  expect(answer.errors).toBeUndefined();
});

test('three lists of 200 orders, each title resolved by titlegraph: run in full without the rule; refused with it before any subgraph request', async () => {
  // Without the rule every title is a register call: titlegraph sees three _entities requests, each
  // within its own limit (500 calls). Sent as firm B, whose organisation's quota is its own.
  titlegraph.emulator.calls.reset();
  const open = await through(unlimited, lists(3, 200, 0), { authorization: 'Bearer dev-key-b' });
  expect(open.errors).toBeUndefined();
  expect(open.data.c).toHaveLength(200);
  expect(titlegraph.emulator.calls.count({ route: 'titleSummary' })).toBe(600);

  titlegraph.emulator.calls.reset();
  const ordersBefore = ordersRequests;
  const refused = await through(limited, lists(3, 200, 1000));
  expect(refused.data ?? null).toBeNull();
  expect(refused.errors).toHaveLength(1);
  expect(refused.errors![0]!.extensions).toMatchObject({ code: 'COST_ESTIMATED_TOO_EXPENSIVE', cost: { estimated: 6000, max: 5000 } });
  expect(refused.errors![0]!.message).toContain("estimated to cost 6000, above the gateway's limit of 5000, so nothing was sent");
  expect(ordersRequests).toBe(ordersBefore);
  expect(titlegraph.emulator.calls.count()).toBe(0);

  // Two of the lists are within the limit, and run: one summary call per title.
  const allowed = await through(limited, lists(2, 200, 1600));
  expect(allowed.errors).toBeUndefined();
  expect(titlegraph.emulator.calls.count({ route: 'titleSummary' })).toBe(400);
});

test('the list sizes come from the variables the client sends, and an operation by name is priced alone', async () => {
  titlegraph.emulator.calls.reset();
  const document = `query Small($n: Int!) { a: orders(first: $n, offset: 3000) { title { status } } b: orders(first: $n, offset: 3300) { title { status } } }
    query Large { titles(titleNumbers: [${blk(1, 100)}]) { securities { id } } b: titles(titleNumbers: [${blk(101, 100)}]) { securities { id } } c: titles(titleNumbers: [${blk(201, 100)}]) { securities { id } } }`;
  const run = (operationName: string, variables: Record<string, unknown>) => {
    const parsed = parse(document);
    return limited.executor({
      request: { query: document, variables, operationName },
      document: parsed,
      source: document,
      queryHash: document,
      operation: parsed.definitions.find((d) => (d as OperationDefinitionNode).name?.value === operationName),
      operationName,
      schema: limited.schema,
      context: { headers: AUTH },
      logger: quietApolloLogger,
      metrics: {},
      cache: undefined,
      overallCachePolicy: undefined,
    } as never) as Promise<{ data?: any; errors?: { extensions?: Record<string, unknown> }[] }>;
  };
  const tooMany = await run('Small', { n: 300 });
  expect(tooMany.errors?.[0]?.extensions).toMatchObject({ code: 'COST_ESTIMATED_TOO_EXPENSIVE', cost: { estimated: 6000, max: 5000 } });
  const large = await run('Large', {});
  expect(large.errors?.[0]?.extensions).toMatchObject({ code: 'COST_ESTIMATED_TOO_EXPENSIVE', cost: { estimated: 6000, max: 5000 } });
  expect(titlegraph.emulator.calls.count()).toBe(0);

  const fewer = await run('Small', { n: 100 });
  expect(fewer.errors).toBeUndefined();
  expect(titlegraph.emulator.calls.count({ route: 'titleSummary' })).toBe(200);
});

test("a list without @listSize counts as one item: the rule cannot price another subgraph's list it does not size", async () => {
  const query = '{ unsizedOrders(first: 600, offset: 4000) { title { titleNumber } } }';
  expect(estimateCost(pricingOf(supergraph), limited.schema, parse(query), null)).toBe(REGISTER_CALL);
  // …so declare @listSize, or set defaultListSize for such lists.
  expect(estimateCost(pricingOf(supergraph), limited.schema, parse(query), null, {}, 600)).toBe(6000);
});
