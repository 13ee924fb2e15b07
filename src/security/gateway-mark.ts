/**
 * A gateway titlegraph knows, and the mark of its money rules. A gateway splits a client operation
 * into subgraph requests, so titlegraph's own one-chargeable rule never sees a purchase's siblings:
 * only the gateway's rules (src/security/gateway-rules.ts) can, and they mark each
 * request of an operation they checked with `titlegraph-rules: chargeable/2`. A gateway that
 * presents its router key in `titlegraph-router-key` (beside the caller's own Authorization, which
 * still names who is calling) is a known one: a chargeable mutation it sends without that mark is
 * refused when it is about to execute, before anything reaches the register, whichever executor
 * (graphql-js or graphql-jit) would run it. A request that only looks like a gateway's is served,
 * and told to the operator (a warning and a metric), since titlegraph cannot tell what checked it.
 */
import { type DocumentNode, type GraphQLSchema, type OperationDefinitionNode, TypeInfo, visit, visitWithTypeInfo } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { topLevelError } from '../graphql/error-codes';
import { callerOf, type Services } from '../graphql/context';
import { fieldsOf, fragmentsOf } from '../graphql/selections';
import { operationToRun, perOperation, requestIdOf } from '../observability/request-record';
import type { GatewaySign } from '../services/events';
import type { Caller } from '../services/callers';
import { RULES_MARK, RULES_MARK_HEADER } from './gateway-rules';

/** Where a gateway presents its router key. */
export const ROUTER_KEY_HEADER = 'titlegraph-router-key';
export { RULES_MARK, RULES_MARK_HEADER } from './gateway-rules';

const gateways = new WeakMap<Request, Caller>();

/** The edge found a valid router key in ROUTER_KEY_HEADER: the request came through that gateway. */
export function rememberGateway(request: Request, router: Caller): void {
  gateways.set(request, router);
}

/** The known gateway this request came through, if it presented a router key. */
export const gatewayOf = (request: Request): Caller | undefined => gateways.get(request);

/** The chargeable fields a document selects anywhere, once per document (Yoga hands back the same parsed document). */
const chargeableByDocument = new WeakMap<DocumentNode, readonly string[]>();

function chargeableFieldsIn(schema: GraphQLSchema, document: DocumentNode): readonly string[] {
  let found = chargeableByDocument.get(document);
  if (found) return found;
  const names: string[] = [];
  const typeInfo = new TypeInfo(schema);
  visit(
    document,
    visitWithTypeInfo(typeInfo, {
      Field(node) {
        if (typeInfo.getFieldDef()?.extensions?.chargeable && !names.includes(node.name.value)) names.push(node.name.value);
      },
    }),
  );
  found = names;
  chargeableByDocument.set(document, found);
  return found;
}

/** Refused at execution: a known gateway sent a chargeable mutation its rules did not mark. */
export const rulesMissingRefusal = (fields: readonly string[]) =>
  topLevelError(
    'CHARGEABLE_RULES_MISSING',
    `${fields.join(', ')} was not run and nothing was sent to the register: this request came from a gateway (it presented a router key in ${ROUTER_KEY_HEADER}) without the mark of titlegraph's gateway money rules (${RULES_MARK_HEADER}: ${RULES_MARK}), so no rule checked that the chargeable mutation stands alone at the root of the client's operation. Install the rules of titlegraph/gateway-rules (src/security/gateway-rules.ts) at the gateway (docs/federation.md: "The money rules belong to the gateway too").`,
    { http: { status: 403, spec: true } },
  );

/** The root field names a federation router sends and clients do not. */
const ROUTER_FIELDS: Record<string, GatewaySign> = { _entities: 'entities', _service: 'service_sdl' };
/** `Name__subgraph__3`: the subgraph operation names Apollo's query planners give a named client operation. */
const SUBGRAPH_OPERATION_NAME = /^[_A-Za-z][_0-9A-Za-z]*__[_0-9A-Za-z]+__\d+$/;
/** Apollo Gateway's RemoteGraphQLDataSource fetches through make-fetch-happen, which names minipass-fetch or itself. */
const APOLLO_GATEWAY_CLIENT = /^(minipass-fetch|make-fetch-happen)\//;
/** The Accept of @graphql-tools/executor-http, Hive Gateway's subgraph executor (with either planner); its User-Agent is Node's plain `node`. */
const HIVE_GATEWAY_ACCEPT = 'application/graphql-response+json, application/json, multipart/mixed';

const rootSignOf = perOperation<GatewaySign | undefined>();

/** What makes this request look like a federation gateway's, if anything. */
function gatewaySign(request: Request, document: DocumentNode, operationName: string | null | undefined): GatewaySign | undefined {
  const sign = rootSignOf(document, operationName, () => {
    const operation: OperationDefinitionNode | undefined = operationToRun(document, operationName);
    if (!operation) return undefined;
    if (operation.name && SUBGRAPH_OPERATION_NAME.test(operation.name.value)) return 'subgraph_operation_name';
    for (const { field } of fieldsOf(operation.selectionSet, fragmentsOf(document))) {
      const routerField = ROUTER_FIELDS[field.name.value];
      if (routerField) return routerField;
    }
    return undefined;
  });
  if (sign) return sign;
  if (APOLLO_GATEWAY_CLIENT.test(request.headers.get('user-agent') ?? '')) return 'apollo_gateway_client';
  if (request.headers.get('accept')?.startsWith(HIVE_GATEWAY_ACCEPT)) return 'hive_gateway_accept';
  return undefined;
}

type ParseDone = { context: unknown; result: unknown };

export function useGatewayMark(services: Pick<Services, 'events'>): Plugin {
  /** Once the document is parsed, so a request that validation then refuses (`_service` in production) is told too. */
  const tell = ({ context, result }: ParseDone) => {
    const { request, params } = context as { request?: Request; params?: { operationName?: string | null } };
    if (!request || !result || result instanceof Error || gatewayOf(request)) return;
    // A router's own requests (composition, health checks) present its key as their Authorization.
    if (callerOf(request)?.router) return;
    const sign = gatewaySign(request, result as DocumentNode, params?.operationName);
    if (sign) services.events.emit('gatewayWithoutRouterKey', { requestId: requestIdOf(request), sign });
  };
  return {
    onParse({ context }) {
      if ((context as { request?: Request }).request) return tell;
    },
    // At execution, whichever executor then runs the document (graphql-js, or graphql-jit's compiled function).
    onExecute({ args, setResultAndStopExecution }) {
      const request = (args.contextValue as { request?: Request }).request;
      if (!request || !gatewayOf(request) || request.headers.get(RULES_MARK_HEADER) === RULES_MARK) return;
      const chargeable = chargeableFieldsIn(args.schema, args.document as DocumentNode);
      if (chargeable.length > 0) setResultAndStopExecution({ errors: [rulesMissingRefusal(chargeable)] });
    },
  };
}
