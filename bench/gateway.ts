/**
 * A federation gateway in front of the service, as a child process of the benchmark (so that its
 * CPU is its own): Hive Gateway's runtime or Apollo Gateway, over the supergraph composed from
 * the service's own `_service { sdl }` as the tests compose it (test/support/federation.ts), the
 * gateways configured as the interop tests configure them (test/interop/entity-batches.test.ts). Each
 * forwards the caller's Authorization header to the service. Reports its URL over IPC.
 *
 *   BENCH_GATEWAY=hive|apollo  TITLEGRAPH_URL=http://127.0.0.1:PORT/graphql  BENCH_ROUTER_KEY (a router key)
 *
 * Apollo Gateway runs as the tests run it, through its executor (`gateway.load()`), here behind a
 * plain node:http server that keeps each parsed document as Apollo Server's document store does:
 * Apollo Server's own HTTP layer (not a dependency of this project) would only add to its CPU.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { composeServices } from '@apollo/composition';
import { ApolloGateway, RemoteGraphQLDataSource } from '@apollo/gateway';
import { createGatewayRuntime } from '@graphql-hive/gateway-runtime';
import { type DocumentNode, type OperationDefinitionNode, parse } from 'graphql';
import { withoutSecurityDirectives } from '../examples/federation/apollo-gateway';

const kind = process.env.BENCH_GATEWAY;
const titlegraphUrl = process.env.TITLEGRAPH_URL!;
const quietApolloLogger = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * The supergraph of the service alone, from its SDL read over HTTP (as test/support/federation.ts
 * composes it; that module needs vitest). For Apollo Gateway without the `@authenticated` and
 * `@requiresScopes` it refuses to load, as its example and the tests compose it; the service
 * enforces them either way.
 */
async function composeSupergraph(): Promise<string> {
  const response = await fetch(titlegraphUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${process.env.BENCH_ROUTER_KEY}` },
    body: JSON.stringify({ query: '{ _service { sdl } }' }),
  });
  const { data } = (await response.json()) as { data: { _service: { sdl: string } } };
  const sdl = kind === 'apollo' ? withoutSecurityDirectives(data._service.sdl) : data._service.sdl;
  const composed = composeServices([{ name: 'titlegraph', url: titlegraphUrl, typeDefs: parse(sdl) }]);
  if (composed.errors) throw new Error(composed.errors.map((e) => e.message).join('\n'));
  return composed.supergraphSdl;
}

const supergraph = await composeSupergraph();

async function bodyOf(req: IncomingMessage): Promise<string> {
  let text = '';
  for await (const chunk of req) text += chunk;
  return text;
}

async function apolloServer(): Promise<{ server: Server; stop(): Promise<void> }> {
  const gateway = new ApolloGateway({
    supergraphSdl: supergraph,
    logger: quietApolloLogger,
    buildService: ({ url }) =>
      new (class extends RemoteGraphQLDataSource<{ authorization?: string }> {
        override willSendRequest({ request, context }: Parameters<NonNullable<RemoteGraphQLDataSource['willSendRequest']>>[0]) {
          const authorization = (context as { authorization?: string }).authorization;
          if (authorization) request.http?.headers.set('authorization', authorization);
        }
      })({ url }),
  });
  const loaded = await gateway.load();
  const documents = new Map<string, DocumentNode>();
  const server = createServer(async (req, res) => {
    try {
      const { query, variables, operationName } = JSON.parse(await bodyOf(req)) as {
        query: string;
        variables?: Record<string, unknown>;
        operationName?: string;
      };
      let document = documents.get(query);
      if (!document) {
        document = parse(query);
        documents.set(query, document);
      }
      const operation = document.definitions.find(
        (d): d is OperationDefinitionNode => d.kind === 'OperationDefinition' && (!operationName || d.name?.value === operationName),
      );
      const answer = await loaded.executor({
        request: { query, variables: variables ?? {}, operationName },
        document,
        source: query,
        queryHash: query,
        operation,
        operationName: operationName ?? null,
        schema: loaded.schema,
        context: { authorization: req.headers.authorization },
        logger: quietApolloLogger,
        metrics: {},
        cache: undefined,
        overallCachePolicy: undefined,
      } as never);
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify(answer));
    } catch (error) {
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(String(error));
    }
  });
  return { server, stop: () => gateway.stop() };
}

function hiveServer(): { server: Server; stop(): Promise<void> } {
  const gateway = createGatewayRuntime({
    supergraph,
    logging: false,
    // Every caller of the benchmark asks for the same title at once, which Hive Gateway would merge
    // into one subgraph request; real callers ask for different titles: each request is sent.
    transportEntries: { '*.http': { options: { deduplicateInflightRequests: false } } },
    propagateHeaders: {
      fromClientToSubgraphs: ({ request }) => ({ authorization: request.headers.get('authorization') ?? '' }),
    },
  });
  return { server: createServer(gateway), stop: async () => gateway.dispose() };
}

const { server, stop } = kind === 'apollo' ? await apolloServer() : hiveServer();
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  process.send?.({ url: `http://127.0.0.1:${port}` });
});

const end = async () => {
  server.close();
  await stop();
  process.exit(0);
};
process.on('SIGTERM', end);
process.on('SIGINT', end);
process.on('disconnect', end);
