/**
 * What one attempt's outcome means, as pure functions: the failure kind `shouldRetry` decides
 * on, the error the caller may get, what the circuit breaker is told, and the event's outcome.
 * `exchange()` only gathers the facts (status, error body, whether a byte was written) and acts
 * on the verdict, so every row of this table can be tested without a socket.
 */
import { ErrorCode } from '../contract/wire';
import { CLIENT_ERROR_CODES, type RegisterErrorCode, type RegisterErrorInit } from './errors';
import type { RegisterCallEvent } from './http';
import type { FailureKind } from './retry';

/**
 * - `success`: the register answered as a healthy service does (2xx, 4xx, 429, a contract error);
 * - `failure`: it failed or went silent (5xx, 408, reset, timeout, refused connection);
 * - `release`: the attempt says nothing of the register (a caller's abort, our own pool wait).
 */
export type BreakerVerdict = 'success' | 'failure' | 'release';

export interface AttemptFailure {
  kind: FailureKind;
  breaker: BreakerVerdict;
  outcome: RegisterCallEvent['outcome'];
  error: Omit<RegisterErrorInit, 'route'>;
  /** From Retry-After, when the register gave one. */
  retryAfterMs?: number;
}

/** A non-success HTTP answer, with its error body (when it was a readable `{code, message}`). */
export interface HttpAnswer {
  status: number;
  /** The register's code from the error body. */
  code?: string;
  /** The register's message, already redacted. */
  detail?: string;
  field?: string;
  retryAfterSeconds?: number;
  /**
   * The attempt carried a bearer token: a 401 means that token was refused, and one refresh may
   * follow. Without one it was the sign-in itself (HTTP Basic client credentials, the token route).
   */
  bearer: boolean;
}

const KNOWN_REGISTER_CODES: ReadonlySet<string> = new Set(ErrorCode.options);

/** The register's own code when it is one the contract names; otherwise (none, or unknown) a code of ours that says so. */
function registerCode(code: string | undefined): RegisterErrorCode {
  return code !== undefined && KNOWN_REGISTER_CODES.has(code) ? (code as ErrorCode) : CLIENT_ERROR_CODES.unrecognised;
}

export function classifyHttpAnswer(answer: HttpAnswer): AttemptFailure {
  const { status, detail, retryAfterSeconds } = answer;
  const retryAfter = retryAfterSeconds !== undefined ? { retryAfterSeconds } : {};
  const retryAfterMs = retryAfterSeconds !== undefined ? { retryAfterMs: retryAfterSeconds * 1000 } : {};
  const withDetail = detail !== undefined ? { detail } : {};
  if (status === 401 && answer.bearer) {
    return {
      kind: 'unauthorised',
      breaker: 'success',
      outcome: 'http_error',
      error: { status, code: CLIENT_ERROR_CODES.unauthorised, detail: 'access token rejected' },
    };
  }
  if (status === 429) {
    return {
      kind: 'rate_limited',
      breaker: 'success',
      outcome: 'http_error',
      error: { status, code: CLIENT_ERROR_CODES.tooManyRequests, ...withDetail, ...retryAfter },
      ...retryAfterMs,
    };
  }
  if (status >= 400 && status < 500 && status !== 408) {
    // A sign-in the register refuses (a 401, or any other 4xx) is this service's credentials or
    // configuration at fault, never the caller's input: its INVALID_REQUEST must not become a
    // caller's BAD_USER_INPUT. (A 401 to a bearer token was answered above.)
    const code = answer.bearer ? registerCode(answer.code) : CLIENT_ERROR_CODES.unauthorised;
    const field = answer.field !== undefined ? { field: answer.field } : {};
    return { kind: 'rejected', breaker: 'success', outcome: 'http_error', error: { status, code, ...withDetail, ...field, ...retryAfter } };
  }
  // 5xx, 408, or a status the register never gives: it may have acted on the request.
  return {
    kind: 'server_error',
    breaker: 'failure',
    outcome: 'http_error',
    error: { status, code: CLIENT_ERROR_CODES.unavailable, ...withDetail, ...retryAfter },
    ...retryAfterMs,
  };
}

/** A 2xx whose body breaks the wire contract: the register did answer, so the breaker hears success. */
export function classifyContractBreach(status: number, detail: string | undefined): AttemptFailure {
  return {
    kind: 'contract',
    breaker: 'success',
    outcome: 'contract',
    error: { status, code: CLIENT_ERROR_CODES.contract, ...(detail !== undefined ? { detail } : {}) },
  };
}

const TIMEOUT_CODES: ReadonlySet<string> = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

export interface ThrownFacts {
  /** A byte of the request was written (undici handed it a connection). */
  sent: boolean;
  /** The status, when the headers had arrived; 0 before. */
  status: number;
  /** The call's own deadline ran out. */
  deadlinePassed: boolean;
  /** The low-level error's code (undici's UND_ERR_…, or a socket's). */
  errorCode?: string;
  cause?: Error;
}

/** The request failed without an HTTP answer to classify: nothing written, or written and then lost. */
export function classifyThrown(facts: ThrownFacts): AttemptFailure {
  const { sent, status, deadlinePassed } = facts;
  const timedOut = deadlinePassed || TIMEOUT_CODES.has(facts.errorCode ?? '');
  const cause = facts.cause ? { cause: facts.cause } : {};
  if (!sent) {
    return {
      kind: 'not_sent',
      // A pool wait that ran out is our own congestion, not the register's.
      breaker: deadlinePassed ? 'release' : 'failure',
      outcome: 'not_sent',
      error: {
        status: 0,
        code: timedOut ? CLIENT_ERROR_CODES.timeout : CLIENT_ERROR_CODES.unavailable,
        detail: deadlinePassed ? 'call deadline exceeded before the request was sent' : 'could not connect to the register',
        ...cause,
      },
    };
  }
  return {
    kind: status !== 0 ? 'body_cut' : timedOut ? 'timeout' : 'reset',
    breaker: 'failure',
    outcome: timedOut ? 'timeout' : 'network',
    error: {
      status,
      code: timedOut ? CLIENT_ERROR_CODES.timeout : CLIENT_ERROR_CODES.unavailable,
      detail: deadlinePassed
        ? 'call deadline exceeded'
        : timedOut
          ? 'register did not answer in time'
          : 'connection to the register failed',
      ...cause,
    },
  };
}
