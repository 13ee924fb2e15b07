/**
 * @apollo/gateway in front of titlegraph: which key goes where. Pass `buildService` to
 * `new ApolloGateway({ supergraphSdl | supergraphSdl: new IntrospectAndCompose(...), buildService })`
 * and give each request's headers to the gateway's context, as Apollo Server does with
 * `context: async ({ req }) => ({ headers: req.headers })`.
 * test/interop/gateway-configs.test.ts loads this file.
 */
import { RemoteGraphQLDataSource, type GraphQLDataSourceProcessOptions } from '@apollo/gateway';
import { GraphQLError, Kind, parse, print, visit } from 'graphql';
import { checkedByRules, RULES_MARK, RULES_MARK_HEADER } from 'titlegraph/gateway-rules';

/** The federation security directives: Apollo Router and Hive Gateway enforce them; @apollo/gateway cannot. */
const SECURITY_DIRECTIVES = new Set(['authenticated', 'requiresScopes', 'policy']);

/**
 * titlegraph's subgraph SDL without `@authenticated` and `@requiresScopes`. @apollo/gateway
 * refuses a supergraph that has them ("is for: SECURITY but is unsupported"), since it cannot
 * enforce them; titlegraph enforces each field's scopes itself, so nothing is lost. Compose from
 * this when the supergraph is for @apollo/gateway (TitlegraphDataSource does it when the gateway
 * composes by itself with IntrospectAndCompose).
 */
export function withoutSecurityDirectives(sdl: string): string {
  return print(
    visit(parse(sdl), {
      Directive: (node) => (SECURITY_DIRECTIVES.has(node.name.value) ? null : undefined),
      // `@link(import: [...])` would otherwise still import them.
      StringValue: (node, _key, _parent, _path, ancestors) => {
        const link = ancestors.findLast((a) => 'kind' in a && a.kind === Kind.DIRECTIVE);
        const named = link && 'name' in link && link.name?.value === 'link';
        return named && SECURITY_DIRECTIVES.has(node.value.replace(/^@/, '')) ? null : undefined;
      },
    }),
  );
}

/** What the gateway keeps of each client request: its headers (Node's IncomingHttpHeaders). */
export interface GatewayContext {
  headers?: Record<string, string | string[] | undefined>;
}

/** Headers titlegraph reads from each client request: the caller's key, and tracing. */
const FORWARDED_TO_TITLEGRAPH = ['authorization', 'traceparent', 'tracestate', 'x-request-id'] as const;

/** Where the gateway presents its router key to titlegraph, beside each caller's own Authorization. */
export const ROUTER_KEY_HEADER = 'titlegraph-router-key';

type FetchResponse = Parameters<RemoteGraphQLDataSource['errorFromResponse']>[0];

/**
 * titlegraph's data source. A client's operation carries that client's own key (and its tracing
 * headers), and the router key in ROUTER_KEY_HEADER, which tells titlegraph that a known gateway
 * sent it: titlegraph then refuses a chargeable mutation without the money rules' mark, which
 * this data source adds when the rules (chargeableRulesPlugin) checked the client's document. The
 * gateway's own requests (loading the schema, the health check) carry the router key as their
 * Authorization: it reads the schema and nothing else. Its failures reach the client without
 * titlegraph's internal address: a refusal in titlegraph's own words and code, a lost connection
 * as one.
 */
export class TitlegraphDataSource extends RemoteGraphQLDataSource<GatewayContext & Record<string, unknown>> {
  constructor(
    url: string,
    private readonly routerKey: string,
  ) {
    super({ url });
  }

  override willSendRequest(options: GraphQLDataSourceProcessOptions<GatewayContext & Record<string, unknown>>): void {
    const headers = options.request.http?.headers;
    if (!headers) return;
    // Only a client's operation carries its incoming request (the kind's enum is not exported).
    if (!('incomingRequestContext' in options)) {
      headers.set('authorization', `Bearer ${this.routerKey}`);
      return;
    }
    for (const name of FORWARDED_TO_TITLEGRAPH) {
      const value = options.context.headers?.[name];
      if (typeof value === 'string') headers.set(name, value);
    }
    headers.set(ROUTER_KEY_HEADER, this.routerKey);
    // The mark says the rules saw this very client document; nothing else may put it there.
    if (checkedByRules(options.incomingRequestContext.document)) headers.set(RULES_MARK_HEADER, RULES_MARK);
    else headers.delete(RULES_MARK_HEADER);
  }

  /** The schema as IntrospectAndCompose loads it, made composable for @apollo/gateway (see withoutSecurityDirectives). */
  override didReceiveResponse(
    ...[{ response }]: Parameters<NonNullable<RemoteGraphQLDataSource['didReceiveResponse']>>
  ): ReturnType<NonNullable<RemoteGraphQLDataSource['didReceiveResponse']>> {
    const service = (response.data as { _service?: { sdl?: unknown } } | undefined)?._service;
    if (typeof service?.sdl === 'string') service.sdl = withoutSecurityDirectives(service.sdl);
    return response;
  }

  /**
   * A refusal (401 for a missing or unknown key, 403, 429, 503…) as titlegraph words it, not
   * Apollo's "401: Unauthorized" with titlegraph's internal URL in `extensions.response`.
   */
  override async errorFromResponse(response: FetchResponse): Promise<GraphQLError> {
    const body = await this.parseBody(response).catch(() => undefined);
    const first = (body as { errors?: { message?: unknown; extensions?: Record<string, unknown> }[] } | undefined)?.errors?.[0];
    const fallbackCode = response.status === 401 ? 'UNAUTHENTICATED' : response.status === 403 ? 'FORBIDDEN' : 'SUBGRAPH_ERROR';
    return new GraphQLError(typeof first?.message === 'string' ? first.message : `titlegraph answered ${response.status}.`, {
      extensions: { code: fallbackCode, ...first?.extensions, response: { status: response.status } },
    });
  }

  /** A connection that failed names no address either (node-fetch's message does: "request to http://… failed"). */
  override didEncounterError(error: Error): void {
    if (error instanceof GraphQLError) throw error;
    const reason = (error as { code?: unknown }).code;
    throw new GraphQLError(
      `The connection to titlegraph failed${typeof reason === 'string' ? ` (${reason})` : ''}: send a query again; replay a mutation with the same idempotencyKey.`,
      { extensions: { code: 'SUBGRAPH_UNREACHABLE' } },
    );
  }
}

/** `buildService` for ApolloGateway: titlegraph gets its own data source; other subgraphs get no titlegraph key. */
export function buildService(routerKey: string, titlegraphName = 'titlegraph') {
  return ({ name, url }: { name: string; url?: string }) =>
    name === titlegraphName ? new TitlegraphDataSource(url!, routerKey) : new RemoteGraphQLDataSource({ url });
}
