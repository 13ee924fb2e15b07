/**
 * titlegraph's money rules, enforced at the gateway, where the whole client operation is seen.
 * A gateway splits a mutation into one subgraph request per root field (or per run of one
 * subgraph's fields), so titlegraph never sees a purchase's siblings: a sibling that fails nulls
 * `data` and hides a charge, and a deferred payload can lose its charges. Apollo's planner also
 * reaches titlegraph's mutation root from any field whose type is the mutation type (a namespace
 * or chaining field of another subgraph), even inside a query. titlegraph marks each chargeable
 * mutation field `@chargeable` and composes the marker into the supergraph
 * (`@composeDirective`); these rules read it there and refuse, before any subgraph request:
 * - a chargeable field anywhere but the root of a mutation operation
 *   (CHARGEABLE_MUTATION_NOT_AT_ROOT), in any operation type, at any depth;
 * - a chargeable mutation with any other root mutation field, from any subgraph
 *   (CHARGEABLE_MUTATION_NOT_ALONE), or with another chargeable one (TOO_MANY_CHARGEABLE_MUTATIONS);
 * - `@defer` or `@stream` inside a chargeable mutation's selection, or around the field itself
 *   (CHARGEABLE_PAYLOAD_DEFERRED);
 * - a chargeable mutation whose answer the gateway could not deliver in one piece, from the
 *   client's `Accept` (CHARGEABLE_ANSWER_NOT_ACCEPTABLE, 406), as the gateway only finds out after
 *   executing;
 * and refuse, loudly (an error log, and at Apollo Server's start an exception):
 * - every operation, when the mutation type is the type of any field (CHARGEABLE_RULES_UNSAFE_SUPERGRAPH);
 * - every mutation, when the supergraph has titlegraph's types but no `@chargeable` field
 *   (CHARGEABLE_RULES_NO_MARKER: composed without `@composeDirective`);
 * - every operation, on Apollo Server, until a supergraph is loaded (CHARGEABLE_RULES_NOT_READY).
 * The verdict on each document is kept, so it costs nothing on repeats, and is enforced where no
 * gateway setting skips it (Hive: at execution, beside validation; Apollo Server: once the
 * operation is resolved, which also keeps these codes rather than GRAPHQL_VALIDATION_FAILED).
 * Requests to titlegraph of operations that passed carry RULES_MARK_HEADER: RULES_MARK, so that
 * titlegraph can refuse a chargeable mutation from a known gateway that did not run these rules.
 * The same rules are titlegraph's own (security/plugins.ts runs `chargeableRule` with the schema's
 * `extensions.chargeable` as the way a field is known to charge): one implementation, the codes
 * and words of each refusal in one place. The package exports this file (`titlegraph/gateway-rules`);
 * it imports nothing of titlegraph's but graphql, so a gateway may also take it alone. Install:
 * - Hive Gateway: `plugins: () => [useChargeableMutationRules()]` (as examples/federation/
 *   hive-gateway.config.ts does), with either query planner.
 * - Apollo Server with @apollo/gateway: `plugins: [chargeableRulesPlugin()]`, and
 *   TitlegraphDataSource (examples/federation/apollo-gateway.ts) adds the mark when `checkedByRules(document)`.
 * test/interop/gateway-chargeable.test.ts and gateway-namespace.test.ts run them through all three.
 */
import type { ApolloServerPlugin } from '@apollo/server';
import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import {
  type ASTNode,
  BREAK,
  type DirectiveNode,
  type DocumentNode,
  type FragmentDefinitionNode,
  GraphQLError,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  getNamedType,
  isAbstractType,
  isInterfaceType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  parse,
  print,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
  visit,
} from 'graphql';

/** The marker titlegraph puts on its chargeable mutation fields, as composition names it in the supergraph. */
export const CHARGEABLE_DIRECTIVE = 'chargeable';

/**
 * The header these rules put on each request to titlegraph of an operation they checked; a
 * request from a known gateway (one presenting its router key) that carries a chargeable mutation
 * without it is refused by titlegraph, which keeps its own copy of both names.
 */
export const RULES_MARK_HEADER = 'titlegraph-rules';
export const RULES_MARK = 'chargeable/2';

/** Types only titlegraph's schema has: a supergraph with one of them is composed with titlegraph. */
const TITLEGRAPH_TYPES = ['PurchaseTitleDetailsPayload', 'ChargeRecord'];

