/**
 * The one list of top-level error codes (`errors[].extensions.code`) a caller can get, and the one
 * constructor of such errors. A code outside the list does not compile; the README's table of
 * codes is checked against this list (test/graphql/error-codes.test.ts). The `userErrors` codes
 * of mutations are another list, `USER_ERROR_CODES` in src/services/user-errors.ts.
 */
import { GraphQLError, type GraphQLErrorOptions } from 'graphql';

export const TOP_LEVEL_ERROR_CODES = {
  // The request and its document
  BAD_USER_INPUT: 'an argument, a variable or a representation breaks a rule; nothing was sent to the register',
  GRAPHQL_PARSE_FAILED: 'the document is not GraphQL (Yoga)',
  GRAPHQL_VALIDATION_FAILED:
    'the document does not fit the schema (a subscription included: this API has none), or asks for `_service` with introspection off',
  OPERATION_RESOLUTION_FAILURE: 'no operation to run: operationName missing with several, or not in the document',
  INCREMENTAL_FORMAT_NOT_SUPPORTED: '@defer or @stream asked for in an incremental format we do not send',
  NOT_ACCEPTABLE:
    'the `Accept` header admits no media type the answer could be sent in (with @defer or @stream: no stream type); nothing was run (HTTP 406)',
  CSRF_HEADER_REQUIRED: 'a GET, or a POST whose body is not JSON, without one of the headers that guard against cross-site request forgery',
  LENGTH_REQUIRED: 'a POST body without Content-Length (HTTP 411)',
  PAYLOAD_TOO_LARGE: 'a body or query text above its limit (HTTP 413)',
  // Limits
  TOKEN_LIMIT_EXCEEDED: 'the document has more tokens than allowed',
  DEPTH_LIMIT_EXCEEDED: 'the document, or its introspection, is nested deeper than allowed',
  ALIAS_LIMIT_EXCEEDED: 'the document has more aliases than allowed',
  DIRECTIVE_LIMIT_EXCEEDED: 'the document has more directives than allowed',
  COST_LIMIT_EXCEEDED: 'the operation would cost more register calls than allowed (`cost`, `maxCost`)',
  // The money rules
  TOO_MANY_CHARGEABLE_MUTATIONS: 'more than one chargeable mutation in one operation',
  CHARGEABLE_MUTATION_NOT_ALONE: 'a chargeable mutation beside other root fields',
  CHARGEABLE_PAYLOAD_DEFERRED: 'a chargeable payload inside or around @defer or @stream',
  CHARGEABLE_RULES_MISSING:
    "a chargeable mutation from a known gateway (its router key in `titlegraph-router-key`) without the mark of the gateway's money rules; nothing was sent",
  // Who the caller is
  UNAUTHENTICATED:
    'no credentials, or an unknown API key or a bad sign-in token, or no router key in `titlegraph-router-key` (HTTP 401); two Authorization headers (HTTP 400)',
  IDENTITY_PROVIDER_UNAVAILABLE: "the sign-in provider's keys cannot be fetched to verify a token (HTTP 503)",
  TOO_MANY_BAD_TOKENS:
    'the sender’s address sent more sign-in tokens that failed verification than TOKEN_FAILURES_PER_MINUTE: its new tokens are not checked for `Retry-After` seconds (HTTP 429)',
  FORBIDDEN: 'the caller lacks a scope the field needs (`missingScopes`), or may not see that journal',
  ROUTER_KEY_NOT_A_CLIENT: "a federation router's key, which reads the schema only",
  FAS_NOT_AUTHORISED: "a FAS that is not one of the caller's organisation's charging accounts",
  // Persisted operations
  PERSISTED_QUERY_NOT_FOUND: 'an automatic persisted query hash this service does not know yet: send the query with it',
  PERSISTED_QUERY_INVALID: 'extensions.persistedQuery is not { version: 1, sha256Hash }',
  PERSISTED_QUERY_MISMATCH: 'sha256Hash is not the SHA-256 of the query text',
  PERSISTED_QUERY_ONLY: 'query text sent where only persisted operations are accepted',
  PERSISTED_QUERY_NOT_IN_LIST: 'an operation id not in the list of persisted operations',
  PERSISTED_QUERY_ID_REQUIRED: 'neither an operation id nor a query',
  // The register and this service
  TITLE_STATUS_NOT_SUPPORTED: "the register does not serve this title's status",
  RATE_LIMITED: "the register's or the organisation's quota is reached (`retryAfterSeconds`)",
  REGISTER_UNAVAILABLE: 'the register failed or could not be reached (`retryAfterSeconds`)',
  REGISTER_TIMEOUT: 'the register did not answer in time (`retryAfterSeconds`)',
  REGISTER_AUTH_FAILED: "the register refused this service's credentials",
  REGISTER_CONTRACT_ERROR: "the register's answer did not match its contract",
  REGISTER_ERROR: 'the register refused a call for a reason a caller cannot act on',
  SERVICE_UNAVAILABLE: "this service's database cannot be used; nothing was sent (HTTP 503, `retryAfterSeconds`)",
  SHUTTING_DOWN: 'this replica is shutting down: send the request again',
  INTERNAL_SERVER_ERROR: 'an unexpected error, masked (Yoga): nothing of it is shown',
} as const;

export type TopLevelErrorCode = keyof typeof TOP_LEVEL_ERROR_CODES;

/**
 * A top-level error with its code first, then `extensions` (`http` is Yoga's: the status and
 * headers of the answer); `place` for an error about a place in the document or the result
 * (`nodes`, `path`) or with its cause (`originalError`).
 */
export function topLevelError(
  code: TopLevelErrorCode,
  message: string,
  extensions: Record<string, unknown> = {},
  place: Omit<GraphQLErrorOptions, 'extensions'> = {},
): GraphQLError {
  // The code is the first key, and the one given here even if `extensions` (a rebuilt error's) carries another.
  const { code: _replaced, ...rest } = extensions;
  return new GraphQLError(message, { ...place, extensions: { code, ...rest } });
}
