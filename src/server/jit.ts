/**
 * Execution by graphql-jit: a document that callers send again and again (a front end's own
 * queries) is compiled once into a plain function, which runs in a fraction of the
 * interpreter's CPU (npm run bench; bench/experiments/ab.ts). Written here rather than taken
 * from @envelop/graphql-jit: that plugin compiles every new document on first sight (a caller
 * sending unique documents would make us compile each, ~2 ms apiece), answers a document
 * graphql-jit cannot compile with the compiler's error instead of running it, and coerces
 * variables in graphql-jit's words. Here graphql-js's executor (Yoga's) still runs, unchanged:
 * - a document's first `compileAfter` executions: only a document that keeps coming back is
 *   worth compiling, and a caller must send one that often to make us spend a compile on it;
 * - documents with @defer or @stream: it streams their parts;
 * - documents graphql-jit refuses to compile;
 * - variables that do not coerce, so the caller gets graphql-js's messages, as before.
 * And one correction to graphql-jit itself, for list items that fail (settleListItemFailures).
 */
import { createRequire } from 'node:module';
import {
  BREAK,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type FieldNode,
  getOperationAST,
  GraphQLError,
  type GraphQLSchema,
  getNamedType,
  isScalarType,
  isSpecifiedScalarType,
  type ListValueNode,
  type ObjectValueNode,
  TypeInfo,
  visitWithTypeInfo,
  type OperationDefinitionNode,
  type SelectionSetNode,
  visit,
} from 'graphql';
import { type CompiledQuery, compileQuery, isCompiledQuery } from 'graphql-jit';
import type { Plugin } from 'graphql-yoga';
import { fieldsOf, fragmentsOf } from '../graphql/selections';

/** Marks graphql-jit's runtime as corrected, so that a second load of this module does not wrap it twice. */
const SETTLED = Symbol.for('titlegraph.jit.settledListItemFailures');

/**
 * graphql-jit 0.8.9 (the newest 0.8) misplaces a list item whose promise rejects: its compiled
 * code writes a settled item at its own index but a rejected one with `resultArray.push(null)`,
 * at the end of whatever the array holds at that moment. When the item fails before an earlier
 * one has settled, the list ends up one short (a failing last title: 4 of 5, and a gateway
 * refuses the whole `_entities` batch); when it fails after the last has settled, one long.
 * Upstream's bug; the smallest reproduction, independent of this service:
 *
 *   const schema = buildSchema('type Query { items: [Item] } type Item { n: Int }');
 *   const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
 *   schema.getQueryType().getFields().items.resolve = () => [1, 2, 3].map(async (n) => {
 *     if (n === 3) throw new Error('boom'); // fails at once...
 *     await sleep(20); // ...while 1 and 2 still load
 *     return { n };
 *   });
 *   await compileQuery(schema, parse('{ items { n } }')).query({}, {}, {});
 *   // { data: { items: [{ n: 1 }, { n: 2 }] }, errors: [boom at ["items", 2]] }
 *   // graphql-js: { items: [{ n: 1 }, { n: 2 }, null] } with the same error
 *
 * The correction: a rejected item reaches graphql-jit as an item that resolved to its Error, a
 * value its compiled code already turns into null at the item's own index, with the error
 * graphql-jit would have made (same message, path, original error, and the non-null handling).
 * It goes into graphql-jit's one shared runtime, which every compiled query calls (the CommonJS
 * module that its ESM entry loads too, hence require). test/server/jit.test.ts runs the
 * reproduction above, so an upgrade that changes graphql-jit's runtime is caught there.
 * Returns false when the runtime is not the one this was written for: then nothing compiles.
 */
function settleListItemFailures(): boolean {
  type OnSettled = (value: unknown) => void;
  type HandleListItem = (ctx: unknown, item: unknown, onSuccess: OnSettled, onError: OnSettled) => void;
  interface Runtime {
    isPromise?: (value: unknown) => value is PromiseLike<unknown>;
    handleListItemResult?: HandleListItem & { [SETTLED]?: true };
  }
  const { jitRuntime } = createRequire(import.meta.url)('graphql-jit/dist/runtime') as { jitRuntime?: Runtime };
  const original = jitRuntime?.handleListItemResult;
  const isPromise = jitRuntime?.isPromise;
  if (!jitRuntime || typeof original !== 'function' || typeof isPromise !== 'function') return false;
  if (original[SETTLED]) return true;
  const asError = (reason: unknown) => (reason instanceof Error ? reason : new Error(String(reason)));
  const settled: HandleListItem & { [SETTLED]?: true } = function (this: Runtime, ctx, item, onSuccess, onError) {
    original.call(this, ctx, isPromise(item) ? Promise.resolve(item).then(undefined, asError) : item, onSuccess, onError);
  };
  settled[SETTLED] = true;
  jitRuntime.handleListItemResult = settled;
  return true;
}

interface Compiled {
  query: CompiledQuery;
  operation: OperationDefinitionNode;
}

/** A document's state: how many times it ran interpreted so far, compiled, or not compilable. */
type Compilation = number | 'interpret' | Compiled;

function usesIncrementalDelivery(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Directive(node) {
      if (node.name.value === 'defer' || node.name.value === 'stream') {
        found = true;
        return BREAK;
      }
      return undefined;
    },
  });
  return found;
}

