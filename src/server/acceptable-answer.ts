/**
 * Content negotiation before anything runs. graphql-yoga chooses the media type of an answer
 * only once the operation has run (its result processors, after execution), and answers an
 * `Accept` it cannot serve with an empty 406: a purchase sent that way was charged and its
 * charge never reached the caller. Here the same choice is made first, from the `Accept` header
 * before the body is read, and from the document (does it stream?) just before execution; a
 * request whose answer could not be delivered is refused 406, in our words, and nothing runs.
 *
 * The choice mirrors Yoga 5's (plugins/use-result-processor.js and result-processor/accept.js,
 * which graphql-yoga does not export): the header loses all whitespace and its case; a range
 * whose `charset` is not utf-8 is dropped; `*` matches either half of a type; of the processors
 * SSE, multipart and regular (JSON), tried in that order, the last that matches wins, and a
 * streamed result can only go out as SSE or multipart. Yoga ignores q-values, so it may answer
 * in a type the caller refused with `q=0`: such a request is refused here too, as the caller
 * could not read its answer. An absent or empty `Accept` admits every type, as in Yoga.
 */
import {
  BREAK,
  type DirectiveNode,
  type DocumentNode,
  type ExecutionArgs,
  type GraphQLDirective,
  GraphQLIncludeDirective,
  type GraphQLSchema,
  GraphQLSkipDirective,
  getDirectiveValues,
  getOperationAST,
  getVariableValues,
  Kind,
  type SelectionSetNode,
  visit,
} from 'graphql';
import { type Plugin, processRegularResult } from 'graphql-yoga';
import { fragmentsOf } from '../graphql/selections';
import { topLevelError } from '../graphql/error-codes';

/** Yoga's result processors in the order it tries them; a later match replaces an earlier one. */
const PROCESSORS = [
  { mediaTypes: ['text/event-stream'], streams: true },
  { mediaTypes: ['multipart/mixed'], streams: true },
  { mediaTypes: ['application/graphql-response+json', 'application/json'], streams: false },
] as const;

/** What the answer will be: one result, or a stream of parts (@defer, @stream). */
export type AnswerKind = 'single' | 'streamed';

interface Range {
  type: string;
  /** The `q` parameter, when it is a number; absent, 1. */
  q: number;
}

/** Yoga's reading of the header (getMediaTypesForRequestInOrder), with each range's q kept. */
function rangesOf(accept: string | null): Range[] {
  const ranges: Range[] = [];
  for (const range of (accept || '*/*').replace(/\s/g, '').toLowerCase().split(',')) {
    const [type = '', ...params] = range.split(';');
    if ((params.find((param) => param.includes('charset=')) ?? 'charset=utf-8') !== 'charset=utf-8') continue;
    const q = params.map((param) => /^q=(\d+(?:\.\d*)?)$/.exec(param)?.[1]).find((value) => value !== undefined);
    ranges.push({ type, q: q === undefined ? 1 : Number(q) });
  }
  return ranges;
}

/** Yoga's isMatchingMediaType: `range` may have `*` for either half. */
function matches(mediaType: string, range: string): boolean {
  const [pre, suf] = mediaType.split('/');
  const [rangePre, rangeSuf] = range.split('/');
  return (rangePre === '*' || rangePre === pre) && (rangeSuf === '*' || rangeSuf === suf);
}

/** The media type Yoga will answer `kind` in, or undefined where it answers 406 after running the operation. */
function yogasChoice(ranges: readonly Range[], kind: AnswerKind): string | undefined {
  let chosen: string | undefined;
  for (const processor of PROCESSORS) {
    if (kind === 'streamed' && !processor.streams) continue;
    for (const range of [...ranges].reverse())
      for (const mediaType of processor.mediaTypes) if (matches(mediaType, range.type)) chosen = mediaType;
  }
  return chosen;
}

/** The caller's q for `mediaType`: that of its most specific range (RFC 9110 §12.5.1); 0 when none matches. */
function qualityOf(mediaType: string, ranges: readonly Range[]): number {
  let best = { specificity: 0, q: 0 };
  for (const range of ranges) {
    if (!matches(mediaType, range.type)) continue;
    const specificity = range.type === mediaType ? 3 : range.type === '*/*' ? 1 : 2;
    if (specificity > best.specificity || (specificity === best.specificity && range.q > best.q)) best = { specificity, q: range.q };
  }
  return best.q;
}

const ANSWERED_IN =
  'This service answers in application/graphql-response+json or application/json, and in multipart/mixed or text/event-stream (@defer and @stream only in these two); send one of them, */*, or no Accept header. Nothing was run.';

/** The media type graphql-yoga will send an answer of `kind` in under this `Accept`; undefined: its empty 406, after running. */
export function answerMediaType(accept: string | null, kind: AnswerKind): string | undefined {
  return yogasChoice(rangesOf(accept), kind);
}

/** Why an answer of `kind` cannot go out under this `Accept`, or undefined when it can. */
function acceptProblem(accept: string | null, kind: AnswerKind): string | undefined {
  const ranges = rangesOf(accept);
  const chosen = yogasChoice(ranges, kind);
  const shown = JSON.stringify((accept ?? '').length > 200 ? `${accept?.slice(0, 200)}…` : accept);
  if (chosen && qualityOf(chosen, ranges) > 0) return undefined;
  if (chosen) return `Accept: ${shown} refuses ${chosen} (q=0), the media type this answer would be in. ${ANSWERED_IN}`;
  if (kind === 'streamed')
    return `This document uses @defer or @stream, whose parts come only as multipart/mixed or text/event-stream, and Accept: ${shown} admits neither: add one of them, or remove @defer and @stream. Nothing was run.`;
  const otherCharset = (accept ?? '').replace(/\s/g, '').toLowerCase().includes('charset=');
  return `Accept: ${shown} names no media type this service answers in${otherCharset ? ' (answers are UTF-8 only: a range with another charset counts for none)' : ''}. ${ANSWERED_IN}`;
}