/** Client documents the rules checked and let through; Apollo's data source asks before marking. */
const checkedDocuments = new WeakSet<DocumentNode>();

/** Whether the rules checked this very client document (Apollo: `options.incomingRequestContext.document`). */
export const checkedByRules = (document: DocumentNode | undefined): boolean => document !== undefined && checkedDocuments.has(document);

/** Whether the mutation-type field `name` charges, in `schema`. */
type IsChargeable = (name: string, schema: GraphQLSchema) => boolean;

const INCREMENTAL = new Set(['defer', 'stream']);
const incrementalIn = (directives: readonly DirectiveNode[] | undefined) => directives?.find((d) => INCREMENTAL.has(d.name.value));

/** The first `@defer` or `@stream` in `node`, following its fragment spreads (each once). */
function incrementalWithin(
  node: ASTNode,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  seen: Set<string>,
): DirectiveNode | undefined {
  let found: DirectiveNode | undefined;
  visit(node, {
    Directive(directive) {
      if (!INCREMENTAL.has(directive.name.value)) return;
      found = directive;
      return BREAK;
    },
    FragmentSpread(spread) {
      if (seen.has(spread.name.value)) return;
      seen.add(spread.name.value);
      const fragment = fragments.get(spread.name.value);
      found = fragment ? incrementalWithin(fragment, fragments, seen) : undefined;
      return found ? BREAK : undefined;
    },
  });
  return found;
}

/** A chargeable field an operation selects: where (response path), whether at its root, and any @defer/@stream on its way. */
interface Occurrence {
  path: string;
  atRoot: boolean;
  deferred: DirectiveNode | undefined;
  /** The field and its arguments as written: two selections of one response key are one field only when these agree. */
  field: string;
}

/**
 * Every chargeable field the operation selects, at every depth and through every fragment, and
 * the other root fields of a mutation. A field charges when its parent is the mutation type (or
 * an interface or union the mutation type belongs to) and that type's field is chargeable.
 */
