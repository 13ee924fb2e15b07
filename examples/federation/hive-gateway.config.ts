/**
 * Hive Gateway in front of titlegraph: the settings a platform team needs, as one object. With
 * the Hive Gateway CLI, `export const gatewayConfig = defineConfig({ ...titlegraphGatewayConfig })`
 * in `gateway.config.ts`; in code, spread it into `createGatewayRuntime({ supergraph, ... })`.
 * Set TITLEGRAPH_ROUTER_KEY in the gateway's environment to the router key titlegraph knows (or
 * spread `titlegraphGatewayConfigWith(key)` instead): titlegraph then refuses a purchase that the
 * money rules did not check, instead of charging it.
 * test/interop/demand-control.test.ts and test/interop/gateway-configs.test.ts load this file.
 */
import type { GatewayConfigBase } from '@graphql-hive/gateway-runtime';
import { GraphQLError } from 'graphql';
import { maskError } from 'graphql-yoga';
import { useChargeableMutationRules } from 'titlegraph/gateway-rules';

/** The subgraph name titlegraph has in the supergraph (supergraph.yaml, or the composition call). */
export const TITLEGRAPH = 'titlegraph';

/** Headers titlegraph reads from each client request: the caller's key, and tracing. */
const FORWARDED_TO_TITLEGRAPH = ['authorization', 'traceparent', 'tracestate', 'x-request-id'] as const;

/** Where the gateway presents its router key to titlegraph, beside each caller's own Authorization. */
export const ROUTER_KEY_HEADER = 'titlegraph-router-key';

/**
 * The config, presenting `routerKey` (a tenants-file entry with `router: true`) to titlegraph on
 * every subgraph request: titlegraph then knows the gateway, and refuses a chargeable mutation its
 * money rules did not mark (CHARGEABLE_RULES_MISSING) instead of charging one they never saw.
 * Without a router key titlegraph cannot tell, and only warns (README, Federation).
 */
export const titlegraphGatewayConfigWith = (routerKey: string | undefined) =>
  ({
    propagateHeaders: {
      // The caller's titlegraph key goes to titlegraph and to no other subgraph. Tracing headers
      // go along, so a trace and a request id cross the gateway. The router key names the
      // gateway only: the caller is still the one their Authorization names.
      fromClientToSubgraphs: ({ request, subgraphName }) => {
        if (subgraphName !== TITLEGRAPH) return {};
        const forwarded: Record<string, string | null> = Object.fromEntries(
          FORWARDED_TO_TITLEGRAPH.map((name) => [name, request.headers.get(name)]),
        );
        return routerKey ? { ...forwarded, [ROUTER_KEY_HEADER]: routerKey } : forwarded;
      },
    },
    // The operation-wide cost limit is the router's to enforce: each subgraph sees only its own
    // share. titlegraph declares its register calls with @cost and @listSize; typeCost 0 and
    // operationTypeCost 0 make the router count exactly those, so its estimate is titlegraph's
    // register-call figure for the same fields (titlegraph adds 1 per field on top; its own limit
    // is COST_LIMIT, 5000 by default).
    demandControl: {
      maxCost: 5000,
      typeCost: () => 0,
      operationTypeCost: () => 0,
    },
    // Hive Gateway's own upstream errors (a timeout, a refused connection) carry the subgraph
    // request in `extensions.request`: titlegraph's internal URL and the body, FAS numbers
    // included. The client keeps the message and the code; the rest stays in the gateway's log.
    // Other errors are masked as Yoga masks them.
    maskedErrors: {
      maskError(error: unknown, message: string, isDev?: boolean) {
        if (error instanceof GraphQLError && error.extensions?.request) {
          const { code } = error.extensions;
          return new GraphQLError(error.message, { path: error.path ?? undefined, extensions: code ? { code } : {} });
        }
        return maskError(error, message, isDev);
      },
    },
    // A register call may take up to 30 s (its deadline) before titlegraph answers: the gateway
    // waits longer, so titlegraph's own answer (OUTCOME_UNKNOWN, with what was charged) reaches the
    // client rather than the gateway's timeout, which would hide it.
    upstreamTimeout: 45_000,
    // @defer and @stream pass through to titlegraph (which answers them incrementally).
    deferStream: true,
    // The gateway sends each root mutation field as its own subgraph request, so titlegraph never
    // sees a purchase's siblings: these rules see the whole operation and refuse a chargeable
    // mutation with any other root mutation field, or under @defer/@stream, before anything is
    // sent. Keep them when adding plugins of your own.
    plugins: () => [useChargeableMutationRules()],
  }) satisfies Partial<GatewayConfigBase<Record<string, unknown>>>;

/** The config with the router key from TITLEGRAPH_ROUTER_KEY (the embedded start's is dev-router-key). */
export const titlegraphGatewayConfig = titlegraphGatewayConfigWith(process.env.TITLEGRAPH_ROUTER_KEY);
