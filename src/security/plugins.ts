/**
 * The abuse-limit and hardening plugins of the Yoga server. Every limit is refused before any
 * resolver runs (parse, validate or the start of execution), with a message naming it.
 */
import { topLevelError, type TopLevelErrorCode } from '../graphql/error-codes';
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { useDisableIntrospection } from '@graphql-yoga/plugin-disable-introspection';
import { useRouterKeyScope } from './router-key';
import { useScopes } from './scope-checks';
import { knownOperationTypeRule } from './operation-types';
import {
  type ASTNode,
  BREAK,
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLError,
  type GraphQLSchema,
  getVariableValues,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
  visit,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { operationToRun, perOperation } from '../observability/request-record';
import { costLimitError, fieldsPricedByListArgument, operationCost } from './cost';
import { fieldsOf, fragmentsIn } from '../graphql/selections';
import { entitiesCalls, representationErrors } from './entities';
import type { HardeningOptions } from './settings';
import { chargeableRule } from './gateway-rules';
import {
  CSRF_HEADERS,
  useFederationSdlForRouters,
  INTROSPECTION_MAX_DEPTH,
  useIntrospectionDepthLimit,
  useRefusalWording,
} from './refusals';

const tooLarge = (what: string, size: number, max: number) =>
  topLevelError('PAYLOAD_TOO_LARGE', `${what} is ${size} bytes; the limit is ${max}.`, { http: { status: 413 } });

/** Refuses oversized bodies from their Content-Length before Yoga reads them. */
function useBodySizeLimit(maxBodyBytes: number): Plugin {
  return {
    onRequestParse({ request }) {
      if (request.method !== 'POST') return;
      const length = request.headers.get('content-length');
      if (length === null) {
        throw topLevelError('LENGTH_REQUIRED', 'A POST body needs a Content-Length header.', { http: { status: 411 } });
      }
      if (Number(length) > maxBodyBytes) throw tooLarge('The request body', Number(length), maxBodyBytes);
    },
  };
}

function useDocumentSizeLimit(maxDocumentBytes: number): Plugin {
  return {
    onParams({ params }) {
      // Not a string: left to Yoga, which answers 400 for a malformed request.
      const size = typeof params.query === 'string' ? Buffer.byteLength(params.query, 'utf8') : 0;
      if (size > maxDocumentBytes) throw tooLarge('The GraphQL document', size, maxDocumentBytes);
    },
  };
}

/** True when a variable appears anywhere in the arguments of such a field (fragments included). */
function pricedByVariables(
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  pricedByListArgument: ReadonlySet<string>,
): boolean {
  let found = false;
  const hasVariable = (node: ASTNode) => {
    visit(node, {
      Variable() {
        found = true;
        return BREAK;
      },
    });
  };
  const lookup = fragmentsIn(fragments);
  // One `seen` for the whole walk: each fragment is looked into once, and a cycle never loops.
  const seen = new Set<string>();
  const walk = (set: SelectionSetNode | undefined) => {
    for (const { field } of fieldsOf(set, lookup, seen)) {
      if (found) return;
      if (pricedByListArgument.has(field.name.value)) for (const argument of field.arguments ?? []) hasVariable(argument);
      walk(field.selectionSet);
    }
  };
  walk(operation.selectionSet);
  return found;
}

interface CostPlan {
  operation: OperationDefinitionNode;
  fragments: Record<string, FragmentDefinitionNode>;
  /** When no variable can change them: the representation problems and the cost, worked out once. */
  fixed?: { problems: GraphQLError[]; cost: number };
}

/**
 * Before execution: every `_entities` representation is valid (refused by index otherwise),
 * then the operation's cost is within the limit. Either refusal stops it before any resolver.
 * Both are worked out once per parsed document (Yoga hands back the same document for the same
 * text) unless a variable decides a list's length or an `_entities` representation.
 */
function useCostLimit(maxCost: number, maxEntityTitles: number): Plugin {
  const plans = perOperation<CostPlan | null>();
  const planOf = (schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): CostPlan | null =>
    plans(document, operationName, () => {
      const fragments: Record<string, FragmentDefinitionNode> = {};
      for (const definition of document.definitions) {
        if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
      }
      const operation = operationToRun(document, operationName);
      let plan: CostPlan | null = null;
      if (operation) {
        plan = { operation, fragments };
        if (!pricedByVariables(operation, fragments, fieldsPricedByListArgument(schema))) {
          const problems = entitiesCalls(operation, fragments, {}).flatMap((r) => representationErrors(r, maxEntityTitles));
          plan.fixed = { problems, cost: operationCost(schema, operation, fragments, {}) };
        }
      }
      return plan;
    });
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const plan = planOf(args.schema, args.document, args.operationName);
      if (!plan) return;
      const { operation, fragments } = plan;
      let problems: GraphQLError[];
      let cost: number;
      if (plan.fixed) {
        ({ problems, cost } = plan.fixed);
      } else {
        // Coerced as execution will coerce them, so an operation's default values (`$n: [TitleNumber!]! = [...]`)
        // and a single value given for a list are counted: the raw request variables have neither.
        // Variables that do not coerce fail execution before any resolver runs, with their own error.
        const coerced = getVariableValues(
          args.schema,
          operation.variableDefinitions ?? [],
          (args.variableValues ?? {}) as Record<string, unknown>,
        );
        if (coerced.errors) return;
        problems = entitiesCalls(operation, fragments, coerced.coerced).flatMap((r) => representationErrors(r, maxEntityTitles));
        cost = operationCost(args.schema, operation, fragments, coerced.coerced);
      }
      if (problems.length > 0) {
        setResultAndStopExecution({ errors: problems });
        return;
      }
      if (cost > maxCost) setResultAndStopExecution({ errors: [costLimitError(cost, maxCost)] });
    },
  };
}

