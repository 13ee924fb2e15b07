/**
 * The ONE mapping from register errors to what GraphQL callers see. Its mutation columns are made
 * below GraphQL, by userErrorFromRegister (src/services/register-user-errors.ts), because the
 * idempotency service records a refusal as its key's answer; the top-level errors are made here.
 *
 * | register code (HTTP)                 | mutation userError code     | field                     | query (top-level extensions.code) |
 * |--------------------------------------|-----------------------------|---------------------------|-----------------------------------|
 * | INVALID_REQUEST (400)                | INVALID_INPUT               | from the register's field | BAD_USER_INPUT                    |
 * | INVALID_TITLE_NUMBER (400)           | INVALID_INPUT               | input.titleNumber         | BAD_USER_INPUT                    |
 * | TITLE_NOT_FOUND (404)                | TITLE_NOT_FOUND             | input.titleNumber(s)      | (title → null)                    |
 * | TITLE_STATUS_NOT_SUPPORTED (422)     | TITLE_STATUS_NOT_SUPPORTED  | input.titleNumber(s)      | TITLE_STATUS_NOT_SUPPORTED        |
 * | FAS_NOT_AUTHORISED (403)             | FAS_NOT_AUTHORISED          | fas                       | —                                 |
 * | CREDIT_LIMIT_EXCEEDED (402)          | CREDIT_LIMIT_EXCEEDED       | fas                       | —                                 |
 * | CASE_NOT_FOUND (404)                 | CASE_NOT_FOUND              | input.caseId              | —                                 |
 * | SECURITY_NOT_FOUND (404)             | SECURITY_NOT_FOUND          | input.securityId          | —                                 |
 * | DEED_RULE_VIOLATION (422)            | DEED_RULE_VIOLATION         | from the register's field | —                                 |
 * | TOO_MANY_REQUESTS (429)              | RATE_LIMITED                | —                         | RATE_LIMITED (+ retryAfterSeconds)|
 * | may have charged or created, answer  | OUTCOME_UNKNOWN (final for  | —                         | (queries have no effect)          |
 * |   lost (5xx, timeout, reset, cut or  |   the key; idempotency/run) |                           |                                   |
 * |   contract-breaking body)            |                             |                           |                                   |
 * | UNAUTHORISED (401 after one refresh, | top-level REGISTER_AUTH_FAILED ("nothing was sent" when it was the sign-in)      |
 * |   or any 4xx to the sign-in)         |                                                                                 |
 * | 5xx, network, breaker open           | top-level REGISTER_UNAVAILABLE (+ retryAfterSeconds; "nothing was sent" if so)  |
 * | timeout before sending / on a read   | top-level REGISTER_TIMEOUT (the same)                                           |
 * | response not matching the wire schema| top-level REGISTER_CONTRACT_ERROR                                               |
 */
import { topLevelError, type TopLevelErrorCode } from './error-codes';
import type { GraphQLError } from 'graphql';
import type { RegisterError } from '../register/client';
import { ROUTES } from '../register/contract/routes';
import { rateLimitedMessage } from '../services/register-user-errors';

/**
 * A register refusal in the caller's words: its top-level code, its sentence and when to try
 * again. The one answer both edges give: GraphQL as `extensions`, /downloads as a problem.
 */
export interface RegisterRefusal {
  code: TopLevelErrorCode;
  message: string;
  retryAfterSeconds?: number;
}

/** The refusal a register error becomes at the edge; never the upstream URL, token or FAS. */
export function registerRefusal(error: RegisterError): RegisterRefusal {
  // The route name is internal (logs and metrics carry it); callers get the code alone.
  const code = topLevelCode(error);
  if (code === 'SERVICE_UNAVAILABLE') return SERVICE_UNAVAILABLE;
  if (code === 'REGISTER_AUTH_FAILED') return { code, message: authFailedMessage(error) };
  if (code === 'REGISTER_UNAVAILABLE' || code === 'REGISTER_TIMEOUT') {
    const seconds = Math.max(1, Math.ceil(error.retryAfterSeconds ?? REGISTER_RETRY_AFTER_SECONDS));
    return { code, message: unreachableMessage(error, code, seconds), retryAfterSeconds: seconds };
  }
  const message =
    code === 'RATE_LIMITED'
      ? rateLimitedMessage(error)
      : code === 'BAD_USER_INPUT' || code === 'TITLE_STATUS_NOT_SUPPORTED'
        ? (error.detail ?? `The register refused the request (${error.code}).`)
        : code === 'REGISTER_CONTRACT_ERROR'
          ? 'The register answered in a form its contract does not allow, so this service could not read the answer (REGISTER_CONTRACT_ERROR).'
          : `The register refused the request, for a reason its contract does not name (${code}).`;
  return { code, message, ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}) };
}

/**
 * A top-level GraphQL error with a stable code; never the upstream URL, token or FAS.
 * `notCarriedOut`: a call that charges or creates, proven not to have been carried out (nothing
 * sent, or an answer that proves it was not executed). The caller of a purchase is told so in
 * as many words: "the register could not answer" alone would leave them wondering whether they paid.
 */
