/**
 * One register call: overall deadline (the wait for a pool connection included), attempts,
 * retries decided by the route's effect (`shouldRetry`), the single 401 token refresh, the
 * circuit breaker and `onCall` events.
 */
import { request, type Dispatcher } from 'undici';
import { hasEffect, type RouteDef } from '../contract/routes';
import type { RegisterTransport, RegisterCallEvent } from './http';
import { CLIENT_ERROR_CODES as C, RegisterError, redact, safeCause, type RegisterErrorInit } from './errors';
import { backoffDelayMs, parseRetryAfter, raceSignal, shouldRetry, sleep, type FailureKind } from './retry';
import { discard, readErrorBody, type RawResponse } from './responses';

export interface CallOptions {
  /** Aborts a call that has no effect; ignored by charging and creating calls (see exchange). */
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
  /** Before each attempt (after credentials): the quota's admission; a RegisterError it throws ends the call unsent. */
  admit?(): Promise<void>;
  /** Values to redact from register messages (secret, token, fas). */
  sensitive(): (string | undefined)[];
  opts?: CallOptions;
}

interface Failure {
  kind: FailureKind;
  error: RegisterErrorInit;
  retryAfterMs?: number;
  /** Set when a bearer route answered 401 to this token. */
  rejectedToken?: string;
  tokenTransient?: boolean;
}

type Attempt<T> = { value: T } | { failure: Failure };

class DeadlineExceeded extends Error {
  override name = 'DeadlineExceeded';
}

const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

const errCode = (e: unknown): string | undefined => {
  const c = (e as { code?: unknown } | null)?.code;
  return typeof c === 'string' ? c : undefined;
};

/** A token fetch failure worth another try (it is a call of its own, with no effect). */
function tokenTransient(e: RegisterError): boolean {
  if (e.code === C.tooManyRequests) return e.retryAfterSeconds !== undefined;
  return (e.code === C.unavailable || e.code === C.timeout) && (e.status === 0 || e.status >= 500);
}

const initOf = (e: RegisterError): RegisterErrorInit => ({
  status: e.status,
  code: e.code,
  route: e.route,
  ...(e.detail !== undefined ? { detail: e.detail } : {}),
  ...(e.field !== undefined ? { field: e.field } : {}),
  ...(e.retryAfterSeconds !== undefined ? { retryAfterSeconds: e.retryAfterSeconds } : {}),
  ...(e.cause instanceof Error ? { cause: e.cause } : {}),
});

/**
 * undici writes a request only after handing it a connection (`onConnect`); until then it
 * waits in the pool queue. This dispatcher tells the two apart, which is the proof that a
 * failed call with an effect never reached the register. Written by hand: undici exposes no
 * per-request "was it written" flag, and its interceptors see the same handler calls.
 */
function trackingDispatcher(agent: Dispatcher, onConnected: () => void): Dispatcher {
  return {
    dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) {
      const tracked = new Proxy(handler, {
        get(target, property) {
          const value = Reflect.get(target, property, target) as unknown;
          if (property === 'onConnect' && typeof value === 'function') {
            return (...args: unknown[]) => {
              onConnected();
              return (value as (...a: unknown[]) => unknown).apply(target, args);
            };
          }
          return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
        },
      });
      return agent.dispatch(options, tracked);
    },
  } as Dispatcher;
}