function selectedCharges(
  operation: OperationDefinitionNode,
  schema: GraphQLSchema,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  isChargeable: IsChargeable,
) {
  const mutationType = schema.getMutationType();
  const charges: Occurrence[] = [];
  const otherRootFields: string[] = [];
  const mutationSide = (type: GraphQLNamedType | undefined): type is GraphQLObjectType =>
    !!mutationType && !!type && (type === mutationType || (isAbstractType(type) && schema.isSubType(type, mutationType)));
  const seen = new Set<string>();
  const walk = (
    set: SelectionSetNode,
    parent: GraphQLNamedType | undefined,
    atRoot: boolean,
    path: string,
    around: DirectiveNode | undefined,
  ) => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const name = selection.alias?.value ?? selection.name.value;
        const here = path ? `${path}.${name}` : name;
        const charged = mutationSide(parent) && isChargeable(selection.name.value, schema);
        if (charged)
          charges.push({
            path: here,
            atRoot,
            deferred: around ?? incrementalWithin(selection, fragments, new Set()),
            field: print({ ...selection, alias: undefined, directives: [], selectionSet: undefined }),
          });
        const field = isObjectType(parent) || isInterfaceType(parent) ? parent.getFields()[selection.name.value] : undefined;
        if (!charged && atRoot && operation.operation === 'mutation' && field) otherRootFields.push(name);
        if (field && selection.selectionSet) walk(selection.selectionSet, getNamedType(field.type), false, here, around);
        continue;
      }
      const deferred = around ?? incrementalIn(selection.directives);
      if (selection.kind === Kind.INLINE_FRAGMENT) {
        const type = selection.typeCondition ? schema.getType(selection.typeCondition.name.value) : parent;
        walk(selection.selectionSet, type ?? undefined, atRoot, path, deferred);
        continue;
      }
      // Once per kind of position, not per path (fragments spread in fragments would otherwise
      // multiply): `...Buy ...Buy @defer` defers what the first spread does not, and a fragment
      // spread at the root and deeper is judged in both places.
      const key = `${selection.name.value} ${atRoot} ${deferred ? 'deferred' : ''}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const fragment = fragments.get(selection.name.value);
      if (fragment) walk(fragment.selectionSet, schema.getType(fragment.typeCondition.name.value) ?? undefined, atRoot, path, deferred);
    }
  };
  const root =
    operation.operation === 'mutation'
      ? mutationType
      : operation.operation === 'query'
        ? schema.getQueryType()
        : schema.getSubscriptionType();
  walk(operation.selectionSet, root ?? undefined, true, '', undefined);
  return { charges, otherRootFields };
}

const refusal = (message: string, code: string, nodes?: ASTNode | readonly ASTNode[], status = 400) =>
  new GraphQLError(message, { nodes, extensions: { code, http: { status } } });

/** The refusal of one operation, in titlegraph's words, or undefined when it may run. */
function operationRefusal(
  operation: OperationDefinitionNode,
  schema: GraphQLSchema,
  fragments: ReadonlyMap<string, FragmentDefinitionNode>,
  isChargeable: IsChargeable,
): GraphQLError | undefined {
  const { charges: selected, otherRootFields } = selectedCharges(operation, schema, fragments, isChargeable);
  // One response key at one place is one field, however many selections name it (GraphQL merges
  // them, and runs it once): counted once, deferred when any of its selections is.
  const byPath = new Map<string, Occurrence>();
  for (const c of selected) {
    const key = `${c.path}\u0000${c.field}`;
    const known = byPath.get(key);
    byPath.set(key, known ? { ...known, atRoot: known.atRoot && c.atRoot, deferred: known.deferred ?? c.deferred } : c);
  }
  const charges = [...byPath.values()];
  const misplaced = selected.find((c) => !c.atRoot || operation.operation !== 'mutation');
  if (misplaced) {
    return refusal(
      `A chargeable mutation is sent only as the root field of a mutation operation; ${misplaced.path} is selected ${misplaced.atRoot ? `in a ${operation.operation}` : 'below another field'}. Send it alone, as \`mutation { ${misplaced.path.split('.').pop()} … }\`, so that its answer holds its outcome and charges.`,
      'CHARGEABLE_MUTATION_NOT_AT_ROOT',
      operation,
    );
  }
  if (charges.length > 1) {
    return refusal(
      `An operation may contain at most one chargeable mutation; this one has ${charges.length} (${charges.map((c) => c.path).join(', ')}). Send them as separate requests.`,
      'TOO_MANY_CHARGEABLE_MUTATIONS',
      operation,
    );
  }
  const [charge] = charges;
  if (charge && otherRootFields.length > 0) {
    return refusal(
      `A chargeable mutation must be the only field of its operation; ${charge.path} is sent with ${otherRootFields.join(', ')}. Send the mutations as separate requests, so that each answer holds its own outcome and charges.`,
      'CHARGEABLE_MUTATION_NOT_ALONE',
      operation,
    );
  }
  if (charge?.deferred) {
    return refusal(
      `A chargeable mutation's payload is never deferred: ${charge.path} has @${charge.deferred.name.value} in or around its selection. Remove it, so that the outcome and its charges come in one answer.`,
      'CHARGEABLE_PAYLOAD_DEFERRED',
      charge.deferred,
    );
  }
  return undefined;
}

/** The rules as one validation rule, for a way of telling chargeable fields (e.g. a router's coprocessor with graphql-js). */
export function chargeableRule(isChargeable: IsChargeable): ValidationRule {
  return (context) => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const definition of context.getDocument().definitions)
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    return {
      OperationDefinition(operation) {
        const error = operationRefusal(operation, context.getSchema(), fragments, isChargeable);
        if (error) context.reportError(error);
      },
    };
  };
}

/** @deprecated kept for existing setups: `[chargeableRule(isChargeable)]`. */
export const chargeableRules = (isChargeable: IsChargeable): ValidationRule[] => [chargeableRule(isChargeable)];

/** A document's verdict under one supergraph: its refusal, and whether it selects a chargeable field. */
interface Verdict {
  refusal: GraphQLError | undefined;
  charges: boolean;
}

/** What the rules hold of one supergraph: its refusal of every operation or mutation, and each document's verdict. */
interface Supergraph {
  schema: GraphQLSchema;
  isChargeable: IsChargeable;
  refuseEvery: GraphQLError | undefined;
  refuseMutations: GraphQLError | undefined;
  verdicts: WeakMap<DocumentNode, Verdict>;
}

/** Fields whose type is the mutation type, or an interface or union it belongs to: `Type.field` each. */
export function fieldsReachingMutationType(schema: GraphQLSchema): string[] {
  const mutationType = schema.getMutationType();
  if (!mutationType) return [];
  const found: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__') || !(isObjectType(type) || isInterfaceType(type))) continue;
    for (const field of Object.values(type.getFields())) {
      const named = getNamedType(field.type);
      if (named === mutationType || (isAbstractType(named) && schema.isSubType(named, mutationType)))
        found.push(`${type.name}.${field.name}`);
    }
  }
  return found;
}

