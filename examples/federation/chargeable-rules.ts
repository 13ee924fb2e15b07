/**
 * titlegraph's two money rules, enforced at the gateway, where the whole client operation is seen.
 * A gateway splits a mutation into one subgraph request per root field (or per run of one
 * subgraph's fields), so titlegraph never sees a purchase's siblings: a sibling that fails nulls
 * `data` and hides a charge, and a deferred payload can lose its charges. titlegraph marks each
 * chargeable mutation field `@chargeable` and composes the marker into the supergraph
 * (`@composeDirective`); these rules read it there and refuse, before any subgraph request:
 * - a chargeable mutation with any other root mutation field, from any subgraph
 *   (CHARGEABLE_MUTATION_NOT_ALONE), or with another chargeable one (TOO_MANY_CHARGEABLE_MUTATIONS);
 * - `@defer` or `@stream` inside a chargeable mutation's selection, or around the field itself
 *   (CHARGEABLE_PAYLOAD_DEFERRED).
 * The same codes and words as titlegraph's own rules (src/security/), which this file does not
 * import, so a gateway can copy it alone. Install:
 * - Hive Gateway: `plugins: () => [useChargeableMutationRules()]` (already in
 *   hive-gateway.config.ts), with either query planner.
 * - Apollo Server with @apollo/gateway: `validationRules: chargeableRulesForApolloGateway(gateway)`,
 *   called before the server starts (it learns the chargeable fields from each supergraph the
 *   gateway loads; the gateway's API schema drops composed directives).
 * test/interop/gateway-chargeable.test.ts runs both, with both Hive planners.
 */
import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';
import {
  type ASTNode,
  type ASTVisitor,
  BREAK,
  type DirectiveNode,
  type DocumentNode,
  type FieldNode,
  GraphQLError,
  Kind,
  type OperationDefinitionNode,
  parse,
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

/** Client documents the rules checked and let through; Apollo's data source asks before marking. */
const checkedDocuments = new WeakSet<DocumentNode>();

/** Whether the rules checked this very client document (Apollo: `options.incomingRequestContext.document`). */
export const checkedByRules = (document: DocumentNode | undefined): boolean => document !== undefined && checkedDocuments.has(document);

/** Whether the root mutation field `name` charges, in the schema the operation is validated against. */
type IsChargeable = (name: string, context: ValidationContext) => boolean;

const INCREMENTAL = new Set(['defer', 'stream']);
const incrementalIn = (directives: readonly DirectiveNode[] | undefined) => directives?.find((d) => INCREMENTAL.has(d.name.value));

/** The root fields an operation selects, through inline fragments and each named fragment once. */
function rootFields(set: SelectionSetNode, context: ValidationContext, seen = new Set<string>()): FieldNode[] {
  return set.selections.flatMap((selection) => {
    if (selection.kind === Kind.FIELD) return [selection];
    if (selection.kind === Kind.INLINE_FRAGMENT) return rootFields(selection.selectionSet, context, seen);
    if (seen.has(selection.name.value)) return [];
    seen.add(selection.name.value);
    const fragment = context.getFragment(selection.name.value);
    return fragment ? rootFields(fragment.selectionSet, context, seen) : [];
  });
}

const nameOf = (field: FieldNode) => field.alias?.value ?? field.name.value;

function aloneRule(isChargeable: IsChargeable): ValidationRule {
  return (context) => ({
    OperationDefinition(operation) {
      if (operation.operation !== 'mutation') return;
      const known = context.getSchema().getMutationType()?.getFields() ?? {};
      const chargeable: string[] = [];
      const others: string[] = [];
      for (const field of rootFields(operation.selectionSet, context)) {
        // Unknown fields (and __typename) are left to GraphQL's own rules.
        if (!known[field.name.value]) continue;
        (isChargeable(field.name.value, context) ? chargeable : others).push(nameOf(field));
      }
      if (chargeable.length > 1) {
        context.reportError(
          new GraphQLError(
            `An operation may contain at most one chargeable mutation; this one has ${chargeable.length} (${chargeable.join(', ')}). Send them as separate requests.`,
            { nodes: operation, extensions: { code: 'TOO_MANY_CHARGEABLE_MUTATIONS' } },
          ),
        );
      } else if (chargeable.length === 1 && others.length > 0) {
        context.reportError(
          new GraphQLError(
            `A chargeable mutation must be the only field of its operation; ${chargeable[0]} is sent with ${others.join(', ')}. Send the mutations as separate requests, so that each answer holds its own outcome and charges.`,
            { nodes: operation, extensions: { code: 'CHARGEABLE_MUTATION_NOT_ALONE' } },
          ),
        );
      }
    },
  });
}

/** The first `@defer` or `@stream` in `node`, following its fragment spreads (each once). */
function incrementalWithin(node: ASTNode, context: ValidationContext, seen: Set<string>): DirectiveNode | undefined {
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
      const fragment = context.getFragment(spread.name.value);
      found = fragment ? incrementalWithin(fragment, context, seen) : undefined;
      return found ? BREAK : undefined;
    },
  });
  return found;
}

