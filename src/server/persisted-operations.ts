/**
 * Persisted operations (allow-list mode for production front ends).
 *
 * `npm run codegen` (client preset, `persistedDocuments: true`) emits a JSON object
 * `{ "sha256:<hex>": "<operation text>" }` and stamps each typed document with the same id
 * (`document.__meta__.hash`). A front end then sends that id instead of the query text:
 *
 * - `{ "documentId": "sha256:<hex>", "variables": … }` (GraphQL over HTTP persisted documents), or
 * - `{ "extensions": { "persistedQuery": { "version": 1, "sha256Hash": "<hex>" } }, "variables": … }`
 *   (the APQ shape most clients know).
 *
 * With `only`, a request carrying query text is refused; without it, listed ids and arbitrary
 * queries are both accepted, and the APQ shape is automatic persisted queries (whose store
 * also knows the listed operations).
 */
import { topLevelError, type TopLevelErrorCode } from '../graphql/error-codes';
import { usePersistedOperations as useYogaPersistedOperations } from '@graphql-yoga/plugin-persisted-operations';
import type { GraphQLParams, Plugin } from 'graphql-yoga';
import { normaliseOperationId, type PersistedOperations } from './settings';

/** `documentId` (GraphQL over HTTP), or `doc_id`, the name Relay's persisted queries send. */
function documentIdOf(params: GraphQLParams): string | null {
  const { documentId, doc_id } = params as GraphQLParams & { documentId?: unknown; doc_id?: unknown };
  const id = documentId ?? doc_id;
  return typeof id === 'string' && id ? normaliseOperationId(id) : null;
}

/** The id a request names: `documentId` (or Relay's `doc_id`), or the APQ extension's `sha256Hash`. */
export function extractOperationId(params: GraphQLParams): string | null {
  const documentId = documentIdOf(params);
  if (documentId) return documentId;
  const persisted = params.extensions?.persistedQuery as { version?: unknown; sha256Hash?: unknown } | undefined;
  if (persisted && typeof persisted === 'object' && typeof persisted.sha256Hash === 'string' && persisted.sha256Hash) {
    return normaliseOperationId(persisted.sha256Hash);
  }
  return null;
}

const refused = (message: string, code: TopLevelErrorCode) => () => topLevelError(code, message, { http: { status: 400 } });

/** The yoga parameters that carry the id besides `query`, `variables`, `operationName`, `extensions`. */
export const PERSISTED_OPERATION_PARAM_NAMES = ['documentId', 'doc_id'];

export function usePersistedOperationList(options: PersistedOperations): Plugin {
  return useYogaPersistedOperations({
    getPersistedOperation: (id) => options.store.get(normaliseOperationId(id)) ?? null,
    // Without `only`, the APQ shape is automatic persisted queries' (automatic-persisted-queries.ts).
    extractPersistedOperationId: options.only ? extractOperationId : documentIdOf,
    allowArbitraryOperations: !options.only,
    customErrors: {
      persistedQueryOnly: refused(
        'Only persisted operations are accepted here (PERSISTED_OPERATIONS_ONLY): send the operation\'s id instead of the query text: "documentId": "sha256:…" from GraphQL Code Generator\'s persisted documents, or Relay\'s "doc_id" from its persisted queries (persistConfig).',
        'PERSISTED_QUERY_ONLY',
      ),
      notFound: refused('This operation id is not in the list of persisted operations of this service.', 'PERSISTED_QUERY_NOT_IN_LIST'),
      keyNotFound: refused(
        'No operation: send "documentId" (or Relay\'s "doc_id": a persisted operation id) or "query".',
        'PERSISTED_QUERY_ID_REQUIRED',
      ),
    },
  });
}