function supergraphOf(schema: GraphQLSchema, isChargeable: IsChargeable, hasTitlegraph: boolean): Supergraph {
  const unsafe = fieldsReachingMutationType(schema);
  const mutationType = schema.getMutationType();
  const marked = Object.keys(mutationType?.getFields() ?? {}).filter((name) => isChargeable(name, schema));
  const refuseEvery =
    unsafe.length > 0
      ? refusal(
          `The gateway refuses every operation: in its supergraph the mutation type ${mutationType?.name} is the type of ${unsafe.join(', ')}, through which a chargeable mutation would run outside the root of a mutation operation, charged while its answer is lost. Remove those fields from the supergraph (titlegraph's docs/federation.md).`,
          'CHARGEABLE_RULES_UNSAFE_SUPERGRAPH',
          undefined,
          503,
        )
      : undefined;
  const refuseMutations =
    hasTitlegraph && marked.length === 0
      ? refusal(
          `The gateway refuses every mutation: its supergraph has titlegraph's types but no field marked @${CHARGEABLE_DIRECTIVE}, so it cannot tell which mutations charge. Compose titlegraph's SDL as it is served, with its @composeDirective(name: "@${CHARGEABLE_DIRECTIVE}") (titlegraph's docs/federation.md).`,
          'CHARGEABLE_RULES_NO_MARKER',
          undefined,
          503,
        )
      : undefined;
  return { schema, isChargeable, refuseEvery, refuseMutations, verdicts: new WeakMap() };
}

/** Checked once per document and supergraph; a repeat reads the kept verdict. */
function verdictOf(supergraph: Supergraph, document: DocumentNode): Verdict {
  let verdict = supergraph.verdicts.get(document);
  if (verdict) return verdict;
  const operations = document.definitions.filter((d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION);
  const mutates = operations.some((o) => o.operation === 'mutation');
  if (supergraph.refuseEvery) verdict = { refusal: supergraph.refuseEvery, charges: false };
  else if (mutates && supergraph.refuseMutations) verdict = { refusal: supergraph.refuseMutations, charges: false };
  else {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const definition of document.definitions)
      if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
    let refused: GraphQLError | undefined;
    let charges = false;
    for (const operation of operations) {
      refused ??= operationRefusal(operation, supergraph.schema, fragments, supergraph.isChargeable);
      charges ||= selectedCharges(operation, supergraph.schema, fragments, supergraph.isChargeable).charges.length > 0;
    }
    verdict = { refusal: refused, charges };
  }
  supergraph.verdicts.set(document, verdict);
  return verdict;
}

/** One range of an Accept header: type, subtype, parameters (names lower-case) and q. */
interface MediaRange {
  type: string;
  subtype: string;
  params: Record<string, string>;
  q: number;
}

function mediaRanges(accept: string): MediaRange[] {
  return accept.split(',').flatMap((part) => {
    const [essence = '', ...rest] = part.split(';').map((p) => p.trim());
    const [type, subtype] = essence.toLowerCase().split('/');
    if (!type || !subtype) return [];
    const params: Record<string, string> = {};
    let q = 1;
    for (const param of rest) {
      const [name = '', value = ''] = param.split('=').map((p) => p.trim());
      if (name.toLowerCase() === 'q') {
        q = Number.parseFloat(value);
        break;
      }
      params[name.toLowerCase()] = value.replace(/^"|"$/g, '').toLowerCase();
    }
    return [{ type, subtype, params, q: Number.isNaN(q) ? 0 : q }];
  });
}

/**
 * Whether `accept` lets through one of `offered` (e.g. `application/json; charset=utf-8`) as
 * RFC 9110 and Apollo Server's negotiation read it: the most specific matching range decides, and
 * q=0 refuses. An absent header accepts anything.
 */
export function acceptsOneOf(accept: string | null | undefined, offered: readonly string[]): boolean {
  if (!accept) return true;
  const ranges = mediaRanges(accept);
  return offered.some((candidate) => {
    const [offer] = mediaRanges(candidate);
    if (!offer) return false;
    let best: { specificity: number; q: number } | undefined;
    for (const range of ranges) {
      let specificity = 0;
      if (range.type === offer.type) specificity += 4;
      else if (range.type !== '*') continue;
      if (range.subtype === offer.subtype) specificity += 2;
      else if (range.subtype !== '*') continue;
      const names = Object.keys(range.params);
      if (names.some((n) => range.params[n] !== '*' && range.params[n] !== (offer.params[n] ?? ''))) continue;
      if (names.length > 0) specificity += 1;
      if (!best || specificity > best.specificity || (specificity === best.specificity && range.q > best.q))
        best = { specificity, q: range.q };
    }
    return (best?.q ?? 0) > 0;
  });
}

