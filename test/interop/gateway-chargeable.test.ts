/**
 * The money rules at the gateway (src/security/gateway-rules.ts), through Apollo Gateway
 * (as Apollo Server validates), Hive Gateway with the README's config, and Hive Gateway with the
 * Rust query planner: over real HTTP to titlegraph and to a "matters" subgraph with a mutation
 * that succeeds and one that fails. A gateway sends each root mutation field (or each run of one
 * subgraph's fields) as its own subgraph request, so titlegraph's own rules never see a purchase's
 * siblings; the gateway's rules do, and refuse before any subgraph request: judged on the
 * emulator's call log and ledger, and on what the matters subgraph ran.
 */
import { createGatewayRuntime } from '@graphql-hive/gateway-runtime';
import { unifiedGraphHandler } from '@graphql-hive/router-runtime';
import { GraphQLError, parse } from 'graphql';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { composeServices } from '@apollo/composition';
import { withoutSecurityDirectives } from '../../examples/federation/apollo-gateway';
import { chargeableFieldsOf, chargeableRulesPlugin, useChargeableMutationRules } from '../../src/security/gateway-rules';
import { titlegraphGatewayConfig } from '../../examples/federation/hive-gateway.config';
import { buildSchema } from '../../src/graphql/schema';
import {
  apolloServerGateway,
  askHive,
  composeWithTitlegraph,
  type GatewayAnswer,
  hiveTestGateway,
  judgedOnLedger,
  serveSubgraph,
  type Subgraph,
  type TestGateway,
} from '../support/federation';
import { postRaw } from '../support/post-raw';
import { type HttpService, startHttpService } from '../support/harness';
import { closeServer } from '../support/http-service';
import { DEV_API_KEYS, sha256Hex } from '../../src/services/callers';

const MATTERS_SDL = /* GraphQL */ `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.9", import: ["@key"])

  type Query {
    matter(id: ID!): Matter
  }

  type Mutation {
    "Renames a matter: succeeds."
    renameMatter(id: ID!, reference: String!): Matter!
    "Archives a matter: always fails here, and its non-null result nulls the whole data."
    archiveMatter(id: ID!): Matter!
  }

  "A conveyancing matter of the firm's own system."
  type Matter @key(fields: "id") {
    id: ID!
    reference: String!
  }
`;

const AUTH = { authorization: 'Bearer dev-key-a' };
let titlegraph: HttpService;
let matters: Subgraph;
let supergraph: string;
let apolloSupergraph: string;
/** The mutations the matters subgraph ran. */
const mattersRan: string[] = [];

beforeAll(async () => {
  titlegraph = await startHttpService({
    services: { apiKeys: [...DEV_API_KEYS, { name: 'gateway', apiKeySha256: sha256Hex('router-key'), router: true }] },
  });
  matters = await serveSubgraph('matters', MATTERS_SDL, {
    Query: { matter: (_: unknown, { id }: { id: string }) => ({ id, reference: 'R' }) },
    Mutation: {
      renameMatter: (_: unknown, { id, reference }: { id: string; reference: string }) => {
        mattersRan.push('renameMatter');
        return { id, reference };
      },
      archiveMatter: () => {
        mattersRan.push('archiveMatter');
        throw new GraphQLError('This matter cannot be archived.');
      },
    },
  });
  supergraph = await composeWithTitlegraph(titlegraph.url, [matters]);
  // @apollo/gateway refuses @authenticated/@requiresScopes: its supergraph is composed without them (titlegraph enforces them itself).
  apolloSupergraph = await composeWithTitlegraph(titlegraph.url, [matters], 'dev-key-a', true);
});

afterAll(async () => {
  if (matters) await closeServer(matters.server);
  await titlegraph?.stop();
});

beforeEach(() => {
  titlegraph.emulator.calls.reset();
  mattersRan.length = 0;
});

let counter = 0;
const key = () => `gateway-chargeable-${process.pid}-${Date.now()}-${++counter}`;
/** The register charges once per account, title and day: a test that expects a charge buys its own title. */
const purchase = (titleNumber = 'MID1234', idempotencyKey = key()) =>
  `bought: purchaseTitleDetails(fas: "0877", input: { titleNumber: "${titleNumber}", idempotencyKey: "${idempotencyKey}" }) { charges { fee } userErrors { code } }`;
const createCase = () =>
  `created: createCase(fas: "1877", input: { reference: "R", contactEmail: "a@b.c", contactTelephone: "1", titleNumbers: ["MID15313"], idempotencyKey: "${key()}" }) { userErrors { code } }`;
