/**
 * The one error type of the register client, and the redaction rules for everything that
 * goes into an error message, a `cause` or a logged field.
 *
 * Messages are built from route name + status + code only, plus the register's own message
 * after redaction. Never a URL (query strings carry `fas`), never a header, token or secret.
 */

import type { ErrorCode } from '../contract/wire';

/** Codes the client itself produces (the register's own codes pass through unchanged). */
export const CLIENT_ERROR_CODES = {
  unavailable: 'REGISTER_UNAVAILABLE',
  timeout: 'REGISTER_TIMEOUT',
  contract: 'REGISTER_CONTRACT_ERROR',
  circuitOpen: 'CIRCUIT_OPEN',
  unauthorised: 'UNAUTHORISED',
  tooManyRequests: 'TOO_MANY_REQUESTS',
  /** A 4xx whose code the contract does not name (a newer register), or whose body is no error body. */
  unrecognised: 'REGISTER_ERROR',
  /** Refused before sending: the service's own shared store (quota ledger) could not be reached. */
  serviceUnavailable: 'SERVICE_UNAVAILABLE',
} as const;

export type ClientErrorCode = (typeof CLIENT_ERROR_CODES)[keyof typeof CLIENT_ERROR_CODES];

/** Every code a RegisterError can carry: the register's own (the contract's list) and the client's. */
export type RegisterErrorCode = ErrorCode | ClientErrorCode;

export interface RegisterErrorInit {
  status: number;
  code: RegisterErrorCode;
  route: string;
  /** The register's message (already redacted by the caller of this constructor). */
  detail?: string;
  field?: string;
  retryAfterSeconds?: number;
  outcomeUnknown?: boolean;
  /** The register's clock when the request went out (see RegisterTransport.registerNow). */
  sentAt?: Date;
  /** A call that charges: the register's `Date` at the start of its answer, when one began. */
  answeredAt?: Date;
  /** No attempt of the call was written to the register (refused by the breaker, never connected). */
  neverSent?: boolean;
  cause?: Error;
}

export class RegisterError extends Error {
  /** HTTP status, 0 when no response. */
  readonly status: number;
  /** Register code (e.g. TITLE_NOT_FOUND) or REGISTER_UNAVAILABLE / REGISTER_TIMEOUT / REGISTER_CONTRACT_ERROR / CIRCUIT_OPEN. */
  readonly code: RegisterErrorCode;
  /** Route name from ROUTES. */
  readonly route: string;
  readonly field?: string;
  /** The register's own (redacted) message, without the route/status prefix: fit to show a caller. */
  readonly detail?: string;
  readonly retryAfterSeconds?: number;
  /**
   * True when a call that charges or creates may have been executed, but its answer was lost
   * or unreadable (shouldRetry said `unknown`). Such a call is never sent again.
   */
  readonly outcomeUnknown: boolean;
  /** The register's clock when the request went out; unset when it never did. */
  readonly sentAt?: Date;
  /**
   * A call that charges: when the register began to answer, by its own `Date` header (read
   * before the body, so an answer that broke off after it still has it); unset when none began.
   */
  readonly answeredAt?: Date;
  /** True when it is known that no attempt of the call reached the register: the caller may say "nothing was sent". */
  readonly neverSent: boolean;

  constructor(init: RegisterErrorInit) {
    const head = `register ${init.route} failed: ${init.status === 0 ? 'no response' : `HTTP ${init.status}`} ${init.code}`;
    super(init.detail ? `${head}: ${init.detail}` : head, init.cause ? { cause: init.cause } : undefined);
    this.name = 'RegisterError';
    this.status = init.status;
    this.code = init.code;
    this.route = init.route;
    if (init.field !== undefined) this.field = init.field;
    if (init.detail !== undefined) this.detail = init.detail;
    if (init.retryAfterSeconds !== undefined) this.retryAfterSeconds = init.retryAfterSeconds;
    this.outcomeUnknown = init.outcomeUnknown ?? false;
    if (init.sentAt !== undefined) this.sentAt = init.sentAt;
    if (init.answeredAt !== undefined) this.answeredAt = init.answeredAt;
    this.neverSent = init.neverSent ?? false;
  }

  /** Plain, log-safe fields (for pino and friends). */
  toJSON(): Record<string, unknown> {
    return {
      name: this.name,
      message: this.message,
      status: this.status,
      code: this.code,
      route: this.route,
      field: this.field,
      retryAfterSeconds: this.retryAfterSeconds,
      outcomeUnknown: this.outcomeUnknown,
    };
  }
}

/**
 * A log-safe stand-in for a low-level error (undici errors can carry addresses or more):
 * keeps only its name and code.
 */
export function safeCause(e: unknown): Error | undefined {
  if (!(e instanceof Error)) return undefined;
  const code = (e as { code?: unknown }).code;
  const label = typeof code === 'string' ? code : e.name;
  const cause = new Error(label);
  cause.name = e.name === 'Error' ? 'TransportError' : e.name;
  return cause;
}

const URL_PATTERN = /\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi;
const AUTH_PATTERN = /\b(Bearer|Basic)\s+[A-Za-z0-9\-._~+/]+=*/gi;
const QUERY_PATTERN = /\?[^\s"'<>]*=[^\s"'<>]*/g;
const MAX_DETAIL = 500;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** What a charging account number becomes in a redacted message (the caller's own FAS, put back for them only). */
export const FAS_PLACEHOLDER = '[fas]';

/**
 * Redacts a register message: URLs, query strings, credentials in Authorization syntax, and
 * every given sensitive value (client secret, token, fas). Short numeric values (a `fas`)
 * are only replaced as whole tokens, so `MID1234` survives when the fas is `1234`, and become
 * FAS_PLACEHOLDER, so that the message can name the caller's own account back to the caller.
 */
export function redact(text: string, sensitive: readonly (string | undefined)[]): string {
  let out = text.replace(URL_PATTERN, '[url]').replace(AUTH_PATTERN, '$1 [redacted]').replace(QUERY_PATTERN, '?[query]');
  for (const value of sensitive) {
    if (!value) continue;
    const pattern = /^[0-9]+$/.test(value)
      ? new RegExp(`(?<![0-9A-Za-z])${escapeRegExp(value)}(?![0-9])`, 'g')
      : new RegExp(escapeRegExp(value), 'g');
    out = out.replace(pattern, /^[0-9]+$/.test(value) ? FAS_PLACEHOLDER : '[redacted]');
  }
  return out.length > MAX_DETAIL ? `${out.slice(0, MAX_DETAIL)}…` : out;
}