export function graphQLErrorFromRegister(error: RegisterError, options: { notCarriedOut?: boolean } = {}): GraphQLError {
  const { code, message, retryAfterSeconds } = registerRefusal(error);
  // SERVICE_UNAVAILABLE's own words already say that nothing was sent and the key can be sent again.
  const said = options.notCarriedOut && code !== 'SERVICE_UNAVAILABLE' ? `${message} ${NOT_CARRIED_OUT}` : message;
  return topLevelError(code, said, retryAfterSeconds === undefined ? {} : { retryAfterSeconds });
}

const NOT_CARRIED_OUT = 'This request was not carried out, so nothing was charged or created: send it again with the same idempotencyKey.';

/** Seconds a caller is asked to wait for the register, when neither it nor the breaker said how long. */
const REGISTER_RETRY_AFTER_SECONDS = 2;

/** What happened, whether anything reached the register, and when to try again. */
function unreachableMessage(error: RegisterError, code: string, seconds: number): string {
  const again = `try again in ${seconds} s`;
  if (error.code === 'CIRCUIT_OPEN') {
    // the words follow the whole call: its earlier attempts may have reached the register
    return error.neverSent
      ? `The register is not answering: calls to it are paused after repeated failures, so nothing was sent to it (${code}); ${again}.`
      : `The register is not answering: this request was sent to it and failed, and calls to it are now paused after repeated failures (${code}); ${again}.`;
  }
  if (error.neverSent) {
    const what = code === 'REGISTER_TIMEOUT' ? 'could not be reached in time' : 'could not be reached';
    return `The register ${what}, so nothing was sent to it (${code}); ${again}.`;
  }
  return `The register could not answer (${code}); ${again}.`;
}

/**
 * The register refused this service's own credentials: nothing the caller can change, and the
 * register's words about them (a grant type, a client id) are the operator's, not the caller's.
 */
function authFailedMessage(error: RegisterError): string {
  const what =
    error.route === ROUTES.token.name
      ? "The register refused this service's sign-in for your organisation, so nothing was sent to it"
      : "The register refused this service's access for your organisation, even after signing in again";
  return `${what} (REGISTER_AUTH_FAILED). This is the service's configuration, not your request: its operator needs to check the register's address and the API client's credentials.`;
}

/** Seconds a caller is asked to wait when the service's database cannot be reached. */
const STORE_RETRY_AFTER_SECONDS = 5;

/**
 * The service's own database could not be reached before anything was sent to the register: the
 * caller may send the same request again, with the same idempotency key, and lose nothing.
 */
export function serviceUnavailableError(): GraphQLError {
  const { code, message, retryAfterSeconds } = SERVICE_UNAVAILABLE;
  return topLevelError(code, message, { retryAfterSeconds });
}

const SERVICE_UNAVAILABLE: RegisterRefusal = {
  code: 'SERVICE_UNAVAILABLE',
  message: `This service cannot use its database right now (it is unreachable, or its disk is full or failing), so nothing was sent to the register. Send the same request again (with the same idempotencyKey, if it has one) in ${STORE_RETRY_AFTER_SECONDS} seconds.`,
  retryAfterSeconds: STORE_RETRY_AFTER_SECONDS,
};

function topLevelCode(error: RegisterError): TopLevelErrorCode {
  const byStatus = () => (error.status >= 400 && error.status < 500 ? 'REGISTER_ERROR' : 'REGISTER_UNAVAILABLE');
  switch (error.code) {
    case 'TOO_MANY_REQUESTS':
      return 'RATE_LIMITED';
    case 'REGISTER_TIMEOUT':
      return 'REGISTER_TIMEOUT';
    case 'REGISTER_CONTRACT_ERROR':
      return 'REGISTER_CONTRACT_ERROR';
    case 'UNAUTHORISED':
      return 'REGISTER_AUTH_FAILED';
    case 'INVALID_REQUEST':
    case 'INVALID_TITLE_NUMBER':
      return 'BAD_USER_INPUT';
    case 'TITLE_STATUS_NOT_SUPPORTED':
      return 'TITLE_STATUS_NOT_SUPPORTED';
    case 'TITLE_NOT_FOUND':
    case 'DOCUMENT_NOT_FOUND':
    case 'CASE_NOT_FOUND':
    case 'SECURITY_NOT_FOUND':
    case 'LIST_NOT_FOUND':
    case 'FAS_NOT_AUTHORISED':
    case 'CREDIT_LIMIT_EXCEEDED':
    case 'DEED_RULE_VIOLATION':
    case 'INTERNAL_ERROR':
    case 'REGISTER_UNAVAILABLE':
    case 'CIRCUIT_OPEN':
    case 'REGISTER_ERROR':
      return byStatus();
    case 'SERVICE_UNAVAILABLE':
      return 'SERVICE_UNAVAILABLE';
    default: {
      const unmapped: never = error.code;
      return unmapped;
    }
  }
}