const PAIRINGS = {
  'createCase (titlegraph)': { field: createCase, sibling: 'created' },
  "another subgraph's failing mutation": { field: () => 'archived: archiveMatter(id: "m1") { id }', sibling: 'archived' },
  "another subgraph's succeeding mutation": { field: () => 'renamed: renameMatter(id: "m1", reference: "S") { id }', sibling: 'renamed' },
};

/** An answer, with the register calls and charges it caused. */
async function judged(ask: () => Promise<GatewayAnswer>) {
  const charges = titlegraph.emulator.ledger.count();
  const answer = await ask();
  return { answer, calls: titlegraph.emulator.calls.count(), charged: titlegraph.emulator.ledger.count() - charges };
}

const notAlone = (sibling: string) => ({
  message: `A chargeable mutation must be the only field of its operation; bought is sent with ${sibling}. Send the mutations as separate requests, so that each answer holds its own outcome and charges.`,
  code: 'CHARGEABLE_MUTATION_NOT_ALONE',
});
const DEFERRED =
  "A chargeable mutation's payload is never deferred: bought has @defer in or around its selection. Remove it, so that the outcome and its charges come in one answer.";
const refusals = (answer: GatewayAnswer) => answer.errors?.map((e) => ({ message: e.message, code: e.extensions?.code }));

test('the supergraph carries @chargeable on exactly the fields titlegraph marks chargeable', () => {
  const marked = Object.values(buildSchema().getMutationType()!.getFields())
    .filter((f) => f.extensions.chargeable)
    .map((f) => f.name);
  expect(marked).toHaveLength(4);
  expect([...chargeableFieldsOf(supergraph)].sort()).toEqual(marked.sort());
});

interface Gateway {
  ask(query: string, accept?: string): Promise<GatewayAnswer>;
  stop(): Promise<void>;
}

/** Apollo Server 5 with @apollo/gateway over HTTP, with the rules' plugin (or none). */
async function apolloGateway(withRules = true): Promise<Gateway> {
  // Without the rules, a gateway titlegraph does not know (no router key): titlegraph refuses a known one's unmarked purchase.
  const gateway = await apolloServerGateway(apolloSupergraph, withRules ? { plugins: [chargeableRulesPlugin()] } : { routerKey: null });
  return {
    async ask(query, accept) {
      const { json, text } = await gateway.ask(query, { accept });
      return json ?? { data: { multipart: text } };
    },
    stop: () => gateway.stop(),
  };
}

function hiveGateway(overrides: Partial<Parameters<typeof createGatewayRuntime>[0]> = {}): Gateway {
  const runtime = createGatewayRuntime({ supergraph, logging: false, ...titlegraphGatewayConfig, ...overrides } as never);
  return {
    async ask(query, accept) {
      if (!accept) return askHive(runtime, query, AUTH);
      const response = await runtime.fetch('http://gateway.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept, ...AUTH },
        body: JSON.stringify({ query }),
      });
      const text = await response.text();
      return response.headers.get('content-type')?.startsWith('multipart/') ? { data: { multipart: text } } : JSON.parse(text);
    },
    stop: async () => {
      await runtime.dispose();
    },
  };
}

const GATEWAYS = [
  {
    name: 'Apollo Server with @apollo/gateway (plugins: [chargeableRulesPlugin()])',
    start: apolloGateway,
    title: 'BLK4101',
    defers: false,
  },
  { name: 'Hive Gateway (hive-gateway.config.ts)', start: async () => hiveGateway(), title: 'BLK4102', defers: true },
  {
    name: 'Hive Gateway with the Rust query planner (hive-gateway.config.ts, unifiedGraphHandler)',
    start: async () => hiveGateway({ unifiedGraphHandler }),
    title: 'BLK4103',
    defers: true,
  },
];