/**
 * The money rules the gateways run too (gateway-rules.ts), with the schema's own mark of a field
 * that charges (`extensions: { chargeable: true }`, graphql/schema/chargeable.ts).
 */
const CHARGEABLE_RULE = chargeableRule((name, schema) => schema.getMutationType()?.getFields()[name]?.extensions?.chargeable === true);

/**
 * Our validation rules, in one hook: the money rules of a chargeable mutation (alone in its
 * operation, its payload never deferred), and only the operation types the schema has.
 */
function useOperationRules(): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(CHARGEABLE_RULE);
      addValidationRule(knownOperationTypeRule);
    },
  };
}

/**
 * graphql-armor's refusals read "Syntax Error: …" and carry no code (the depth and alias ones
 * even come back as HTTP 200): each is replaced by a 400 with a stable code and the limit's own
 * words. Validation limits are reported as validation errors; the token limit, which armor
 * enforces inside the parser, is thrown from there.
 */
const refusal = (code: TopLevelErrorCode) => (message: string) =>
  topLevelError(code, message.replace(/^Syntax Error: /, ''), { http: { status: 400 } });
type ArmorContext = { reportError(error: GraphQLError): void } | null;
const reported = (code: TopLevelErrorCode) => ({
  propagateOnRejection: false,
  onReject: [(context: ArmorContext, error: GraphQLError) => context?.reportError(refusal(code)(error.message))],
});
const thrown = (code: TopLevelErrorCode) => ({
  propagateOnRejection: true,
  onReject: [
    (_: unknown, error: GraphQLError) => {
      throw refusal(code)(error.message);
    },
  ],
});

export function useHardening(options: HardeningOptions): Plugin[] {
  const { limits } = options;
  const plugins: Plugin[] = [
    useCSRFPrevention({ requestHeaders: CSRF_HEADERS }),
    useBodySizeLimit(limits.maxBodyBytes),
    useDocumentSizeLimit(limits.maxDocumentBytes),
    maxTokensPlugin({ exposeLimits: true, n: limits.maxTokens, ...thrown('TOKEN_LIMIT_EXCEEDED') }) as Plugin,
    maxDepthPlugin({
      exposeLimits: true,
      n: limits.maxDepth,
      ignoreIntrospection: true,
      flattenFragments: true,
      ...reported('DEPTH_LIMIT_EXCEEDED'),
    }) as Plugin,
    // Every alias counts, `__typename` ones too: armor lets those through by default.
    maxAliasesPlugin({ exposeLimits: true, n: limits.maxAliases, allowList: [], ...reported('ALIAS_LIMIT_EXCEEDED') }) as Plugin,
    maxDirectivesPlugin({ exposeLimits: true, n: limits.maxDirectives, ...reported('DIRECTIVE_LIMIT_EXCEEDED') }) as Plugin,
    useIntrospectionDepthLimit(INTROSPECTION_MAX_DEPTH),
    useOperationRules(),
    useRouterKeyScope(),
    useScopes(),
    useCostLimit(limits.maxCost, limits.maxEntityTitles),
    // Hints are cut from every error here, not only from validation errors (armor's
    // block-field-suggestions leaves those of variable coercion: enum values, input fields).
    useRefusalWording({ production: !options.fieldSuggestions }),
  ];
  if (!options.introspection) plugins.push(useDisableIntrospection(), useFederationSdlForRouters());
  return plugins;
}