/**
 * A variable inside a literal of a custom scalar (`representations: [{ __typename: "Title",
 * titleNumber: $t }]`, an `_Any`): graphql-jit parses such a literal without the request's
 * variables, so the value arrives without the variable's. graphql-js runs those documents.
 */
function variableInsideScalarLiteral(schema: GraphQLSchema, document: DocumentNode): boolean {
  const typeInfo = new TypeInfo(schema);
  let found = false;
  const enter = (node: ObjectValueNode | ListValueNode) => {
    const type = typeInfo.getInputType();
    const named = type ? getNamedType(type) : undefined;
    if (!isScalarType(named) || isSpecifiedScalarType(named)) return undefined;
    visit(node, {
      Variable() {
        found = true;
        return BREAK;
      },
    });
    return found ? BREAK : false; // false: this literal is checked, skip its inside
  };
  visit(document, visitWithTypeInfo(typeInfo, { ObjectValue: enter, ListValue: enter }));
  return found;
}

/** The field a response path leads to (list indices skipped, aliases followed, fragments entered). */
function fieldAt(operation: OperationDefinitionNode, document: DocumentNode, path: readonly (string | number)[]): FieldNode | undefined {
  const fragments = fragmentsOf(document);
  const find = (set: SelectionSetNode | undefined, key: string): FieldNode | undefined => {
    for (const { field } of fieldsOf(set, fragments)) if ((field.alias ?? field.name).value === key) return field;
    return undefined;
  };
  let field: FieldNode | undefined;
  let set: SelectionSetNode | undefined = operation.selectionSet;
  for (const segment of path) {
    if (typeof segment === 'number') continue;
    field = find(set, segment);
    if (!field) return undefined;
    set = field.selectionSet;
  }
  return field;
}

/**
 * graphql-jit's field errors carry locations but not the AST nodes graphql-js gives them, and
 * whatever rebuilds an error later (masking, Yoga's serialiser) rebuilds its locations from its
 * nodes: each such error is made again here with the field's node, so its locations survive.
 */
function withFieldNodes(result: ExecutionResult, operation: OperationDefinitionNode, document: DocumentNode): ExecutionResult {
  if (!result.errors?.length) return result;
  const errors: GraphQLError[] = result.errors.map((error) => {
    if (error.nodes?.length || !error.path) return error;
    const field = fieldAt(operation, document, error.path);
    if (!field) return error;
    return new GraphQLError(error.message, {
      nodes: [field],
      path: error.path,
      ...(error.originalError ? { originalError: error.originalError } : {}),
      ...(error.extensions ? { extensions: error.extensions } : {}),
    });
  });
  // graphql-js's order (errors before data), so an answer reads the same on both executors.
  const { data, extensions } = result;
  return { errors, ...(data !== undefined ? { data } : {}), ...(extensions ? { extensions } : {}) };
}

export function useJitExecution(
  { compileAfter }: { compileAfter: number },
  /** Told once per document that reached `compileAfter` runs, whichever executor it keeps. */
  onDecided: (outcome: 'compiled' | 'interpreted') => void = () => undefined,
): Plugin {
  // Applied where the compiled executor is built, not on import: importing this module changes
  // nothing of graphql-jit. Not yet reported upstream; test/server/jit.test.ts holds the reproduction.
  const listItemFailuresSettled = settleListItemFailures();
  // Keyed by the parsed document, which Yoga caches per query text: a document evicted from
  // its cache takes its compilation with it.
  const compilations = new WeakMap<DocumentNode, Map<string, Compilation>>();

  function compilationFor(args: ExecutionArgs): Compilation {
    let byOperation = compilations.get(args.document);
    if (!byOperation) {
      byOperation = new Map();
      compilations.set(args.document, byOperation);
    }
    const operation = args.operationName ?? '';
    const known = byOperation.get(operation) ?? 0;
    if (typeof known !== 'number') return known;
    if (known < compileAfter) {
      byOperation.set(operation, known + 1);
      return known + 1;
    }
    let compiled: Compilation = 'interpret';
    if (listItemFailuresSettled && !usesIncrementalDelivery(args.document) && !variableInsideScalarLiteral(args.schema, args.document)) {
      const result = compileQuery(args.schema, args.document, args.operationName ?? undefined);
      if (isCompiledQuery(result)) {
        const operation = getOperationAST(args.document, args.operationName)!;
        compiled = { query: result, operation };
      }
    }
    byOperation.set(operation, compiled);
    onDecided(compiled === 'interpret' ? 'interpreted' : 'compiled');
    return compiled;
  }

  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      const compiled = compilationFor(args);
      if (typeof compiled !== 'object') return;
      setExecuteFn(async (run: ExecutionArgs) => {
        const result = (await compiled.query.query(run.rootValue, run.contextValue, run.variableValues)) as ExecutionResult;
        // No `data` at all: graphql-jit refused the variables before running anything. graphql-js's
        // executor answers instead, in its own words (it refuses them too, and runs nothing either).
        // Checking them with graphql-js first, on every run, cost as much again as graphql-jit's own check.
        if (!('data' in result)) return executeFn(run);
        return withFieldNodes(result, compiled.operation, run.document);
      });
    },
  };
}
