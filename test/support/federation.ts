/**
 * What the gateway tests share: another team's subgraph served over real HTTP, a supergraph
 * composed from titlegraph's own `_service { sdl }` and that subgraph's, and a client operation
 * run through a loaded @apollo/gateway.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { composeServices } from '@apollo/composition';
import { ApolloGateway, type GraphQLDataSourceProcessOptions, RemoteGraphQLDataSource } from '@apollo/gateway';
import { ApolloServer, type ApolloServerPlugin } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { createGatewayRuntime } from '@graphql-hive/gateway-runtime';
import { buildSubgraphSchema } from '@apollo/subgraph';
import { parse, type DocumentNode, type OperationDefinitionNode } from 'graphql';
import { createYoga } from 'graphql-yoga';
import { listen } from './http-service';
import { buildService, type GatewayContext as ApolloContext, withoutSecurityDirectives } from '../../examples/federation/apollo-gateway';
import { titlegraphGatewayConfig } from '../../examples/federation/hive-gateway.config';
import type { Emulator } from '../../src/emulator';
import { postRaw } from './post-raw';

/** Another subgraph of a firm's company graph: its matters, each naming a title of titlegraph's. */
export const MATTERS_SDL = /* GraphQL */ `
  extend schema @link(url: "https://specs.apollo.dev/federation/v2.9", import: ["@key"])

  scalar TitleNumber

  type Query {
    matters: [Matter!]!
  }

  "A conveyancing matter of the firm's own system."
  type Matter @key(fields: "id") {
    id: ID!
    title: Title
  }

  type Title @key(fields: "titleNumber", resolvable: false) {
    titleNumber: TitleNumber!
  }
`;

export interface Subgraph {
  name: string;
  sdl: string;
  url: string;
  server: Server;
}

/** A subgraph built with @apollo/subgraph and served by Yoga on a free port; `onRequest` sees each request's headers. */
export async function serveSubgraph(
  name: string,
  sdl: string,
  resolvers: Record<string, unknown>,
  onRequest?: (headers: IncomingHttpHeaders) => void,
): Promise<Subgraph> {
  const yoga = createYoga({
    schema: buildSubgraphSchema({ typeDefs: parse(sdl), resolvers: resolvers as never }),
    graphqlEndpoint: '/graphql',
    logging: false,
  });
  const server = createServer((req, res) => {
    onRequest?.(req.headers);
    yoga(req, res);
  });
  return { name, sdl, server, url: `${await listen(server)}/graphql` };
}

/**
 * The supergraph of titlegraph (its SDL read over HTTP with `key`) and the given subgraphs; throws
 * on composition errors. For @apollo/gateway, without the security directives it refuses.
 */
export async function composeWithTitlegraph(
  titlegraphUrl: string,
  others: Subgraph[],
  key = 'dev-key-a',
  forApolloGateway = false,
): Promise<string> {
  const { data } = (await postRaw(titlegraphUrl, { query: '{ _service { sdl } }' }, { authorization: `Bearer ${key}`, accept: null }))
    .body as {
    data: { _service: { sdl: string } };
  };
  const composed = composeServices([
    {
      name: 'titlegraph',
      url: titlegraphUrl,
      typeDefs: parse(forApolloGateway ? withoutSecurityDirectives(data._service.sdl) : data._service.sdl),
    },
    ...others.map((s) => ({ name: s.name, url: s.url, typeDefs: parse(s.sdl) })),
  ]);
  if (composed.errors) throw new Error(composed.errors.map((e) => e.message).join('\n'));
  return composed.supergraphSdl;
}

export type GatewayAnswer = {
  data?: any;
  errors?: { message: string; path?: unknown[]; extensions?: Record<string, unknown> }[];
  extensions?: any;
};

/** A client operation through a loaded @apollo/gateway, as Apollo Server would hand it over, with `context`. */
export async function executeThroughApollo(
  loaded: Awaited<ReturnType<ApolloGateway['load']>>,
  query: string,
  variables: Record<string, unknown> = {},
  context: Record<string, unknown> = {},
): Promise<GatewayAnswer> {
  const document: DocumentNode = parse(query);
  return (await loaded.executor({
    request: { query, variables },
    document,
    source: query,
    queryHash: query,
    operation: document.definitions[0] as OperationDefinitionNode,
    operationName: null,
    schema: loaded.schema,
    context,
    logger: console,
    metrics: {},
    cache: undefined,
    overallCachePolicy: undefined,
  } as never)) as GatewayAnswer;
}

/** A Hive Gateway runtime's answer to a POST of `query` with these headers. */
export async function askHive(
  gateway: { fetch(url: string, init: RequestInit): Response | Promise<Response> },
  query: string,
  headers: Record<string, string> = { authorization: 'Bearer dev-key-a' },
): Promise<GatewayAnswer> {
  const response = await gateway.fetch('http://gateway.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ query }),
  });
  return (await response.json()) as GatewayAnswer;
}

export const quietApolloLogger = { debug() {}, info() {}, warn() {}, error() {} };

/** One request a recording proxy passed on: its headers (lower-case names) and its body. */
export interface ProxiedRequest {
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * An HTTP proxy in front of `targetUrl` that keeps what each request carried, so a test sees the
 * headers a gateway really sent to a subgraph.
 */
export async function recordingProxy(targetUrl: string): Promise<{ url: string; requests: ProxiedRequest[]; server: Server }> {
  const requests: ProxiedRequest[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    requests.push({ headers: req.headers, body });
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers))
      if (typeof value === 'string' && name !== 'host' && name !== 'content-length') headers.set(name, value);
    const answer = await fetch(new URL(req.url ?? '/graphql', targetUrl), {
      method: req.method,
      headers,
      body: req.method === 'GET' ? undefined : body,
    });
    res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
    res.end(Buffer.from(await answer.arrayBuffer()));
  });
  return { url: `${await listen(server)}/graphql`, requests, server };
}

