/**
 * One register call: overall deadline, attempts, GET-only retries with full-jitter back-off
 * and Retry-After, the single 401 token refresh, the circuit breaker and `onCall` events.
 */
import { request } from 'undici';
import type { RouteDef } from './routes';
import type { RegisterTransport, RegisterCallEvent } from './http';
import { CLIENT_ERROR_CODES as C, RegisterError, redact, safeCause } from './errors';
import { backoffDelayMs, parseRetryAfter, sleep } from './retry';
import { discard, header, readErrorBody, type RawResponse } from './responses';

export interface CallOptions {
  signal?: AbortSignal;
  /** Sent as X-Request-Id. */
  requestId?: string;
}

export interface AuthProvider {
  /** The Authorization header for one attempt, and the bearer token inside it. */
  authorize(signal: AbortSignal): Promise<{ header: string; token?: string }>;
  /** Bearer routes only: forget a token the register answered 401 to. */
  invalidate?(token: string): void;
}

export interface ExchangeSpec<T> {
  route: RouteDef;
  params?: Record<string, string>;
  query?: Record<string, string | undefined>;
  json?: unknown;
  headers?: Record<string, string>;
  accept?: string;
  auth: AuthProvider;
  /** The tenant (API client id) for events; never sent anywhere. */
  tenant?: string;
  /** Statuses besides 2xx handed to `read` (e.g. 304). */
  alsoOk?: readonly number[];
  /** Reads a success response; may throw a REGISTER_CONTRACT_ERROR. */
  read(res: RawResponse): Promise<T>;
  /** Values to redact from register messages (secret, token, fas). */
  sensitive(): (string | undefined)[];
  opts?: CallOptions;
}

interface Failure {
  error: RegisterError;
  retryable: boolean;
  retryAfterMs?: number;
  /** Set when a bearer route answered 401 to this token. */
  rejectedToken?: string;
}

class DeadlineExceeded extends Error {
  override name = 'DeadlineExceeded';
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);
/** Failures that happen before any byte of the request can have reached the register. */
const NOT_SENT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CLOSED']);

const errCode = (e: unknown): string | undefined => {
  const c = (e as { code?: unknown } | null)?.code;
  return typeof c === 'string' ? c : undefined;
};

/** Transient: worth another attempt of a GET (token failures included). */
function isTransient(e: RegisterError): boolean {
  if (e.code === C.tooManyRequests) return e.retryAfterSeconds !== undefined;
  return (e.code === C.unavailable || e.code === C.timeout) && (e.status === 0 || e.status >= 500);
}

