/**
 * What one HTTP request is, as its log line, its metrics and its trace tell it: its id, when it
 * arrived, and the operation that ran. One record per request, so the three never disagree (on
 * which operation of a document with several ran, say) and none of them keeps its own copy.
 */
import { randomUUID } from 'node:crypto';
import { type DocumentNode, getOperationAST, type OperationDefinitionNode, type OperationTypeNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';

export interface RequestRecord {
  /** X-Request-Id: the caller's when it is a plain token, else a new UUID. */
  readonly id: string;
  /** `performance.now()` when the request arrived. */
  readonly startedAt: number;
  /** The path it was sent to, without the query string (from the URL the server parsed once). */
  path?: string;
  /** Its scheme, host and port, as download links repeat them (from the same URL). */
  origin?: string;
  /** The `operationName` the request sent, as sent (a request refused before parsing has only this). */
  operationName?: string;
  /** The operation that runs: the one `operationName` names when the document has several (shared by every request of the document). */
  operation?: { readonly type: OperationTypeNode; readonly name?: string };
  /** Set by the edge once the caller's credentials were accepted (an API key or a sign-in token). */
  authenticated?: boolean;
  /** The connection's peer (never a header's word, which anyone can write); absent when served without a socket. */
  address?: string;
}

const records = new WeakMap<Request, RequestRecord>();
const OPERATION_NAME = /^[_A-Za-z][_0-9A-Za-z]{0,99}$/;

/** A GraphQL name of at most 100 characters: what the log and the metrics repeat of a name a caller sent. */
export const isOperationName = (name: string): boolean => OPERATION_NAME.test(name);
const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;

/** The request's record, made the first time any plugin asks (the earliest `onRequest`). */
export function requestRecordOf(request: Request): RequestRecord {
  let record = records.get(request);
  if (!record) {
    const given = request.headers.get('x-request-id');
    record = { id: given && REQUEST_ID.test(given) ? given : randomUUID(), startedAt: performance.now() };
    records.set(request, record);
  }
  return record;
}

export const requestIdOf = (request: Request): string => requestRecordOf(request).id;

/** The request's origin, from the URL the server already parsed (parsing it again cost ~2 µs a request). */
export const originOf = (request: Request): string => requestRecordOf(request).origin ?? new URL(request.url).origin;

type Operation = NonNullable<RequestRecord['operation']>;

/**
 * A memo of what is worked out once per document and operation name, not once per request: Yoga
 * hands back the same parsed document for the same text, so the document object is the key. The
 * operation that runs, its price and the scopes it needs are each kept in one.
 */
export function perOperation<T>(): (document: DocumentNode, operationName: string | null | undefined, workOut: () => T) => T {
  const memo = new WeakMap<DocumentNode, Map<string, T>>();
  return (document, operationName, workOut) => {
    let byName = memo.get(document);
    if (!byName) {
      byName = new Map();
      memo.set(document, byName);
    }
    const key = operationName ?? '';
    if (byName.has(key)) return byName.get(key)!;
    const value = workOut();
    byName.set(key, value);
    return value;
  };
}

const operationOf = perOperation<{ definition: OperationDefinitionNode; operation: Operation } | undefined>();

function resolved(document: DocumentNode, operationName: string | null | undefined) {
  return operationOf(document, operationName, () => {
    const definition = getOperationAST(document, operationName);
    return definition
      ? { definition, operation: { type: definition.operation, ...(definition.name ? { name: definition.name.value } : {}) } }
      : undefined;
  });
}

/**
 * The operation of a document that runs for `operationName`, as execution picks it
 * (`getOperationAST`): the one place the edge, the security rules and the record decide it.
 */
export const operationToRun = (document: DocumentNode, operationName: string | null | undefined): OperationDefinitionNode | undefined =>
  resolved(document, operationName)?.definition;

type ParseDone = { context: unknown; result: unknown };

/** After parsing: the operation that will run. One function for every request, no closure per request. */
function recordOperation({ context, result }: ParseDone): void {
  const { request, params } = context as { request?: Request; params?: { operationName?: string | null } };
  if (!request || !result || result instanceof Error) return;
  const operation = resolved(result as DocumentNode, params?.operationName)?.operation;
  if (operation) requestRecordOf(request).operation = operation;
}

/** Fills each request's record; createApp lists it before the plugins that read the record. */
export function useRequestRecord(): Plugin {
  return {
    onRequest({ request, url, serverContext }) {
      const record = requestRecordOf(request);
      record.path = url.pathname;
      record.origin = url.origin;
      const address = (serverContext as { req?: { socket?: { remoteAddress?: string } } } | undefined)?.req?.socket?.remoteAddress;
      if (address) record.address = address;
    },
    onParams({ request, params }) {
      if (params.operationName) requestRecordOf(request).operationName = params.operationName;
    },
    onParse({ context }) {
      if ((context as { request?: Request }).request) return recordOperation;
    },
  };
}
