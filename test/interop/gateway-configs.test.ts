/**
 * The federation guide's configurations, loaded from the files the README points at
 * (examples/federation/), run with the real gateway packages over real HTTP: titlegraph in
 * production hardening (introspection off) with a router key, and a second "matters" subgraph
 * that records every request's headers.
 * - Apollo Gateway: schema loading and the health check use the router key; each client's key,
 *   traceparent and request id reach titlegraph and nothing reaches the other subgraph; a refusal
 *   reaches the client with its own code, not as "400: Bad Request".
 * - Hive Gateway: the same forwarding; an upstream timeout reaches the client masked; @defer passes.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { ApolloGateway, IntrospectAndCompose, RemoteGraphQLDataSource } from '@apollo/gateway';
import { createGatewayRuntime } from '@graphql-hive/gateway-runtime';
import { getComposedSchemaFromConfig } from '@graphql-mesh/compose-cli';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { buildService, type GatewayContext } from '../../examples/federation/apollo-gateway';
import { titlegraphGatewayConfig } from '../../examples/federation/hive-gateway.config';
import { DEFAULT_LIMITS } from '../../src/security/settings';
import { DEV_API_KEYS, sha256Hex } from '../../src/services/callers';
import { startService } from '../support/harness';
import {
  composeWithTitlegraph,
  executeThroughApollo,
  quietApolloLogger,
  serveSubgraph,
  type Subgraph,
  MATTERS_SDL,
} from '../support/federation';
import { closeServer, listen } from '../support/http-service';

const MATTERS = [
  { id: 'm1', titleNumber: 'MID15313' },
  { id: 'm2', titleNumber: 'GLA5001' },
];
const TRACEPARENT = '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01';
const CLIENT_HEADERS = { authorization: 'Bearer dev-key-b', traceparent: TRACEPARENT, 'x-request-id': 'req-gateway-1' };
const ROUTER_KEY = 'router-key-gateway-configs';
const quietLogger = {
  log() {},
  warn() {},
  info() {},
  error() {},
  debug() {},
  child() {
    return quietLogger;
  },
  addPrefix() {
    return quietLogger;
  },
} as never;

let titlegraph: Awaited<ReturnType<typeof startService>>;
let titlegraphServer: Server;
let titlegraphUrl: string;
let matters: Subgraph;
let mattersUrl: string;
const seenBy = { titlegraph: [] as IncomingHttpHeaders[], matters: [] as IncomingHttpHeaders[] };

beforeAll(async () => {
  titlegraph = await startService({
    services: { apiKeys: [...DEV_API_KEYS, { name: 'gateway', apiKeySha256: sha256Hex(ROUTER_KEY), router: true }] },
    app: { graphiql: false, hardening: { limits: DEFAULT_LIMITS, introspection: false, fieldSuggestions: false } },
  });
  titlegraphServer = createServer((req, res) => {
    seenBy.titlegraph.push(req.headers);
    titlegraph.yoga(req, res);
  });
  titlegraphUrl = `${await listen(titlegraphServer)}/graphql`;
  matters = await serveSubgraph(
    'matters',
    MATTERS_SDL,
    {
      Query: { matters: () => MATTERS },
      Matter: { title: (m: (typeof MATTERS)[number]) => ({ __typename: 'Title', titleNumber: m.titleNumber }) },
    },
    (headers) => seenBy.matters.push(headers),
  );
  mattersUrl = matters.url;
});

afterAll(async () => {
  if (matters) await closeServer(matters.server);
  if (titlegraphServer) await closeServer(titlegraphServer);
  await titlegraph?.stop();
});

const forget = () => {
  seenBy.titlegraph.length = 0;
  seenBy.matters.length = 0;
};

describe('Apollo Gateway with examples/federation/apollo-gateway.ts', () => {
  let gateway: ApolloGateway;
  let loaded: Awaited<ReturnType<ApolloGateway['load']>>;

  beforeAll(async () => {
    forget();
    gateway = new ApolloGateway({
      supergraphSdl: new IntrospectAndCompose({
        subgraphs: [
          { name: 'titlegraph', url: titlegraphUrl },
          { name: 'matters', url: mattersUrl },
        ],
      }),
      buildService: buildService(ROUTER_KEY),
      serviceHealthCheck: true,
      logger: quietApolloLogger,
    });
    loaded = await gateway.load();
  });

  afterAll(async () => {
    await gateway?.stop();
  });

  const execute = (query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = CLIENT_HEADERS) =>
    executeThroughApollo(loaded, query, variables, { headers } satisfies GatewayContext);

  test('loading the schema and the health check use the router key, which reads the schema with introspection off', async () => {
    // Loading (in beforeAll) read the SDL with the router key.
    expect(seenBy.titlegraph.map((h) => h.authorization)).toEqual([`Bearer ${ROUTER_KEY}`]);
    forget();
    // What a health endpoint in front of the gateway calls: every subgraph answers.
    await expect(gateway.serviceHealthCheck()).resolves.toBeDefined();
    expect(seenBy.titlegraph.map((h) => h.authorization)).toEqual([`Bearer ${ROUTER_KEY}`]);
    expect(seenBy.matters.map((h) => h.authorization)).toEqual([undefined]);
  });

  test("a client's key, traceparent and request id reach titlegraph and nothing of them reaches the other subgraph", async () => {
    forget();
    titlegraph.emulator.calls.reset();
    const result = await execute('{ matters { id title { titleNumber status } } }');
    expect(result.errors).toBeUndefined();
    expect(result.data.matters.map((m: { title: { status: string } }) => m.title.status)).toEqual(['REGISTERED', 'DRAFT']);
    expect(seenBy.titlegraph.map((h) => [h.authorization, h.traceparent, h['x-request-id']])).toEqual([
      ['Bearer dev-key-b', TRACEPARENT, 'req-gateway-1'],
    ]);
    expect(seenBy.matters.map((h) => [h.authorization, h.traceparent, h['x-request-id']])).toEqual([[undefined, undefined, undefined]]);
    expect(titlegraph.emulator.calls.count({ route: 'titleSummary', clientId: 'client-b' })).toBe(2);
  });

  test("a value titlegraph refuses in the gateway's variables reaches the client as BAD_USER_INPUT, with titlegraph's words", async () => {
    titlegraph.emulator.calls.reset();
    const result = await execute('query ($t: TitleNumber!) { title(titleNumber: $t) { status } }', { t: 'not a title' });
    expect(result.data?.title ?? null).toBeNull();
    expect(result.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(result.errors?.[0]?.message).toMatch(/TitleNumber/);
    expect(result.errors?.[0]?.message).not.toMatch(/400|Bad Request/);
    expect(titlegraph.emulator.calls.count()).toBe(0);
  });

  test("a wrong key, or one without Bearer, is refused in titlegraph's words and code, without titlegraph's internal address", async () => {
    titlegraph.emulator.calls.reset();
    const query = '{ title(titleNumber: "MID15313") { status } }';
    for (const authorization of ['Bearer not-a-key-of-ours', 'dev-key-b']) {
      const direct = await fetch(titlegraphUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization },
        body: JSON.stringify({ query }),
      });
      expect(direct.status).toBe(401);
      const own = ((await direct.json()) as { errors: { message: string; extensions: { code: string } }[] }).errors[0]!;
      const result = await execute(query, {}, { authorization });
      expect(result.data?.title ?? null).toBeNull();
      expect(result.errors).toEqual([
        expect.objectContaining({ message: own.message, extensions: expect.objectContaining({ code: 'UNAUTHENTICATED' }) }),
      ]);
      expect(JSON.stringify(result)).not.toContain(new URL(titlegraphUrl).host);
      expect(JSON.stringify(result)).not.toMatch(/401: Unauthorized/);
    }
    expect(titlegraph.emulator.calls.count()).toBe(0);
  });

  test('titlegraph unreachable: the client is told so, without its address', async () => {
    const gone = createServer();
    const goneUrl = `${await listen(gone)}/graphql`;
    await closeServer(gone);
    const supergraphSdl = (await composeWithTitlegraph(titlegraphUrl, [], ROUTER_KEY, true)).replace(titlegraphUrl, goneUrl);
    const cut = new ApolloGateway({ supergraphSdl, buildService: buildService(ROUTER_KEY), logger: quietApolloLogger });
    const result = await executeThroughApollo(
      await cut.load(),
      '{ title(titleNumber: "MID15313") { status } }',
      {},
      { headers: CLIENT_HEADERS },
    );
    await cut.stop();
    expect(result.errors).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(/^The connection to titlegraph failed \(ECONNREFUSED\)/),
        extensions: expect.objectContaining({ code: 'SUBGRAPH_UNREACHABLE' }),
      }),
    ]);
    expect(JSON.stringify(result)).not.toContain(new URL(goneUrl).host);
  });

  test("composing with a client's key instead of the router key fails with titlegraph's reason, not a bare 400", async () => {
    const wrong = new ApolloGateway({
      supergraphSdl: new IntrospectAndCompose({ subgraphs: [{ name: 'titlegraph', url: titlegraphUrl }] }),
      buildService: ({ url }) =>
        new (class extends RemoteGraphQLDataSource {
          override willSendRequest({ request }: Parameters<NonNullable<RemoteGraphQLDataSource['willSendRequest']>>[0]) {
            request.http?.headers.set('authorization', 'Bearer dev-key-a');
          }
        })({ url }),
      logger: quietApolloLogger,
    });
    const failure = await wrong.load().then(
      () => undefined,
      (error: Error) => error.message,
    );
    await wrong.stop().catch(() => undefined);
    expect(failure).toMatch(/_service/);
    expect(failure).not.toMatch(/400: Bad Request/);
  });
});

describe('Hive Gateway with examples/federation/hive-gateway.config.ts', () => {
  let supergraph: string;
  const runtimes: ReturnType<typeof createGatewayRuntime>[] = [];

  beforeAll(async () => {
    supergraph = await composeWithTitlegraph(titlegraphUrl, [matters], ROUTER_KEY);
  });

  afterAll(async () => {
    for (const runtime of runtimes) await runtime.dispose();
  });

  const runtime = (overrides: Partial<Parameters<typeof createGatewayRuntime>[0]> = {}) => {
    const created = createGatewayRuntime({ supergraph, logging: false, ...titlegraphGatewayConfig, ...overrides } as never);
    runtimes.push(created);
    return created;
  };

  const post = (gateway: ReturnType<typeof createGatewayRuntime>, query: string, accept = 'application/json') =>
    gateway.fetch('http://gateway.test/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept, ...CLIENT_HEADERS },
      body: JSON.stringify({ query }),
    });

  test("a client's key, traceparent and request id reach titlegraph and nothing of them reaches the other subgraph", async () => {
    forget();
    const response = await post(runtime(), '{ matters { id title { titleNumber status } } }');
    const body = (await response.json()) as { data?: any; errors?: unknown };
    expect(body.errors).toBeUndefined();
    expect(body.data.matters).toHaveLength(2);
    expect(seenBy.titlegraph.map((h) => [h.authorization, h.traceparent, h['x-request-id']])).toEqual([
      ['Bearer dev-key-b', TRACEPARENT, 'req-gateway-1'],
    ]);
    // Hive Gateway sends its request id to every subgraph itself; the key and the trace header go to titlegraph only.
    expect(seenBy.matters.map((h) => [h.authorization, h.traceparent])).toEqual([[undefined, undefined]]);
  });

  test("an upstream timeout reaches the client masked: neither titlegraph's address nor the request's FAS", async () => {
    titlegraph.emulator.faults.inject('titleDetails', { kind: 'hang', phase: 'before' }, 1);
    try {
      const response = await post(
        runtime({ upstreamTimeout: 300 }),
        // dev-key-b's own charging account: a FAS the organisation does not list is refused before anything is sent.
        'mutation { purchaseTitleDetails(fas: "5555", input: { titleNumber: "MID1234", idempotencyKey: "gateway-timeout-1" }) { charges { fee } } }',
      );
      const text = await response.text();
      expect(JSON.parse(text).errors?.[0]?.extensions).toEqual({ code: 'GATEWAY_TIMEOUT' });
      expect(text).not.toContain(new URL(titlegraphUrl).host);
      expect(text).not.toContain('5555');
      expect(text).not.toContain('purchaseTitleDetails(fas');
    } finally {
      titlegraph.emulator.faults.clear();
    }
  });

  test("Hive's own composer (Mesh Compose, examples/federation/mesh.config.ts) composes from the running service with the router key", async () => {
    process.env.TITLEGRAPH_URL = titlegraphUrl;
    process.env.TITLEGRAPH_ROUTER_KEY = ROUTER_KEY;
    forget();
    try {
      const { composeConfig } = await import('../../examples/federation/mesh.config');
      const composed = await getComposedSchemaFromConfig(composeConfig, quietLogger);
      expect(seenBy.titlegraph.map((h) => h.authorization)).toContain(`Bearer ${ROUTER_KEY}`);
      const response = await post(runtime({ supergraph: composed }), '{ title(titleNumber: "MID15313") { titleNumber status } }');
      const body = (await response.json()) as { data?: any; errors?: unknown };
      expect(body.errors).toBeUndefined();
      expect(body.data.title).toEqual({ titleNumber: 'MID15313', status: 'REGISTERED' });
    } finally {
      delete process.env.TITLEGRAPH_URL;
      delete process.env.TITLEGRAPH_ROUTER_KEY;
    }
  });

  test('@defer passes through Hive Gateway (deferStream on) as an incremental answer', async () => {
    const response = await post(
      runtime(),
      '{ title(titleNumber: "MID15313") { titleNumber ... @defer { status } } }',
      'multipart/mixed, application/json;q=0.9',
    );
    expect(response.headers.get('content-type')).toMatch(/multipart\/mixed/);
    const text = await response.text();
    expect(text).toContain('"titleNumber":"MID15313"');
    expect(text).toContain('"status":"REGISTERED"');
  });
});
