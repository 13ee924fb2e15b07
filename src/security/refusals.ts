/**
 * How refusals read to a caller: each limit with a stable code and its own words, no internals
 * and no hints in production. Also two gaps the stock plugins leave: introspection's own
 * nesting (armor's depth limit skips `__schema`), and federation's `_service { sdl }`, which
 * hands out the whole schema while introspection is off.
 */
import { topLevelError, type TopLevelErrorCode } from '../graphql/error-codes';
import { fieldsOf, fragmentsIn } from '../graphql/selections';
import {
  GraphQLError,
  Kind,
  type ASTVisitor,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { operationToRun } from '../observability/request-record';
import type { Context } from '../graphql/context';

/** Headers that mark a GET as not cross-site (any one of them). */
export const CSRF_HEADERS = ['x-graphql-yoga-csrf', 'apollo-require-preflight', 'x-titlegraph-csrf'];

/**
 * GraphiQL's and the code generators' introspection query nests about 13 deep (`ofType` chains);
 * well-formed tools never need more, while a crafted one can nest thousands deep.
 */
export const INTROSPECTION_MAX_DEPTH = 15;

function depthOf(
  set: SelectionSetNode | undefined,
  fragments: (name: string) => FragmentDefinitionNode | undefined,
  seen: Set<string>,
): number {
  let deepest = 0;
  for (const selection of set?.selections ?? []) {
    if (selection.kind === Kind.FIELD) deepest = Math.max(deepest, 1 + depthOf(selection.selectionSet, fragments, seen));
    else if (selection.kind === Kind.INLINE_FRAGMENT) deepest = Math.max(deepest, depthOf(selection.selectionSet, fragments, seen));
    else if (!seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      deepest = Math.max(deepest, depthOf(fragments(selection.name.value)?.selectionSet, fragments, seen));
      seen.delete(selection.name.value);
    }
  }
  return deepest;
}

export function useIntrospectionDepthLimit(max: number): Plugin {
  const rule = (context: ValidationContext): ASTVisitor => ({
    Field(node: FieldNode) {
      if (node.name.value !== '__schema' && node.name.value !== '__type') return undefined;
      const depth = 1 + depthOf(node.selectionSet, (name) => context.getFragment(name) ?? undefined, new Set());
      if (depth > max) {
        context.reportError(
          topLevelError(
            'DEPTH_LIMIT_EXCEEDED',
            `Introspection depth limit of ${max} exceeded, found ${depth}.`,
            { http: { status: 400 } },
            {
              nodes: [node],
            },
          ),
        );
      }
      return false; // measured whole: no need to visit inside
    },
  });
  return {
    onValidate({ addValidationRule }) {
      addValidationRule(rule);
    },
  };
}

const CSRF_MESSAGE = 'Required CSRF header(s) not present';
/** graphql-js's hints ("Did you mean …?"), in validation and in variable coercion alike. */
const SUGGESTION = /\s*Did you mean [^?]*\?/g;

/**
 * The caller's version of an error: CSRF refusals in our words, and in production no hints
 * and no internals. A new error is built whenever something changes: errors belong to whoever
 * made them (graphql-jit's, for one, do not let their message be written), so none is mutated.
 */
export function reworded(error: GraphQLError, production: boolean): GraphQLError {
  let message = error.message;
  let extensions: Record<string, unknown> = { ...error.extensions };
  if (message === CSRF_MESSAGE) {
    // Yoga refuses a form or text/plain POST as it refuses a GET: a browser sends either cross-site without asking.
    message = `A GET request, or a POST whose body is not JSON (content-type: application/json), needs one of the headers ${CSRF_HEADERS.join(', ')}: this guards against cross-site request forgery.`;
    extensions = { ...extensions, code: 'CSRF_HEADER_REQUIRED' satisfies TopLevelErrorCode };
  }
  if (production) {
    message = message.replace(SUGGESTION, '');
    if ('originalError' in extensions) {
      const { originalError: _internal, ...rest } = extensions;
      extensions = rest;
    }
  }
  const sameExtensions =
    Object.keys(extensions).length === Object.keys(error.extensions ?? {}).length &&
    Object.entries(extensions).every(([key, value]) => error.extensions?.[key] === value);
  if (message === error.message && sameExtensions) return error;
  return new GraphQLError(message, {
    ...(error.nodes ? { nodes: error.nodes } : {}),
    ...(error.source ? { source: error.source } : {}),
    ...(error.positions ? { positions: error.positions } : {}),
    ...(error.path ? { path: error.path } : {}),
    ...(error.originalError ? { originalError: error.originalError } : {}),
    extensions,
  });
}

/** One result in the caller's words: itself when nothing changes (a result without errors, the common case, at once). */
function rewordResult(r: unknown, production: boolean): unknown {
  if (!r || typeof r !== 'object' || !('errors' in r) || !Array.isArray(r.errors) || r.errors.length === 0) return r;
  const given = r.errors as unknown[];
  const errors = given.map((e) => (e instanceof GraphQLError ? reworded(e, production) : e));
  return errors.every((e, i) => e === given[i]) ? r : { ...r, errors };
}

export function useRefusalWording({ production }: { production: boolean }): Plugin {
  return {
    onResultProcess({ result, setResult }) {
      if (Array.isArray(result)) {
        const next = result.map((r) => rewordResult(r, production));
        if (next.some((r, i) => r !== result[i])) setResult(next as typeof result);
      } else {
        const next = rewordResult(result, production);
        if (next !== result) setResult(next as typeof result);
      }
    },
  };
}

/** True when the operation asks for `_service` at its root (through fragments too). */
function asksForService(set: SelectionSetNode | undefined, fragments: Record<string, FragmentDefinitionNode>): boolean {
  for (const { field } of fieldsOf(set, fragmentsIn(fragments))) if (field.name.value === '_service') return true;
  return false;
}

/**
 * With introspection off, `_service { sdl }` (the schema, for a federation router) is answered
 * only for tenants marked `router` in the tenants file; everyone else is refused as for
 * introspection. It runs once the caller is known, before any resolver.
 */
export function useFederationSdlForRouters(): Plugin {
  // Whether an operation asks for `_service` is worked out once per operation, not per request.
  const asks = new WeakMap<OperationDefinitionNode, boolean>();
  const asksOf = (document: DocumentNode, operationName: string | null | undefined): boolean => {
    const operation = operationToRun(document, operationName);
    if (!operation) return false;
    let known = asks.get(operation);
    if (known === undefined) {
      const fragments: Record<string, FragmentDefinitionNode> = {};
      for (const d of document.definitions) if (d.kind === Kind.FRAGMENT_DEFINITION) fragments[d.name.value] = d;
      known = operation.operation === 'query' && asksForService(operation.selectionSet, fragments);
      asks.set(operation, known);
    }
    return known;
  };
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const context = args.contextValue as Partial<Context>;
      if (context.caller?.router) return;
      if (asksOf(args.document as DocumentNode, args.operationName)) {
        setResultAndStopExecution({
          errors: [
            topLevelError(
              'GRAPHQL_VALIDATION_FAILED',
              'GraphQL introspection has been disabled, but the requested query contained the field "_service".',
              { http: { status: 400, spec: true } },
            ),
          ],
        });
      }
    },
  };
}