/** Decisions by kind and header: clients send a handful of Accept values, each on every request. */
const decided = new Map<string, string | undefined>();
const DECIDED_MAX = 256;
/** Longer headers are decided each time, so the kept decisions stay small. */
const DECIDED_HEADER_MAX = 256;

function acceptProblemOnce(accept: string | null, kind: AnswerKind): string | undefined {
  if (accept && accept.length > DECIDED_HEADER_MAX) return acceptProblem(accept, kind);
  const key = `${kind} ${accept ?? ''}`;
  if (decided.has(key)) return decided.get(key);
  const problem = acceptProblem(accept, kind);
  if (decided.size >= DECIDED_MAX) decided.clear();
  decided.set(key, problem);
  return problem;
}

function notAcceptable(problem: string) {
  return topLevelError('NOT_ACCEPTABLE', problem, { http: { status: 406 } });
}

/** `@name(if: …)` as the executor will evaluate it with these variables; undefined when absent. */
function directiveIf(directive: GraphQLDirective, node: { directives?: readonly DirectiveNode[] }, variables: Record<string, unknown>) {
  return getDirectiveValues(directive, node, variables)?.if as boolean | undefined;
}

/**
 * True when the operation has a @defer or @stream the executor will act on: not turned off by
 * its `if`, nor inside something @skip or @include leaves out. Whether a part is then sent can
 * still depend on the data (a deferred fragment under a null field is not); the answer's format
 * must not, so such a document needs an Accept that admits a stream.
 */
function mayStream(schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined, raw: unknown): boolean {
  // Yoga's defer-stream plugin adds both directives to the schema; without it nothing streams.
  const defer = schema.getDirective('defer') ?? undefined;
  const stream = schema.getDirective('stream') ?? undefined;
  const operation = getOperationAST(document, operationName);
  if (!operation || (!defer && !stream)) return false;
  const coerced = getVariableValues(schema, operation.variableDefinitions ?? [], (raw ?? {}) as Record<string, unknown>);
  // Variables that do not coerce: the executor refuses them in one result, running nothing.
  if (!coerced.coerced) return false;
  const variables = coerced.coerced;
  const fragments = fragmentsOf(document);
  const included = (node: { directives?: readonly DirectiveNode[] }) =>
    directiveIf(GraphQLSkipDirective, node, variables) !== true && directiveIf(GraphQLIncludeDirective, node, variables) !== false;
  const active = (directive: GraphQLDirective | undefined, node: { directives?: readonly DirectiveNode[] }) =>
    directive !== undefined &&
    node.directives?.some((d) => d.name.value === directive.name) === true &&
    directiveIf(directive, node, variables) !== false;
  const entered = new Set<string>();
  const walk = (set: SelectionSetNode | undefined): boolean => {
    for (const selection of set?.selections ?? []) {
      if (!included(selection)) continue;
      if (selection.kind === Kind.FIELD) {
        if (active(stream, selection) || walk(selection.selectionSet)) return true;
      } else if (active(defer, selection)) return true;
      else if (selection.kind === Kind.INLINE_FRAGMENT) {
        if (walk(selection.selectionSet)) return true;
      } else if (!entered.has(selection.name.value)) {
        entered.add(selection.name.value);
        if (walk(fragments(selection.name.value)?.selectionSet)) return true;
      }
    }
    return false;
  };
  return walk(operation.selectionSet);
}

/** True when `@defer` or `@stream` appears anywhere in the document: most documents need no closer look. */
function namesIncrementalDelivery(document: DocumentNode): boolean {
  let found = false;
  visit(document, {
    Directive(node) {
      if (node.name.value !== 'defer' && node.name.value !== 'stream') return undefined;
      found = true;
      return BREAK;
    },
  });
  return found;
}

export function useAcceptableAnswer(): Plugin {
  // Requests refused from their Accept alone: their refusal goes out as JSON, the one thing
  // said about a 406 that the caller can read whatever it asked for.
  const refused = new WeakSet<Request>();
  // Keyed by the parsed document, which Yoga caches per query text.
  const incremental = new WeakMap<DocumentNode, boolean>();
  const mayHaveParts = (document: DocumentNode) => {
    let known = incremental.get(document);
    if (known === undefined) {
      known = namesIncrementalDelivery(document);
      incremental.set(document, known);
    }
    return known;
  };
  return {
    // Every request that reaches this hook is GraphQL (the other routes answered in onRequest),
    // and its body is not read yet.
    onRequestParse({ request }) {
      const problem = acceptProblemOnce(request.headers.get('accept'), 'single');
      if (!problem) return;
      refused.add(request);
      throw notAcceptable(problem);
    },
    onExecute({ args, setResultAndStopExecution }) {
      const { schema, document, operationName, variableValues } = args as ExecutionArgs;
      const request = (args.contextValue as { request?: Request }).request;
      if (!request || !mayHaveParts(document) || !mayStream(schema, document, operationName, variableValues)) return;
      const problem = acceptProblemOnce(request.headers.get('accept'), 'streamed');
      if (problem) setResultAndStopExecution({ errors: [notAcceptable(problem)] });
    },
    onResultProcess({ request, setResultProcessor }) {
      if (refused.has(request)) setResultProcessor(processRegularResult, 'application/json');
    },
  };
}