export async function exchange<T>(transport: RegisterTransport, spec: ExchangeSpec<T>): Promise<T> {
  const { route } = spec;
  const routeName = route.name;
  if (transport.closed) throw new RegisterError({ status: 0, route: routeName, code: C.unavailable, detail: 'transport is closed' });

  // A call that charges or creates is not cut short by its caller: once it may have reached
  // the register, its answer is read to the end so that the charge or creation is recorded.
  const callerSignal = hasEffect(route) ? undefined : spec.opts?.signal;
  callerSignal?.throwIfAborted();
  const deadline = new AbortController();
  const deadlineAt = performance.now() + transport.timeouts.deadlineMs;
  const timer = setTimeout(() => deadline.abort(new DeadlineExceeded('deadline exceeded')), transport.timeouts.deadlineMs);
  const signal = callerSignal ? AbortSignal.any([callerSignal, deadline.signal]) : deadline.signal;
  const maxAttempts = transport.retryPolicy.attempts;
  const url = transport.url(route, spec.params, spec.query);
  const body = spec.json === undefined ? undefined : JSON.stringify(spec.json);
  const failure = (kind: FailureKind, error: Omit<RegisterErrorInit, 'route'>, extra: Partial<Failure> = {}): { failure: Failure } => ({
    failure: { kind, error: { ...error, route: routeName }, ...extra },
  });
  /** The register's clock when the current attempt's request went out, for the charge journal's day. */
  let sentAt: Date | undefined;

  const event = (n: number, status: number, outcome: RegisterCallEvent['outcome'], started: number, retryAfterSeconds?: number) =>
    transport.emit({
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

  async function attempt(n: number): Promise<Attempt<T>> {
    // 1. credentials (a token fetch is a call of its own, with its own events)
    let auth: { header: string; token?: string };
    try {
      auth = await spec.auth.authorize(signal);
    } catch (e) {
      if (callerSignal?.aborted) throw callerSignal.reason;
      if (signal.aborted) return failure('token_failed', { status: 0, code: C.timeout, detail: 'call deadline exceeded' });
      if (!(e instanceof RegisterError)) throw e;
      const retryAfterMs = e.retryAfterSeconds !== undefined ? e.retryAfterSeconds * 1000 : undefined;
      return {
        failure: {
          kind: 'token_failed',
          error: initOf(e),
          tokenTransient: tokenTransient(e),
          ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
        },
      };
    }

    // 2. the quota: refused here, nothing is sent
    await spec.admit?.();

    // 3. circuit breaker
    const ticket = transport.breaker.acquire();
    if (!ticket) {
      event(n, 0, 'circuit_open', performance.now());
      return failure('circuit_open', { status: 0, code: C.circuitOpen, detail: 'circuit breaker is open' });
    }

    // 4. the request
    const started = performance.now();
    let status = 0;
    sentAt = undefined;
    const headers: Record<string, string> = { accept: spec.accept ?? 'application/json', authorization: auth.header, ...spec.headers };
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (spec.opts?.requestId) headers['x-request-id'] = spec.opts.requestId;
    try {
      const pool = transport.dispatcher(spec.tenant, route.response === 'pdf' ? 'downloads' : 'api');
      const dispatcher = trackingDispatcher(pool, () => (sentAt = transport.registerNow()));
      const pending = request(url, { dispatcher, method: route.method, headers, body, signal });
      let res: Dispatcher.ResponseData;
      try {
        // undici settles a queued request only once it gets a connection: the race keeps the
        // deadline in force while the call waits for a pool slot.
        res = await raceSignal(pending, signal);
      } catch (e) {
        void pending.then(
          (late) => late.body.destroy(),
          () => undefined,
        );
        throw e;
      }
      status = res.statusCode;
      transport.observeRegisterDate(res.headers.date);
      const raw: RawResponse = { status, headers: res.headers, body: res.body };

      if ((status >= 200 && status < 300) || spec.alsoOk?.includes(status)) {
        try {
          const value = await spec.read(raw);
          ticket.success();
          event(n, status, 'ok', started);
          return { value };
        } catch (e) {
          if (!(e instanceof RegisterError && e.code === C.contract)) throw e;
          res.body.destroy();
          ticket.success();
          event(n, status, 'contract', started);
          return failure('contract', { status, code: C.contract, ...(e.detail !== undefined ? { detail: e.detail } : {}) });
        }
      }

      if (status === 401 && auth.token !== undefined) {
        await discard(res.body);
        ticket.success();
        event(n, status, 'http_error', started);
        return failure('unauthorised', { status, code: C.unauthorised, detail: 'access token rejected' }, { rejectedToken: auth.token });
      }

      const errorBody = await readErrorBody(res.body).catch(() => undefined);
      const detail = errorBody?.message ? redact(errorBody.message, spec.sensitive()) : undefined;
      const retryAfterSeconds = parseRetryAfter(res.headers['retry-after']);
      const retryAfter = retryAfterSeconds !== undefined ? { retryAfterSeconds } : {};
      const retryAfterMs = retryAfterSeconds !== undefined ? { retryAfterMs: retryAfterSeconds * 1000 } : {};
      event(n, status, 'http_error', started, retryAfterSeconds);
      if (status === 429) {
        ticket.success();
        return failure('rate_limited', { status, code: C.tooManyRequests, detail, ...retryAfter }, retryAfterMs);
      }
      if (status >= 400 && status < 500 && status !== 408) {
        ticket.success();
        const code = status === 401 ? C.unauthorised : (errorBody?.code ?? C.unavailable);
        const field = errorBody?.field !== undefined ? { field: errorBody.field } : {};
        return failure('rejected', { status, code, detail, ...field, ...retryAfter });
      }
      // 5xx, 408, or a status the register never gives: it may have acted on the request
      ticket.failure();
      return failure('server_error', { status, code: C.unavailable, detail, ...retryAfter }, retryAfterMs);
    } catch (e) {
      if (callerSignal?.aborted) {
        ticket.release();
        event(n, status, (callerSignal.reason as Error | undefined)?.name === 'TimeoutError' ? 'timeout' : 'network', started);
        throw callerSignal.reason;
      }
      const deadlinePassed = signal.aborted;
      if (sentAt === undefined) {
        // Nothing was written. A pool wait that ran out is our own congestion, not the register's.
        if (deadlinePassed) ticket.release();
        else ticket.failure();
        event(n, 0, 'not_sent', started);
        return failure('not_sent', {
          status: 0,
          code: deadlinePassed || TIMEOUT_CODES.has(errCode(e) ?? '') ? C.timeout : C.unavailable,
          detail: deadlinePassed ? 'call deadline exceeded before the request was sent' : 'could not connect to the register',
          cause: safeCause(e),
        });
      }
      const timedOut = deadlinePassed || TIMEOUT_CODES.has(errCode(e) ?? '');
      ticket.failure();
      event(n, status, timedOut ? 'timeout' : 'network', started);
      const kind: FailureKind = status !== 0 ? 'body_cut' : timedOut ? 'timeout' : 'reset';
      return failure(kind, {
        status,
        code: timedOut ? C.timeout : C.unavailable,
        detail: deadlinePassed
          ? 'call deadline exceeded'
          : timedOut
            ? 'register did not answer in time'
            : 'connection to the register failed',
        cause: safeCause(e),
      });
    }
  }

  try {
    let attempts = 0;
    let refreshed = false;
    for (let n = 1; ; n++) {
      const result = await attempt(n);
      if ('value' in result) return result.value;
      const f = result.failure;
      if (f.rejectedToken !== undefined) {
        spec.auth.invalidate?.(f.rejectedToken);
        // a 401 means the request was not executed: refresh once and re-send, whatever its effect
        if (!refreshed) {
          refreshed = true;
          continue;
        }
      }
      attempts++;
      const decision = shouldRetry(route.effect, {
        kind: f.kind,
        retryAfterKnown: f.retryAfterMs !== undefined,
        ...(f.tokenTransient !== undefined ? { tokenTransient: f.tokenTransient } : {}),
      });
      const error = new RegisterError({ ...f.error, outcomeUnknown: decision === 'unknown', ...(sentAt ? { sentAt } : {}) });
      if (decision !== 'retry' || attempts >= maxAttempts || transport.closed) throw error;
      const delay = f.retryAfterMs ?? backoffDelayMs(transport.retryPolicy, attempts);
      if (performance.now() + delay >= deadlineAt) throw error;
      try {
        await sleep(delay, signal);
      } catch {
        if (callerSignal?.aborted) throw callerSignal.reason;
        throw error;
      }
    }
  } finally {
    // for a streamed download this ends the deadline once the headers are in; the caller's
    // signal keeps governing the body
    clearTimeout(timer);
  }
}
