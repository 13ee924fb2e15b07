/**
 * A namespace and chaining subgraph beside titlegraph: `Query.actions: Actions` with
 * `Actions.mutation: Mutation`, and `Mutation.chain: Chain!` with `Chain.then: Mutation!`.
 * Apollo's planner reaches titlegraph's mutation root through them from any depth, even in a
 * query or a GET, so a purchase selected there is charged while the client sees `data: null`.
 * The gateway rules (src/security/gateway-rules.ts) refuse such a supergraph at load
 * (Apollo Server does not start; Hive Gateway refuses every operation and logs why), and find a
 * chargeable field at any depth in any operation. Judged on the emulator's ledger and call log
 * against the bytes the client received.
 */
import { ApolloGateway } from '@apollo/gateway';
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { buildService } from '../../examples/federation/apollo-gateway';
import { buildSchema, type GraphQLSchema, parse, specifiedRules, validate } from 'graphql';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { unifiedGraphHandler } from '@graphql-hive/router-runtime';
import {
  chargeableFieldsOf,
  chargeableRule,
  chargeableRulesPlugin,
  fieldsReachingMutationType,
  useChargeableMutationRules,
} from '../../src/security/gateway-rules';
import {
  apolloServerGateway,
  clientRequest,
  type GatewayAnswer,
  composeWithTitlegraph,
  hiveTestGateway,
  judgedOnLedger,
  quietApolloLogger,
  type Subgraph,
  serveSubgraph,
  type TestGateway,
} from '../support/federation';
import { type HttpService, startHttpService } from '../support/harness';
import { closeServer } from '../support/http-service';
import { DEV_API_KEYS, sha256Hex } from '../../src/services/callers';

const ACTIONS_SDL = /* GraphQL */ `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.9", import: ["@key"])

  type Query {
    "The firm's actions, grouped."
    actions: Actions!
  }

  "A namespace: every mutation of the graph, reached from a query."
  type Actions {
    mutation: Mutation!
  }

  type Mutation {
    "Chaining: the next mutation runs after this one."
    chain: Chain!
  }

  type Chain {
    then: Mutation!
  }
`;

let titlegraph: HttpService;
let actions: Subgraph;
let supergraph: string;
let apolloSupergraph: string;
/** The supergraph's API schema, as a gateway validates against it. */
let apiSchema: GraphQLSchema;

beforeAll(async () => {
  titlegraph = await startHttpService({
    services: { apiKeys: [...DEV_API_KEYS, { name: 'gateway', apiKeySha256: sha256Hex('router-key'), router: true }] },
  });
  actions = await serveSubgraph('actions', ACTIONS_SDL, {
    Query: { actions: () => ({}) },
    Actions: { mutation: () => ({}) },
    Mutation: { chain: () => ({}) },
    // biome-ignore lint/suspicious/noThenProperty: the chaining field of the issue's report is named `then`.
    Chain: { then: () => ({}) },
  });
  supergraph = await composeWithTitlegraph(titlegraph.url, [actions]);
  apolloSupergraph = await composeWithTitlegraph(titlegraph.url, [actions], 'dev-key-a', true);
  const gateway = new ApolloGateway({ supergraphSdl: apolloSupergraph, logger: quietApolloLogger });
  apiSchema = (await gateway.load()).schema;
  await gateway.stop();
});

afterAll(async () => {
  if (actions) await closeServer(actions.server);
  await titlegraph?.stop();
});

let counter = 0;
/** A purchase of its own title (the register charges once per account, title and day), as `alias`. */
const purchase = (alias = 'bought') =>
  `${alias}: purchaseTitleDetails(fas: "0877", input: { titleNumber: "BLK${3000 + ++counter}", idempotencyKey: "ns-${process.pid}-${Date.now()}-${counter}" }) { charges { fee transactionNumber } userErrors { code } }`;