export async function exchange<T>(t: RegisterTransport, spec: ExchangeSpec<T>): Promise<T> {
  const { route } = spec;
  const routeName = route.name;
  if (t.closed) throw new RegisterError({ status: 0, route: routeName, code: C.unavailable, detail: 'transport is closed' });

  const callerSignal = spec.opts?.signal;
  callerSignal?.throwIfAborted();
  const deadline = new AbortController();
  const deadlineAt = performance.now() + t.timeouts.deadlineMs;
  const timer = setTimeout(() => deadline.abort(new DeadlineExceeded('deadline exceeded')), t.timeouts.deadlineMs);
  const signal = callerSignal ? AbortSignal.any([callerSignal, deadline.signal]) : deadline.signal;
  const isGet = route.method === 'GET';
  const maxFailures = isGet ? t.retryPolicy.attempts : 1;
  const url = t.url(route, spec.params, spec.query);
  const body = spec.json === undefined ? undefined : JSON.stringify(spec.json);

  const fail = (init: ConstructorParameters<typeof RegisterError>[0], retryable: boolean, extra: Partial<Failure> = {}): Failure => ({
    error: new RegisterError(init),
    retryable: retryable && isGet,
    ...extra,
  });
  /** Abort of the caller's signal is rethrown as is; the deadline becomes REGISTER_TIMEOUT. */
  const aborted = (status: number, mayHaveBeenSent: boolean): Failure => {
    if (callerSignal?.aborted) throw callerSignal.reason;
    return fail({ status, route: routeName, code: C.timeout, detail: 'call deadline exceeded', outcomeUnknown: !isGet && mayHaveBeenSent }, false);
  };

  async function attempt(n: number): Promise<{ value: T } | { failure: Failure }> {
    // 1. credentials (a token fetch is a call of its own, with its own events)
    let auth: { header: string; token?: string };
    try {
      auth = await spec.auth.authorize(signal);
    } catch (e) {
      if (signal.aborted) return { failure: aborted(0, false) };
      if (!(e instanceof RegisterError)) throw e;
      const retryAfterMs = e.retryAfterSeconds !== undefined ? e.retryAfterSeconds * 1000 : undefined;
      return { failure: { error: e, retryable: isGet && isTransient(e), ...(retryAfterMs !== undefined ? { retryAfterMs } : {}) } };
    }

    // 2. circuit breaker
    const ticket = t.breaker.acquire();
    const event = (status: number, outcome: RegisterCallEvent['outcome'], started: number, retryAfterSeconds?: number) =>
      t.emit({
        route: routeName,
        method: route.method,
        status,
        durationMs: performance.now() - started,
        attempt: n,
        outcome,
        ...(spec.tenant !== undefined ? { tenant: spec.tenant } : {}),
        ...(spec.opts?.requestId !== undefined ? { requestId: spec.opts.requestId } : {}),
        ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
      });
    if (!ticket) {
      event(0, 'circuit_open', performance.now());
      return { failure: fail({ status: 0, route: routeName, code: C.circuitOpen, detail: 'circuit breaker is open' }, false) };
    }

    // 3. the request
    const started = performance.now();
    let status = 0;
    const headers: Record<string, string> = { accept: spec.accept ?? 'application/json', authorization: auth.header, ...spec.headers };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (spec.opts?.requestId) headers['x-request-id'] = spec.opts.requestId;
    try {
      const res = await request(url, { dispatcher: t.agent, method: route.method, headers, body, signal });
      status = res.statusCode;
      const raw: RawResponse = { status, headers: res.headers, body: res.body };

      if ((status >= 200 && status < 300) || spec.alsoOk?.includes(status)) {
        try {
          const value = await spec.read(raw);
          ticket.success();
          event(status, 'ok', started);
          return { value };
        } catch (e) {
          if (e instanceof RegisterError && e.code === C.contract) {
            res.body.destroy();
            ticket.success();
            event(status, 'contract', started);
            return { failure: { error: e, retryable: false } };
          }
          throw e;
        }
      }

      if (status === 401 && auth.token !== undefined) {
        await discard(res.body);
        ticket.success();
        event(status, 'http_error', started);
        return { failure: fail({ status, route: routeName, code: C.unauthorised, detail: 'access token rejected' }, false, { rejectedToken: auth.token }) };
      }

      const errorBody = await readErrorBody(res.body);
      const detail = errorBody?.message ? redact(errorBody.message, spec.sensitive()) : undefined;
      const retryAfterSeconds = parseRetryAfter(res.headers['retry-after']);
      const withRetryAfter = retryAfterSeconds !== undefined ? { retryAfterSeconds } : {};
      const retryAfter = retryAfterSeconds !== undefined ? { retryAfterMs: retryAfterSeconds * 1000 } : {};
      event(status, 'http_error', started, retryAfterSeconds);
      if (status >= 500) {
        ticket.failure();
        return { failure: fail({ status, route: routeName, code: C.unavailable, detail, ...withRetryAfter }, true, retryAfter) };
      }
      ticket.success();
      if (status === 429) {
        // only worth waiting for when the register says how long (and it fits the deadline)
        return { failure: fail({ status, route: routeName, code: C.tooManyRequests, detail, ...withRetryAfter }, retryAfterSeconds !== undefined, retryAfter) };
      }
      const code = status === 401 ? C.unauthorised : (errorBody?.code ?? C.unavailable);
      const field = errorBody?.field !== undefined ? { field: errorBody.field } : {};
      return { failure: fail({ status, route: routeName, code, detail, ...field, ...withRetryAfter }, false) };
    } catch (e) {
      // no response, or the response body failed: timeout, reset, refused, aborted
      const answered = status >= 200 && status < 300;
      const mayHaveBeenSent = status !== 0 ? answered : !NOT_SENT_CODES.has(errCode(e) ?? '');
      if (signal.aborted) {
        if (callerSignal?.aborted) {
          ticket.release();
          event(status, (callerSignal.reason as Error | undefined)?.name === 'TimeoutError' ? 'timeout' : 'network', started);
        } else {
          ticket.failure();
          event(status, 'timeout', started);
        }
        return { failure: aborted(status, mayHaveBeenSent) };
      }
      const timeout = TIMEOUT_CODES.has(errCode(e) ?? '');
      ticket.failure();
      event(status, timeout ? 'timeout' : 'network', started);
      return {
        failure: fail(
          {
            status,
            route: routeName,
            code: timeout ? C.timeout : C.unavailable,
            detail: timeout ? 'register did not answer in time' : 'connection to the register failed',
            outcomeUnknown: !isGet && mayHaveBeenSent,
            cause: safeCause(e),
          },
          true,
        ),
      };
    }
  }

  try {
    let failures = 0;
    let refreshed = false;
    for (let n = 1; ; n++) {
      const r = await attempt(n);
      if ('value' in r) return r.value;
      const f = r.failure;
      if (f.rejectedToken !== undefined) {
        spec.auth.invalidate?.(f.rejectedToken);
        // a 401 means the request was not executed: refresh once and re-send, POST included
        if (!refreshed) {
          refreshed = true;
          continue;
        }
      }
      failures++;
      if (!f.retryable || failures >= maxFailures || t.closed) throw f.error;
      const delay = f.retryAfterMs ?? backoffDelayMs(t.retryPolicy, failures);
      if (performance.now() + delay >= deadlineAt) throw f.error;
      try {
        await sleep(delay, signal);
      } catch {
        if (callerSignal?.aborted) throw callerSignal.reason;
        throw f.error;
      }
    }
  } finally {
    // for a streamed download this ends the deadline once the headers are in; the caller's
    // signal keeps governing the body
    clearTimeout(timer);
  }
}