/**
 * Whether Yoga (Hive Gateway) answers a single result to `accept` at all: it ignores q, skips a
 * range naming a charset other than utf-8, and answers JSON, a one-event stream or a one-part
 * multipart body; otherwise 406, after executing.
 */
export function yogaDelivers(accept: string | null | undefined): boolean {
  const offered = ['text/event-stream', 'multipart/mixed', 'application/graphql-response+json', 'application/json'];
  return (accept || '*/*')
    .replace(/\s/g, '')
    .toLowerCase()
    .split(',')
    .some((range) => {
      const [essence = '', ...params] = range.split(';');
      const charset = params.find((p) => p.includes('charset=')) ?? 'charset=utf-8';
      if (charset !== 'charset=utf-8') return false;
      const [type, subtype] = essence.split('/');
      return offered.some((o) => {
        const [oType, oSubtype] = o.split('/');
        return (type === '*' || type === oType) && (subtype === '*' || subtype === oSubtype);
      });
    });
}

/** What Apollo Server answers a single result in; anything else is 406, after executing. */
const APOLLO_SINGLE_RESULT = [
  'application/json; charset=utf-8',
  'application/graphql-response+json; charset=utf-8',
  'application/json; callbackSpec=1.0; charset=utf-8',
];

const notAcceptable = (accept: string) =>
  refusal(
    `A chargeable mutation is answered only where its whole answer can be delivered; this request's Accept (${accept}) names no type this gateway answers a single result in. Send Accept: application/json or application/graphql-response+json.`,
    'CHARGEABLE_ANSWER_NOT_ACCEPTABLE',
    undefined,
    406,
  );

/** In a schema built from the supergraph (Hive Gateway's, either planner), the marker is on the field's AST. */
const markedInSchema: IsChargeable = (name, schema) =>
  schema
    .getMutationType()
    ?.getFields()
    [name]?.astNode?.directives?.some((d) => d.name.value === CHARGEABLE_DIRECTIVE) ?? false;

export interface ChargeableRulesOptions {
  /** titlegraph's subgraph name in the supergraph. */
  subgraphName?: string;
  /** Where the rules say why they refuse a supergraph; console.error by default. */
  logError?: (message: string) => void;
}

/** Hive Gateway: the rules at validation and again at execution, before the query planner sends anything. */
export function useChargeableMutationRules({
  subgraphName = 'titlegraph',
  logError = console.error,
}: ChargeableRulesOptions = {}): GatewayPlugin {
  const supergraphs = new WeakMap<GraphQLSchema, Supergraph>();
  const supergraphFor = (schema: GraphQLSchema) => {
    let supergraph = supergraphs.get(schema);
    if (!supergraph) {
      supergraph = supergraphOf(
        schema,
        markedInSchema,
        TITLEGRAPH_TYPES.some((t) => schema.getType(t)),
      );
      supergraphs.set(schema, supergraph);
      const refused = supergraph.refuseEvery ?? supergraph.refuseMutations;
      if (refused) logError(refused.message);
    }
    return supergraph;
  };
  // A gateway request's context, once its operation has passed the rules at execution.
  const checked = new WeakSet<object>();
  type Args = { schema: GraphQLSchema; document: DocumentNode; contextValue: unknown };
  const refusalAtExecution = ({ schema, document, contextValue }: Args) => {
    const verdict = verdictOf(supergraphFor(schema), document);
    if (verdict.refusal) return verdict.refusal;
    const accept = (contextValue as { request?: Request } | undefined)?.request?.headers.get('accept');
    if (verdict.charges && !yogaDelivers(accept)) return notAcceptable(accept ?? '');
    if (contextValue && typeof contextValue === 'object') checked.add(contextValue);
    return undefined;
  };
  return {
    onSchemaChange({ schema }) {
      supergraphFor(schema);
    },
    onValidate({ addValidationRule, params }) {
      const verdict = verdictOf(supergraphFor(params.schema), params.documentAST);
      if (verdict.refusal) {
        const error = verdict.refusal;
        addValidationRule((context: ValidationContext) => ({
          Document() {
            context.reportError(error);
          },
        }));
      }
    },
    // Validation can be skipped (persistedDocuments' skipDocumentValidation); execution cannot.
    onExecute({ args, setResultAndStopExecution }) {
      const refused = refusalAtExecution(args);
      if (refused) setResultAndStopExecution({ errors: [refused] });
    },
    onSubscribe({ args, setResultAndStopExecution }) {
      const refused = refusalAtExecution(args);
      if (refused) setResultAndStopExecution({ errors: [refused] });
    },
    onSubgraphExecute({ subgraphName: name, executionRequest }) {
      if (name !== subgraphName || !executionRequest.context || !checked.has(executionRequest.context)) return;
      // The HTTP transport sends `extensions.headers` as request headers, not in the body.
      const extensions = executionRequest.extensions ?? {};
      extensions.headers = { ...extensions.headers, [RULES_MARK_HEADER]: RULES_MARK };
      executionRequest.extensions = extensions;
    },
  };
}

