/**
 * Bad input, in words a person can act on and with a stable code, whether it came inline or as
 * a variable:
 * - a literal that breaks a scalar's rule: `Argument "fas" has invalid value "087": FasNumber must
 *   be 4 to 6 digits.`, with its locations (graphql-js reports the value's place; the words are ours);
 * - every value graphql-js refuses (inline, or a variable: wrong type, missing, an unknown enum
 *   value) is BAD_USER_INPUT;
 * - one HTTP status for both: 200 under application/json, 400 under
 *   application/graphql-response+json, as the GraphQL-over-HTTP spec asks.
 * The value shown is the caller's own; errors are never logged with it (app.ts's masking).
 */
import { topLevelError } from '../graphql/error-codes';
import {
  type ASTNode,
  type DocumentNode,
  type ExecutionResult,
  type GraphQLError,
  Kind,
  print,
  type ValueNode,
  visit,
  BREAK,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { ScalarRuleError } from '../graphql/schema/scalars';

const VALUE_KINDS = new Set<string>([
  Kind.STRING,
  Kind.INT,
  Kind.FLOAT,
  Kind.BOOLEAN,
  Kind.NULL,
  Kind.ENUM,
  Kind.LIST,
  Kind.OBJECT,
  Kind.VARIABLE,
]);

/** The argument (and input fields inside it) a value node sits in, e.g. `input.titleNumber`. */
function argumentPathOf(document: DocumentNode, target: ASTNode): string | undefined {
  let found: string | undefined;
  visit(document, {
    enter(node, _key, parent, _path, ancestors) {
      // The same node by its place in the text: validation may have run on a copy (a cache).
      if (node.kind !== target.kind || node.loc?.start !== target.loc?.start || node.loc?.end !== target.loc?.end) return undefined;
      const names: string[] = [];
      // graphql's visitor lists the parent apart from the other ancestors.
      for (const ancestor of [...ancestors, parent].reverse()) {
        if (!ancestor) continue;
        if (Array.isArray(ancestor) || !('kind' in (ancestor as ASTNode))) continue;
        const a = ancestor as ASTNode;
        if (a.kind === Kind.OBJECT_FIELD) names.unshift(a.name.value);
        if (a.kind === Kind.ARGUMENT) {
          names.unshift(a.name.value);
          break;
        }
      }
      found = names.length ? names.join('.') : undefined;
      return BREAK;
    },
  });
  return found;
}

const BAD_INPUT_HTTP = { status: 400, spec: true };

/** The scalar rule an error came from, through graphql-js's wrappers, if any. */
function scalarRuleOf(error: Error | undefined): string | undefined {
  for (let e: Error | undefined = error; e; e = (e as { originalError?: Error }).originalError ?? undefined) {
    if (e instanceof ScalarRuleError) return e.message;
  }
  return undefined;
}

/** The same error with our words, code and status; a new one, as errors are never written to. */
function asBadInput(error: GraphQLError, message: string): GraphQLError {
  return topLevelError(
    'BAD_USER_INPUT',
    message,
    { ...error.extensions, http: BAD_INPUT_HTTP },
    {
      ...(error.nodes ? { nodes: error.nodes } : {}),
      ...(error.path ? { path: error.path } : {}),
      ...(error.originalError ? { originalError: error.originalError } : {}),
    },
  );
}

/** What an `onExecute` hook hands back: its hooks for the end of that execution. */
type ExecuteHooks = Exclude<Awaited<ReturnType<NonNullable<Plugin['onExecute']>>>, void>;

/** Variable errors in our words; the same hooks for every request. */
const VARIABLE_ERRORS: ExecuteHooks = {
  onExecuteDone({ result, setResult }) {
    if (!result || typeof result !== 'object' || Symbol.asyncIterator in result) return;
    const single = result as ExecutionResult;
    // Variables are coerced before anything runs: their errors have no path, and no data comes.
    if (single.data !== undefined || !single.errors?.length) return;
    const errors = single.errors.map((error) => {
      if (error.path || !error.message.startsWith('Variable "$')) return error;
      const rule = scalarRuleOf(error);
      const message = rule ? `${error.message.slice(0, error.message.indexOf(';'))}: ${rule}` : error.message;
      return asBadInput(error, message);
    });
    if (errors.some((e, i) => e !== single.errors![i])) setResult({ ...single, errors });
  },
};

export function useInputErrorWording(): Plugin {
  return {
    onValidate({ params }) {
      return ({ valid, result, setResult }) => {
        if (valid) return;
        setResult(
          result.map((error) => {
            const node = error.nodes?.[0];
            if (!node || !VALUE_KINDS.has(node.kind)) return error;
            const where = argumentPathOf(params.documentAST, node);
            const rule = error.originalError instanceof ScalarRuleError ? error.originalError.message : undefined;
            const message = rule && where ? `Argument "${where}" has invalid value ${print(node as ValueNode)}: ${rule}` : error.message;
            return asBadInput(error, message);
          }),
        );
      };
    },
    onExecute() {
      return VARIABLE_ERRORS;
    },
  };
}
