/**
 * The abuse-limit and hardening plugins of the Yoga server. Every limit is refused before any
 * resolver runs (parse, validate or the start of execution), with a message naming it.
 */
import { maxAliasesPlugin } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthPlugin } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesPlugin } from '@escape.tech/graphql-armor-max-directives';
import { maxTokensPlugin } from '@escape.tech/graphql-armor-max-tokens';
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { useDisableIntrospection } from '@graphql-yoga/plugin-disable-introspection';
import { getVariableValues, GraphQLError, Kind, type FragmentDefinitionNode, type OperationDefinitionNode } from 'graphql';
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import { costLimitError, operationCost } from './cost';
import { entitiesCalls, representationErrors } from './entities';
import type { HardeningOptions } from './limits';
import { oneChargeableMutationRule } from './one-chargeable-mutation';
import {
  CSRF_HEADERS,
  useFederationSdlForRouters,
  INTROSPECTION_MAX_DEPTH,
  useIntrospectionDepthLimit,
  useRefusalWording,
} from './refusals';

const tooLarge = (what: string, size: number, max: number) =>
  createGraphQLError(`${what} is ${size} bytes; the limit is ${max}.`, {
    extensions: { code: 'PAYLOAD_TOO_LARGE', http: { status: 413 } },
  });

/** Refuses oversized bodies from their Content-Length before Yoga reads them. */
function useBodySizeLimit(maxBodyBytes: number): Plugin {
  return {
    onRequestParse({ request }) {
      if (request.method !== 'POST') return;
      const length = request.headers.get('content-length');
      if (length === null) {
        throw createGraphQLError('A POST body needs a Content-Length header.', {
          extensions: { code: 'LENGTH_REQUIRED', http: { status: 411 } },
        });
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

/**
 * Before execution: every `_entities` representation is valid (refused by index otherwise),
 * then the operation's cost is within the limit. Either refusal stops it before any resolver.
 */
function useCostLimit(maxCost: number): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const fragments: Record<string, FragmentDefinitionNode> = {};
      const operations: OperationDefinitionNode[] = [];
      for (const definition of args.document.definitions) {
        if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
        else if (definition.kind === Kind.OPERATION_DEFINITION) operations.push(definition);
      }
      const operation = args.operationName ? operations.find((o) => o.name?.value === args.operationName) : operations[0];
      if (!operation) return;
      // Coerced as execution will coerce them, so an operation's default values (`$n: [TitleNumber!]! = [...]`)
      // and a single value given for a list are counted: the raw request variables have neither.
      // Variables that do not coerce fail execution before any resolver runs, with their own error.
      const coerced = getVariableValues(
        args.schema,
        operation.variableDefinitions ?? [],
        (args.variableValues ?? {}) as Record<string, unknown>,
      );
      if (coerced.errors) return;
      const variables = coerced.coerced;
      const representationProblems = entitiesCalls(operation, fragments, variables).flatMap(representationErrors);
      if (representationProblems.length > 0) {
        setResultAndStopExecution({ errors: representationProblems });
        return;
      }
      const cost = operationCost(operation, fragments, variables);
      if (cost > maxCost) setResultAndStopExecution({ errors: [costLimitError(cost, maxCost)] });
    },
  };
}

function useOneChargeableMutationRule(): Plugin {
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(oneChargeableMutationRule);
    },
  };
}

/**
 * graphql-armor's refusals read "Syntax Error: …" and carry no code (the depth and alias ones
 * even come back as HTTP 200): each is replaced by a 400 with a stable code and the limit's own
 * words. Validation limits are reported as validation errors; the token limit, which armor
 * enforces inside the parser, is thrown from there.
 */
const refusal = (code: string) => (message: string) =>
  new GraphQLError(message.replace(/^Syntax Error: /, ''), { extensions: { code, http: { status: 400 } } });
type ArmorContext = { reportError(error: GraphQLError): void } | null;
const reported = (code: string) => ({
  propagateOnRejection: false,
  onReject: [(context: ArmorContext, error: GraphQLError) => context?.reportError(refusal(code)(error.message))],
});
const thrown = (code: string) => ({
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
    useOneChargeableMutationRule(),
    useCostLimit(limits.maxCost),
    // Hints are cut from every error here, not only from validation errors (armor's
    // block-field-suggestions leaves those of variable coercion: enum values, input fields).
    useRefusalWording({ production: !options.fieldSuggestions }),
  ];
  if (!options.introspection) plugins.push(useDisableIntrospection(), useFederationSdlForRouters());
  return plugins;
}