/** Each shape that reaches titlegraph's mutation root off the root of a mutation operation; GET where a client may send it so. */
const SHAPES: { name: string; document: () => string; method?: 'GET' }[] = [
  { name: 'namespace under Query, in an anonymous query', document: () => `{ actions { mutation { ${purchase()} } } }` },
  { name: 'namespace in a named query operation', document: () => `query Buy { actions { mutation { ${purchase()} } } }` },
  { name: 'namespace in a query sent as GET', document: () => `{ actions { mutation { ${purchase()} } } }`, method: 'GET' },
  { name: 'chaining under Mutation', document: () => `mutation { chain { then { ${purchase()} } } }` },
  { name: 'chaining two deep', document: () => `mutation { chain { then { chain { then { ${purchase()} } } } } }` },
  {
    name: 'a purchase at the root and another down the chain',
    document: () => `mutation { ${purchase()} chain { then { ${purchase('again')} } } }`,
  },
  { name: 'two purchases in one query', document: () => `{ actions { mutation { ${purchase()} ${purchase('again')} } } }` },
  {
    name: 'fragments',
    document: () =>
      `query { actions { ...Namespace } } fragment Namespace on Actions { mutation { ...Buy } } fragment Buy on Mutation { ${purchase()} }`,
  },
  { name: 'an inline fragment on Mutation', document: () => `{ actions { mutation { ... on Mutation { ${purchase()} } } } }` },
  { name: 'aliases', document: () => `{ a: actions { m: mutation { ${purchase('x')} } } }` },
];

test('the supergraph makes the mutation type the type of Actions.mutation and Chain.then', () => {
  expect(fieldsReachingMutationType(apiSchema).sort()).toEqual(['Actions.mutation', 'Chain.then']);
});

describe('the rules find a chargeable field at any depth, in any operation (graphql-js validation over the API schema)', () => {
  test.each(SHAPES)('$name: refused', ({ document }) => {
    const schema = apiSchema;
    const chargeable = chargeableFieldsOf(supergraph);
    const errors = validate(schema, parse(document()), [...specifiedRules, chargeableRule((name) => chargeable.has(name))]);
    expect(errors.map((e) => e.extensions.code)).toEqual(['CHARGEABLE_MUTATION_NOT_AT_ROOT']);
    expect(errors[0]?.message).toMatch(/^A chargeable mutation is sent only as the root field of a mutation operation; \S+ is selected /);
  });

  test('a purchase alone at the root of a mutation is not refused', () => {
    const schema = apiSchema;
    const chargeable = chargeableFieldsOf(supergraph);
    expect(
      validate(schema, parse(`mutation { ${purchase()} }`), [...specifiedRules, chargeableRule((name) => chargeable.has(name))]),
    ).toEqual([]);
  });
});

test('a union or an interface the mutation type belongs to reaches it too: found at load, and a charge under it refused', () => {
  const schema = buildSchema(/* GraphQL */ `
    interface Runnable { ok: Boolean }
    type Query { next: Step, runnable: Runnable }
    union Step = Mutation | Done
    type Done { ok: Boolean }
    type Mutation implements Runnable { ok: Boolean, buy(title: String): Boolean }
  `);
  expect(fieldsReachingMutationType(schema).sort()).toEqual(['Query.next', 'Query.runnable']);
  const rule = chargeableRule((name) => name === 'buy');
  for (const document of ['{ next { ... on Mutation { buy(title: "A") } } }', '{ runnable { ... on Mutation { buy(title: "A") } } }']) {
    expect(validate(schema, parse(document), [rule]).map((e) => e.extensions.code)).toEqual(['CHARGEABLE_MUTATION_NOT_AT_ROOT']);
  }
});

describe('without the rules', () => {
  test('Apollo Server with @apollo/gateway (one titlegraph does not know) charges a purchase selected in a query sent as GET, and one down a chain', async () => {
    const gateway = await apolloServerGateway(apolloSupergraph, { routerKey: null });
    try {
      const viaGet = await judgedOnLedger(titlegraph.emulator, () =>
        gateway.ask(`{ actions { mutation { ${purchase()} } } }`, { method: 'GET' }),
      );
      expect(viaGet.charged).toHaveLength(1);
      const chained = await judgedOnLedger(titlegraph.emulator, () => gateway.ask(`mutation { chain { then { ${purchase()} } } }`));
      expect(chained.charged).toHaveLength(1);
    } finally {
      await gateway.stop();
    }
  });

  test('Hive Gateway charges a purchase sent beside a chain and answers only an error: the charge is hidden', async () => {
    const gateway = hiveTestGateway(supergraph, { plugins: () => [] });
    try {
      const judged = await judgedOnLedger(titlegraph.emulator, () =>
        gateway.ask(`mutation { ${purchase()} chain { then { __typename } } }`),
      );
      expect(judged.charged).toHaveLength(1);
      expect(judged.hidden).toEqual(judged.charged);
      expect(judged.answer.json?.data).toBeNull();
    } finally {
      await gateway.stop();
    }
  });
});