/** The root mutation fields marked `@chargeable` in a supergraph's SDL. */
export function chargeableFieldsOf(supergraphSdl: string): Set<string> {
  const document = parse(supergraphSdl);
  let mutationType = 'Mutation';
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.SCHEMA_DEFINITION) continue;
    const root = definition.operationTypes.find((t) => t.operation === 'mutation');
    if (root) mutationType = root.type.name.value;
  }
  const chargeable = new Set<string>();
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OBJECT_TYPE_DEFINITION && definition.kind !== Kind.OBJECT_TYPE_EXTENSION) continue;
    if (definition.name.value !== mutationType) continue;
    for (const field of definition.fields ?? [])
      if (field.directives?.some((d) => d.name.value === CHARGEABLE_DIRECTIVE)) chargeable.add(field.name.value);
  }
  return chargeable;
}

/** Whether a supergraph's SDL composes a subgraph named `name` (its `join__Graph` value). */
const composesSubgraph = (supergraphSdl: string, name: string) =>
  new RegExp(`@join__graph\\(name:\\s*"${name.replace(/[^\w-]/g, '')}"`).test(supergraphSdl);

/**
 * Apollo Server with @apollo/gateway: `new ApolloServer({ gateway, plugins: [chargeableRulesPlugin()] })`.
 * It reads each supergraph the gateway loads (the API schema drops composed directives, so the
 * chargeable fields come from the supergraph's SDL); it refuses to start on an unsafe supergraph
 * or one without the marker, and refuses every operation (or mutation) after such an update.
 * Refusals come with their own codes, not GRAPHQL_VALIDATION_FAILED.
 */
export function chargeableRulesPlugin({
  subgraphName = 'titlegraph',
  logError = console.error,
}: ChargeableRulesOptions = {}): ApolloServerPlugin {
  let supergraph: Supergraph | undefined;
  return {
    async serverWillStart() {
      return {
        schemaDidLoadOrUpdate({ apiSchema, coreSupergraphSdl }) {
          const chargeable = coreSupergraphSdl ? chargeableFieldsOf(coreSupergraphSdl) : new Set<string>();
          const hasTitlegraph =
            (!!coreSupergraphSdl && composesSubgraph(coreSupergraphSdl, subgraphName)) ||
            TITLEGRAPH_TYPES.some((t) => apiSchema.getType(t));
          supergraph = supergraphOf(apiSchema, (name) => chargeable.has(name), hasTitlegraph);
          const refused = supergraph.refuseEvery ?? supergraph.refuseMutations;
          if (refused) {
            logError(refused.message);
            // At start this stops the server; on a later update the gateway logs it, and the rules refuse.
            throw refused;
          }
        },
      };
    },
    async requestDidStart() {
      return {
        async didResolveOperation({ document, request }) {
          if (!supergraph) {
            throw refusal(
              'The gateway has not loaded its supergraph yet, so it cannot tell which mutations charge. Try again shortly.',
              'CHARGEABLE_RULES_NOT_READY',
              undefined,
              503,
            );
          }
          const verdict = verdictOf(supergraph, document);
          if (verdict.refusal) throw verdict.refusal;
          const accept = request.http?.headers.get('accept');
          if (verdict.charges && !acceptsOneOf(accept, APOLLO_SINGLE_RESULT)) throw notAcceptable(accept ?? '');
          checkedDocuments.add(document);
        },
      };
    },
  };
}