describe.each(GATEWAYS)('$name', ({ start, title, defers }) => {
  let gateway: Gateway;
  beforeAll(async () => {
    gateway = await start();
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  test.each(Object.entries(PAIRINGS))(
    'a purchase with %s is refused at the gateway: no subgraph request, no register call, no charge',
    async (_, { field, sibling }) => {
      const { answer, calls, charged } = await judged(() => gateway.ask(`mutation { ${purchase()} ${field()} }`));
      expect(answer.data ?? undefined).toBeUndefined();
      expect(refusals(answer)).toEqual([notAlone(sibling)]);
      expect(calls).toBe(0);
      expect(charged).toBe(0);
      expect(mattersRan).toEqual([]);
    },
  );

  test('the sibling first, or hidden in a fragment, is refused the same way', async () => {
    const { answer, calls } = await judged(() =>
      gateway.ask(`mutation { renamed: renameMatter(id: "m1", reference: "S") { id } ...Buy } fragment Buy on Mutation { ${purchase()} }`),
    );
    expect(refusals(answer)).toEqual([notAlone('renamed')]);
    expect(calls).toBe(0);
    expect(mattersRan).toEqual([]);
  });

  test('two purchases are refused as titlegraph refuses them', async () => {
    const second = `plans: purchaseTitlePlans(fas: "0877", input: { titleNumber: "MID1234", idempotencyKey: "${key()}" }) { userErrors { code } }`;
    const { answer, calls } = await judged(() => gateway.ask(`mutation { ${purchase()} ${second} }`));
    expect(answer.errors?.map((e) => e.extensions?.code)).toEqual(['TOO_MANY_CHARGEABLE_MUTATIONS']);
    expect(calls).toBe(0);
  });

  test('a purchase alone goes through and is charged once; mutations that charge nothing still go together', async () => {
    const alone = await judged(() => gateway.ask(`mutation { ${purchase(title)} }`));
    expect(alone.answer.errors).toBeUndefined();
    expect(alone.answer.data.bought.charges).toHaveLength(1);
    expect(alone.charged).toBe(1);
    const together = await judged(() => gateway.ask(`mutation { ${createCase()} renamed: renameMatter(id: "m1", reference: "S") { id } }`));
    expect(together.answer.errors).toBeUndefined();
    expect(together.answer.data).toEqual({ created: { userErrors: [] }, renamed: { id: 'm1' } });
    expect(titlegraph.emulator.calls.count({ route: 'createCase' })).toBe(1);
    expect(mattersRan).toEqual(['renameMatter']);
  });

  test.runIf(defers)('@defer around the charges is refused before anything is sent (deferStream on)', async () => {
    for (const query of [
      `mutation { bought: purchaseTitleDetails(fas: "0877", input: { titleNumber: "MID1234", idempotencyKey: "${key()}" }) { userErrors { code } ... @defer { charges { fee } } } }`,
      `mutation { bought: purchaseTitleDetails(fas: "0877", input: { titleNumber: "MID1234", idempotencyKey: "${key()}" }) { ...Charges @defer } } fragment Charges on PurchaseTitleDetailsPayload { charges { fee } }`,
      // Yoga's own rule also refuses @defer on a root mutation field; ours names the charge.
      `mutation { ... @defer { ${purchase()} } }`,
    ]) {
      const { answer, calls, charged } = await judged(() => gateway.ask(query, 'multipart/mixed, application/json;q=0.9'));
      expect(answer.errors?.[0]?.extensions?.code).toBe('CHARGEABLE_PAYLOAD_DEFERRED');
      expect(answer.errors?.[0]?.message).toBe(DEFERRED);
      expect(calls).toBe(0);
      expect(charged).toBe(0);
    }
  });
});

/** The three gateways with the rules installed as the README says, answering with the bytes the client gets. */
const RAW_GATEWAYS: { name: string; start: () => Promise<TestGateway>; apollo: boolean }[] = [
  {
    name: 'Apollo Server with @apollo/gateway (plugins: [chargeableRulesPlugin()])',
    start: () => apolloServerGateway(apolloSupergraph, { plugins: [chargeableRulesPlugin()] }),
    apollo: true,
  },
  { name: 'Hive Gateway (hive-gateway.config.ts)', start: async () => hiveTestGateway(supergraph), apollo: false },
  {
    name: 'Hive Gateway with the Rust query planner',
    start: async () => hiveTestGateway(supergraph, { unifiedGraphHandler }),
    apollo: false,
  },
];

/**
 * Accept values a client may send with a purchase, and whether each gateway delivers a single
 * answer to it: Apollo Server only JSON (by RFC 9110 negotiation, q counted), Yoga (Hive) JSON, a
 * one-event stream or a one-part multipart body (q ignored, only utf-8).
 */
const ACCEPTS = [
  { accept: 'application/xml', apollo: false, hive: false },
  { accept: 'text/html', apollo: false, hive: false },
  { accept: 'image/png', apollo: false, hive: false },
  { accept: 'application/json; charset=iso-8859-1', apollo: false, hive: false },
  { accept: 'text/event-stream', apollo: false, hive: true },
  { accept: 'multipart/mixed', apollo: false, hive: true },
  { accept: 'multipart/mixed; deferSpec=20220824', apollo: false, hive: true },
  { accept: 'application/json;q=0, text/html', apollo: false, hive: true },
  { accept: 'application/json', apollo: true, hive: true },
  { accept: 'application/graphql-response+json', apollo: true, hive: true },
  { accept: 'application/json; charset=utf-8', apollo: true, hive: true },
  { accept: '*/*', apollo: true, hive: true },
  { accept: 'text/html, application/*;q=0.5', apollo: true, hive: true },
];

let acceptTitle = 4300;

describe.each(RAW_GATEWAYS)('$name: a purchase and the Accept header', ({ start, apollo }) => {
  let gateway: TestGateway;
  beforeAll(async () => {
    gateway = await start();
  });
  afterAll(async () => {
    await gateway?.stop();
  });

  test.each(ACCEPTS)('Accept: $accept', async (row) => {
    const delivered = apollo ? row.apollo : row.hive;
    const judged = await judgedOnLedger(titlegraph.emulator, () =>
      gateway.ask(`mutation { ${purchase(`BLK${++acceptTitle}`).replace('{ fee }', '{ fee transactionNumber }')} }`, {
        accept: row.accept,
      }),
    );
    expect(judged.hidden).toEqual([]);
    if (delivered) {
      expect(judged.answer.status).toBe(200);
      expect(judged.charged).toHaveLength(1);
    } else {
      expect(judged.answer.status).toBe(406);
      expect(judged.calls).toBe(0);
      expect(judged.charged).toEqual([]);
    }
  });
});

/** The supergraph as a platform team composes it when it drops titlegraph's @composeDirective: no @chargeable anywhere. */
async function composedWithoutMarker(forApolloGateway: boolean): Promise<string> {
  const { body } = await postRaw(titlegraph.url, { query: '{ _service { sdl } }' }, { authorization: 'Bearer dev-key-a', accept: null });
  let sdl = (body.data as { _service: { sdl: string } })._service.sdl.replace(/@composeDirective\(name: "@chargeable"\)/, '');
  if (forApolloGateway) sdl = withoutSecurityDirectives(sdl);
  const composed = composeServices([
    { name: 'titlegraph', url: titlegraph.url, typeDefs: parse(sdl) },
    { name: matters.name, url: matters.url, typeDefs: parse(matters.sdl) },
  ]);
  if (composed.errors) throw new Error(composed.errors.map((e) => e.message).join('\n'));
  expect(chargeableFieldsOf(composed.supergraphSdl).size).toBe(0);
  return composed.supergraphSdl;
}

const NO_MARKER = /^The gateway refuses every mutation: its supergraph has titlegraph's types but no field marked @chargeable/;

describe('a supergraph composed without @composeDirective (no @chargeable)', () => {
  test('Apollo Server with the rules refuses to start, saying why; nothing reaches the register', async () => {
    const logged: string[] = [];
    const sdl = await composedWithoutMarker(true);
    await expect(apolloServerGateway(sdl, { plugins: [chargeableRulesPlugin({ logError: (m) => logged.push(m) })] })).rejects.toThrow(
      /no field marked @chargeable/,
    );
    expect(logged).toEqual([expect.stringMatching(NO_MARKER)]);
  });

  test.each([
    { name: 'Hive Gateway', overrides: {} },
    { name: 'Hive Gateway with the Rust planner', overrides: { unifiedGraphHandler } },
  ])('$name with the rules refuses every mutation, saying why, and still answers queries', async ({ overrides }) => {
    const logged: string[] = [];
    const gateway = hiveTestGateway(await composedWithoutMarker(false), {
      ...overrides,
      plugins: () => [useChargeableMutationRules({ logError: (m) => logged.push(m) })],
    });
    try {
      for (const document of [`mutation { ${purchase()} }`, `mutation { ${purchase()} ${createCase()} }`]) {
        const judged = await judgedOnLedger(titlegraph.emulator, () => gateway.ask(document));
        expect(judged.answer.json?.errors?.map((e) => e.extensions?.code)).toEqual(['CHARGEABLE_RULES_NO_MARKER']);
        expect(judged.calls).toBe(0);
        expect(judged.charged).toEqual([]);
      }
      const query = await gateway.ask('{ matter(id: "m1") { reference } }');
      expect(query.json).toEqual({ data: { matter: { reference: 'R' } } });
      expect(logged).toEqual([expect.stringMatching(NO_MARKER)]);
    } finally {
      await gateway.stop();
    }
  });
});

describe.each([
  { name: 'Hive Gateway', overrides: {} },
  { name: 'Hive Gateway with the Rust planner', overrides: { unifiedGraphHandler } },
])('$name with persistedDocuments and skipDocumentValidation: true', ({ overrides }) => {
  test('a stored purchase beside another mutation is still refused, at execution: no subgraph request, no register call', async () => {
    const stored: Record<string, string> = {
      pair: `mutation { ${purchase()} archived: archiveMatter(id: "m1") { id } }`,
      chain: `mutation { ${purchase()} ${purchase()} }`,
    };
    const gateway = hiveTestGateway(supergraph, {
      ...overrides,
      persistedDocuments: { getPersistedOperation: (id: string) => stored[id] ?? null, skipDocumentValidation: true },
    });
    try {
      for (const [id, code] of [
        ['pair', 'CHARGEABLE_MUTATION_NOT_ALONE'],
        ['chain', 'TOO_MANY_CHARGEABLE_MUTATIONS'],
      ] as const) {
        const judged = await judgedOnLedger(titlegraph.emulator, () => gateway.ask('', { persistedId: id }));
        expect(judged.answer.json?.errors?.map((e) => e.extensions?.code)).toEqual([code]);
        expect(judged.calls).toBe(0);
        expect(judged.charged).toEqual([]);
        expect(mattersRan).toEqual([]);
      }
    } finally {
      await gateway.stop();
    }
  });
});

describe('why the rules are needed, and what a client does after a hidden charge', () => {
  test("without them Hive Gateway sends a purchase and createCase to titlegraph as two requests, past titlegraph's own rule: both run", async () => {
    const bare = hiveGateway({ plugins: () => [] });
    try {
      const { answer, charged } = await judged(() => bare.ask(`mutation { ${purchase('BLK4106')} ${createCase()} }`));
      expect(answer.errors).toBeUndefined();
      expect(charged).toBe(1);
      expect(titlegraph.emulator.calls.count({ route: 'createCase' })).toBe(1);
    } finally {
      await bare.stop();
    }
  });

  test('without them Hive Gateway plans @defer itself: titlegraph never sees it, charges, and the deferred part loses the charges', async () => {
    const bare = hiveGateway({ plugins: () => [] });
    try {
      const { answer, charged } = await judged(() =>
        bare.ask(
          `mutation { bought: purchaseTitleDetails(fas: "0877", input: { titleNumber: "BLK4105", idempotencyKey: "${key()}" }) { userErrors { code } ... @defer { charges { fee } } } }`,
          'multipart/mixed',
        ),
      );
      expect(answer.data.multipart).toContain('Cannot return null for non-nullable field PurchaseTitleDetailsPayload.charges');
      expect(charged).toBe(1);
    } finally {
      await bare.stop();
    }
  });

  test("without them a purchase sent with another subgraph's failing mutation is charged and answered data: null, through each gateway; the same key sent alone returns the stored answer with its charges", async () => {
    const bareGateways = [
      { title: 'BLK4107', start: () => apolloGateway(false) },
      { title: 'BLK4108', start: async () => hiveGateway({ plugins: () => [] }) },
      { title: 'BLK4109', start: async () => hiveGateway({ plugins: () => [], unifiedGraphHandler }) },
    ];
    const guarded = hiveGateway();
    try {
      for (const { title, start } of bareGateways) {
        const idempotencyKey = key();
        const bare = await start();
        try {
          const hidden = await judged(() =>
            bare.ask(`mutation { ${purchase(title, idempotencyKey)} archived: archiveMatter(id: "m1") { id } }`),
          );
          expect(hidden.answer.data, title).toBeNull();
          expect(hidden.charged, title).toBe(1);
        } finally {
          await bare.stop();
        }
        titlegraph.emulator.calls.reset();
        const replay = await judged(() => guarded.ask(`mutation { ${purchase(title, idempotencyKey)} }`));
        expect(replay.answer.errors).toBeUndefined();
        expect(replay.answer.data.bought.charges).toEqual([{ fee: '3.00' }]);
        expect(replay.calls).toBe(0);
        expect(replay.charged).toBe(0);
      }
    } finally {
      await guarded.stop();
    }
  });
});