/** A gateway's answer as the client got it: status, content type and the bytes of the body. */
export interface RawAnswer {
  status: number;
  contentType: string | null;
  text: string;
  /** The body as JSON, when it is JSON. */
  json?: GatewayAnswer;
}

export interface AskOptions {
  accept?: string;
  method?: 'GET' | 'POST';
  /** Instead of `query`: a persisted document's id (`extensions.persistedQuery.sha256Hash`). */
  persistedId?: string;
  headers?: Record<string, string>;
}

/** A gateway a test sends client operations to, over HTTP or its fetch. */
export interface TestGateway {
  ask(query: string, options?: AskOptions): Promise<RawAnswer>;
  stop(): Promise<void>;
}

async function rawAnswer(response: Response): Promise<RawAnswer> {
  const text = await response.text();
  const contentType = response.headers.get('content-type');
  let json: GatewayAnswer | undefined;
  if (contentType?.includes('json')) json = JSON.parse(text) as GatewayAnswer;
  return { status: response.status, contentType, text, json };
}

/** A client's request for `query` to a GraphQL endpoint, as a browser or client library sends it. */
export function clientRequest(
  url: string,
  query: string,
  { accept, method = 'POST', persistedId, headers = {} }: AskOptions = {},
): Request {
  const extensions = persistedId ? { persistedQuery: { version: 1, sha256Hash: persistedId } } : undefined;
  const all: Record<string, string> = { authorization: 'Bearer dev-key-a', ...headers };
  if (accept !== undefined) all.accept = accept;
  if (method === 'GET') {
    const target = new URL(url);
    if (!persistedId) target.searchParams.set('query', query);
    if (extensions) target.searchParams.set('extensions', JSON.stringify(extensions));
    // Apollo Server's CSRF prevention lets a GET through with a header a simple request cannot set.
    return new Request(target, { method, headers: { 'apollo-require-preflight': 'true', ...all } });
  }
  const body = persistedId ? { extensions } : { query };
  return new Request(url, { method, headers: { 'content-type': 'application/json', ...all }, body: JSON.stringify(body) });
}

/** A gateway titlegraph does not know: it forwards each caller's Authorization and presents no router key. */
const unknownGatewayService = ({ url }: { url?: string }) =>
  new (class extends RemoteGraphQLDataSource<ApolloContext> {
    override willSendRequest({ request, context }: GraphQLDataSourceProcessOptions<ApolloContext>) {
      const authorization = context.headers?.authorization;
      if (typeof authorization === 'string') request.http?.headers.set('authorization', authorization);
    }
  })({ url });

/**
 * Apollo Server 5 with @apollo/gateway on a free port, titlegraph's data source from
 * apollo-gateway.ts presenting `routerKey` (null: a gateway titlegraph does not know), and `plugins`.
 */
export async function apolloServerGateway(
  supergraphSdl: string,
  { routerKey = 'router-key', plugins = [] }: { routerKey?: string | null; plugins?: ApolloServerPlugin[] } = {},
): Promise<TestGateway & { server: ApolloServer }> {
  const gateway = new ApolloGateway({
    supergraphSdl,
    buildService: routerKey === null ? unknownGatewayService : buildService(routerKey),
    logger: quietApolloLogger,
  });
  const server = new ApolloServer({ gateway, plugins, logger: quietApolloLogger });
  const { url } = await startStandaloneServer(server, {
    listen: { port: 0, host: '127.0.0.1' },
    context: async ({ req }) => ({ headers: req.headers }) satisfies ApolloContext,
  });
  return {
    server,
    ask: async (query, options) => rawAnswer(await fetch(clientRequest(url, query, options))),
    stop: () => server.stop(),
  };
}

/** Hive Gateway's runtime over `supergraph` with the README's config (hive-gateway.config.ts) and `overrides`, asked through its fetch. */
export function hiveTestGateway(supergraph: string, overrides: Record<string, unknown> = {}): TestGateway {
  const runtime = createGatewayRuntime({ supergraph, logging: false, ...titlegraphGatewayConfig, ...overrides } as never);
  return {
    ask: async (query, options) => rawAnswer(await runtime.fetch(clientRequest('http://gateway.test/graphql', query, options))),
    stop: async () => {
      await runtime.dispose();
    },
  };
}

/** What one client request did at the register: its calls, and each charge made, shown to the client or hidden from it. */
export interface Judged {
  answer: RawAnswer;
  calls: number;
  charged: string[];
  /** Transaction numbers the register charged that are not in the bytes the client received. */
  hidden: string[];
}

/** Runs `ask` and judges it on the emulator's call log and ledger against the bytes the client got. */
export async function judgedOnLedger(emulator: Emulator, ask: () => Promise<RawAnswer>): Promise<Judged> {
  emulator.calls.reset();
  const before = emulator.ledger.charges.length;
  const answer = await ask();
  const charged = emulator.ledger.charges.slice(before).map((e) => e.charge.transactionNumber);
  return { answer, calls: emulator.calls.count(), charged, hidden: charged.filter((t) => !answer.text.includes(t)) };
}