describe('Apollo Server with chargeableRulesPlugin()', () => {
  test('refuses to start on this supergraph, naming the fields, and logs it; nothing reaches the register', async () => {
    const logged: string[] = [];
    titlegraph.emulator.calls.reset();
    const before = titlegraph.emulator.ledger.charges.length;
    await expect(
      apolloServerGateway(apolloSupergraph, { plugins: [chargeableRulesPlugin({ logError: (m) => logged.push(m) })] }),
    ).rejects.toThrow(/the mutation type Mutation is the type of Actions\.mutation, Chain\.then/);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatch(
      /^The gateway refuses every operation: in its supergraph the mutation type Mutation is the type of Actions\.mutation, Chain\.then/,
    );
    expect(titlegraph.emulator.calls.count()).toBe(0);
    expect(titlegraph.emulator.ledger.charges.length).toBe(before);
  });

  test('a running server that receives this supergraph as an update refuses every operation from then on, and logs why', async () => {
    const logged: string[] = [];
    let push: ((sdl: string) => void) | undefined;
    const safe = await composeWithTitlegraph(titlegraph.url, [], 'dev-key-a', true);
    const gateway = new ApolloGateway({
      supergraphSdl: async ({ update }) => {
        push = update;
        return { supergraphSdl: safe };
      },
      buildService: buildService('router-key'),
      logger: quietApolloLogger,
    });
    const server = new ApolloServer({
      gateway,
      plugins: [chargeableRulesPlugin({ logError: (m) => logged.push(m) })],
      logger: quietApolloLogger,
    });
    const { url } = await startStandaloneServer(server, {
      listen: { port: 0, host: '127.0.0.1' },
      context: async ({ req }) => ({ headers: req.headers }),
    });
    try {
      const ask = async (query: string) => (await (await fetch(clientRequest(url, query))).json()) as GatewayAnswer;
      expect((await ask('{ registerUsage { __typename } }')).errors).toBeUndefined();
      push?.(apolloSupergraph);
      expect(logged).toEqual([expect.stringMatching(/^The gateway refuses every operation: in its supergraph the mutation type Mutation/)]);
      const judged = await judgedOnLedger(titlegraph.emulator, async () => {
        const response = await fetch(clientRequest(url, SHAPES[0]!.document()));
        return { status: response.status, contentType: response.headers.get('content-type'), text: await response.text() };
      });
      expect(judged.calls).toBe(0);
      expect(judged.charged).toEqual([]);
      expect(JSON.parse(judged.answer.text).errors.map((e: { extensions: { code: string } }) => e.extensions.code)).toEqual([
        'CHARGEABLE_RULES_UNSAFE_SUPERGRAPH',
      ]);
      expect((await ask('{ registerUsage { __typename } }')).errors?.[0]?.extensions?.code).toBe('CHARGEABLE_RULES_UNSAFE_SUPERGRAPH');
    } finally {
      await server.stop();
    }
  });
});

describe.each([
  { name: 'Hive Gateway (hive-gateway.config.ts)', overrides: {} },
  { name: 'Hive Gateway with the Rust query planner', overrides: { unifiedGraphHandler } },
])('$name with useChargeableMutationRules()', ({ overrides }) => {
  let gateway: TestGateway;
  const logged: string[] = [];
  beforeAll(() => {
    gateway = hiveTestGateway(supergraph, {
      ...overrides,
      plugins: () => [useChargeableMutationRules({ logError: (m) => logged.push(m) })],
    });
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  test.each(SHAPES)('$name: refused with the supergraph named, no register call, no charge', async ({ document, method }) => {
    const judged = await judgedOnLedger(titlegraph.emulator, () => gateway.ask(document(), { method }));
    expect(judged.charged).toEqual([]);
    expect(judged.hidden).toEqual([]);
    expect(judged.calls).toBe(0);
    expect(judged.answer.json?.data ?? undefined).toBeUndefined();
    expect(judged.answer.json?.errors?.map((e) => e.extensions?.code)).toEqual(['CHARGEABLE_RULES_UNSAFE_SUPERGRAPH']);
    expect(logged[0]).toMatch(
      /^The gateway refuses every operation: in its supergraph the mutation type Mutation is the type of Actions\.mutation, Chain\.then/,
    );
  });

  test('a purchase alone and a plain query are refused too, until the supergraph changes', async () => {
    for (const document of [`mutation { ${purchase()} }`, '{ actions { __typename } }']) {
      const judged = await judgedOnLedger(titlegraph.emulator, () => gateway.ask(document));
      expect(judged.calls).toBe(0);
      expect(judged.answer.json?.errors?.[0]?.extensions?.code).toBe('CHARGEABLE_RULES_UNSAFE_SUPERGRAPH');
    }
  });
});