const deferredChargeError = (field: string, directive: string, nodes: readonly ASTNode[]) =>
  new GraphQLError(
    `A chargeable mutation's payload is never deferred: ${field} has @${directive} in or around its selection. Remove it, so that the outcome and its charges come in one answer.`,
    { nodes, extensions: { code: 'CHARGEABLE_PAYLOAD_DEFERRED' } },
  );

function notDeferredRule(isChargeable: IsChargeable): ValidationRule {
  return (context) => {
    const check = (operation: OperationDefinitionNode) => {
      const seen = new Set<string>();
      // `around`: the @defer or @stream of a root fragment this selection sits in.
      const walk = (set: SelectionSetNode, around: DirectiveNode | undefined): boolean => {
        for (const selection of set.selections) {
          if (selection.kind === Kind.FIELD) {
            if (!isChargeable(selection.name.value, context)) continue;
            const found = around ?? incrementalWithin(selection, context, new Set());
            if (found) {
              context.reportError(deferredChargeError(nameOf(selection), found.name.value, [found]));
              return true;
            }
            continue;
          }
          const deferred = around ?? incrementalIn(selection.directives);
          let inner: SelectionSetNode | undefined;
          if (selection.kind === Kind.INLINE_FRAGMENT) inner = selection.selectionSet;
          else {
            // Once plain and once deferred: `...Buy ...Buy @defer` defers what the first spread does not.
            const key = `${selection.name.value}${deferred ? ' deferred' : ''}`;
            if (seen.has(key)) continue;
            seen.add(key);
            inner = context.getFragment(selection.name.value)?.selectionSet;
          }
          if (inner && walk(inner, deferred)) return true;
        }
        return false;
      };
      walk(operation.selectionSet, undefined);
    };
    return {
      OperationDefinition(operation) {
        if (operation.operation === 'mutation') check(operation);
      },
    } satisfies ASTVisitor;
  };
}

/** Both rules, for a way of telling chargeable fields. */
export const chargeableRules = (isChargeable: IsChargeable): ValidationRule[] => [aloneRule(isChargeable), notDeferredRule(isChargeable)];

/** In a schema built from the supergraph (Hive Gateway's, either planner), the marker is on the field's AST. */
const markedInSchema: IsChargeable = (name, context) =>
  context
    .getSchema()
    .getMutationType()
    ?.getFields()
    [name]?.astNode?.directives?.some((d) => d.name.value === CHARGEABLE_DIRECTIVE) ?? false;

/** Hive Gateway: both rules, run at validation, before the query planner sends anything. */
export function useChargeableMutationRules({ subgraphName = 'titlegraph' }: { subgraphName?: string } = {}): GatewayPlugin {
  const rules = chargeableRules(markedInSchema);
  // A gateway request's context, once its operation has passed the rules.
  const checked = new WeakSet<object>();
  return {
    onValidate({ addValidationRule, context }) {
      for (const rule of rules) addValidationRule(rule);
      return ({ valid }) => {
        if (valid) checked.add(context);
      };
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

/** What the rules need of an ApolloGateway: each supergraph it loads. */
interface SupergraphSource {
  onSchemaLoadOrUpdate(callback: (update: { coreSupergraphSdl: string }) => void): unknown;
}

/**
 * Apollo Server with @apollo/gateway: `new ApolloServer({ gateway, validationRules:
 * chargeableRulesForApolloGateway(gateway) })`. Until the gateway has loaded a supergraph,
 * every mutation is refused rather than let through unchecked.
 */
export function chargeableRulesForApolloGateway(gateway: SupergraphSource): ValidationRule[] {
  let chargeable: ReadonlySet<string> | undefined;
  gateway.onSchemaLoadOrUpdate(({ coreSupergraphSdl }) => {
    chargeable = chargeableFieldsOf(coreSupergraphSdl);
  });
  const loaded: ValidationRule = (context) => ({
    OperationDefinition(operation) {
      if (operation.operation !== 'mutation' || chargeable) return;
      context.reportError(
        new GraphQLError('The gateway has not loaded its supergraph yet, so it cannot tell which mutations charge. Try again shortly.', {
          nodes: operation,
          extensions: { code: 'CHARGEABLE_RULES_NOT_READY' },
        }),
      );
    },
  });
  // An operation these rules report on is never executed, so marking every document they read is enough.
  const mark: ValidationRule = () => ({
    Document: {
      leave(document) {
        if (chargeable) checkedDocuments.add(document);
      },
    },
  });
  return [loaded, ...chargeableRules((name) => chargeable?.has(name) ?? false), mark];
}
