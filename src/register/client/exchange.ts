/**
 * One register call: overall deadline (the wait for a pool connection included), attempts,
 * retries decided by the route's effect (`shouldRetry`), the single 401 token refresh, the
 * circuit breaker and `onCall` events.
 */
import { request, type Dispatcher } from 'undici';
import { hasEffect, type RouteDef } from '../contract/routes';
import type { RegisterTransport, RegisterCallEvent } from './http';
import type { BreakerTicket } from './circuit-breaker';
import { type AttemptFailure, type BreakerVerdict, classifyContractBreach, classifyHttpAnswer, classifyThrown } from './classify';
import { CLIENT_ERROR_CODES, RegisterError, redact, safeCause, type RegisterErrorInit } from './errors';
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

const errorCodeOf = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

/** A token fetch failure worth another try (it is a call of its own, with no effect). */
function tokenTransient(error: RegisterError): boolean {
  if (error.code === CLIENT_ERROR_CODES.tooManyRequests) return error.retryAfterSeconds !== undefined;
  return (
    (error.code === CLIENT_ERROR_CODES.unavailable || error.code === CLIENT_ERROR_CODES.timeout) &&
    (error.status === 0 || error.status >= 500)
  );
}

const initOf = (error: RegisterError): RegisterErrorInit => ({
  status: error.status,
  code: error.code,
  route: error.route,
  ...(error.detail !== undefined ? { detail: error.detail } : {}),
  ...(error.field !== undefined ? { field: error.field } : {}),
  ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
  ...(error.cause instanceof Error ? { cause: error.cause } : {}),
});

/**
 * undici writes a request only after handing it a connection (`onConnect`); until then it
 * waits in the pool queue. This dispatcher tells the two apart, which is the proof that a
 * failed call with an effect never reached the register. Written by hand: undici exposes no
 * per-request "was it written" flag, and its interceptors see the same handler calls. The
 * handler is the one `request()` made for this call alone, so its `onConnect` is shadowed on the
 * instance (a Proxy around it cost a trap and a bound function on every handler call).
 */
function trackingDispatcher(agent: Dispatcher, onConnected: () => void): Dispatcher {
  return {
    dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) {
      const onConnect = handler.onConnect;
      if (typeof onConnect === 'function') {
        handler.onConnect = function connected(this: unknown, ...args: Parameters<typeof onConnect>) {
          onConnected();
          return onConnect.apply(this, args);
        };
      }
      return agent.dispatch(options, handler);
    },
  } as Dispatcher;
}

export function exchange<T>(transport: RegisterTransport, spec: ExchangeSpec<T>): Promise<T> {
  const wrapper = transport.callWrapper;
  return wrapper ? wrapper({ route: spec.route.name, method: spec.route.method }, () => run(transport, spec)) : run(transport, spec);
}

async function run<T>(transport: RegisterTransport, spec: ExchangeSpec<T>): Promise<T> {
  const { route } = spec;
  const routeName = route.name;
  if (transport.closed)
    throw new RegisterError({ status: 0, route: routeName, code: CLIENT_ERROR_CODES.unavailable, detail: 'transport is closed' });

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
  const failure = (verdict: AttemptFailure, extra: Partial<Failure> = {}): { failure: Failure } => ({
    failure: {
      kind: verdict.kind,
      error: { ...verdict.error, route: routeName },
      ...(verdict.retryAfterMs !== undefined ? { retryAfterMs: verdict.retryAfterMs } : {}),
      ...extra,
    },
  });
  /** The register's clock when the current attempt's request went out, for the charge journal's day. */
  let sentAt: Date | undefined;

  const emitEvent = (n: number, status: number, outcome: RegisterCallEvent['outcome'], started: number, retryAfterSeconds?: number) =>
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

  /**
   * The one place an attempt ends: its breaker ticket is settled and its event emitted, together,
   * so no path can leave a half-open breaker waiting on a ticket nobody settles.
   */
  const settle = (
    ticket: BreakerTicket,
    n: number,
    started: number,
    status: number,
    breaker: BreakerVerdict,
    outcome: RegisterCallEvent['outcome'],
    retryAfterSeconds?: number,
  ) => {
    ticket[breaker]();
    emitEvent(n, status, outcome, started, retryAfterSeconds);
  };
  const endWithFailure = (ticket: BreakerTicket, n: number, started: number, verdict: AttemptFailure, extra: Partial<Failure> = {}) => {
    settle(ticket, n, started, verdict.error.status, verdict.breaker, verdict.outcome, verdict.error.retryAfterSeconds);
    return failure(verdict, extra);
  };

  async function attempt(n: number): Promise<Attempt<T>> {
    // 1. credentials (a token fetch is a call of its own, with its own events)
    let auth: { header: string; token?: string };
    try {
      auth = await spec.auth.authorize(signal);
    } catch (error) {
      if (callerSignal?.aborted) throw callerSignal.reason;
      if (signal.aborted) {
        return {
          failure: {
            kind: 'token_failed',
            error: { route: routeName, status: 0, code: CLIENT_ERROR_CODES.timeout, detail: 'call deadline exceeded' },
          },
        };
      }
      if (!(error instanceof RegisterError)) throw error;
      const retryAfterMs = error.retryAfterSeconds !== undefined ? error.retryAfterSeconds * 1000 : undefined;
      return {
        failure: {
          kind: 'token_failed',
          error: initOf(error),
          tokenTransient: tokenTransient(error),
          ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
        },
      };
    }

    // 2. the quota: refused here, nothing is sent
    await spec.admit?.();

    // 3. circuit breaker
    const ticket = transport.breaker.acquire();
    if (!ticket) {
      emitEvent(n, 0, 'circuit_open', performance.now());
      return {
        failure: {
          kind: 'circuit_open',
          error: { route: routeName, status: 0, code: CLIENT_ERROR_CODES.circuitOpen, detail: 'circuit breaker is open' },
        },
      };
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
      const dispatcher = trackingDispatcher(pool, () => {
        sentAt = transport.registerNow();
      });
      const pending = request(url, { dispatcher, method: route.method, headers, body, signal });
      let response: Dispatcher.ResponseData;
      try {
        // undici settles a queued request only once it gets a connection: the race keeps the
        // deadline in force while the call waits for a pool slot.
        response = await raceSignal(pending, signal);
      } catch (error) {
        void pending.then(
          (late) => late.body.destroy(),
          () => undefined,
        );
        throw error;
      }
      status = response.statusCode;
      transport.observeRegisterDate(response.headers.date);

      if ((status >= 200 && status < 300) || spec.alsoOk?.includes(status)) {
        try {
          const value = await spec.read({ status, headers: response.headers, body: response.body });
          settle(ticket, n, started, status, 'success', 'ok');
          return { value };
        } catch (error) {
          if (!(error instanceof RegisterError && error.code === CLIENT_ERROR_CODES.contract)) throw error;
          response.body.destroy();
          return endWithFailure(ticket, n, started, classifyContractBreach(status, error.detail));
        }
      }

      const bearer = auth.token !== undefined;
      if (status === 401 && bearer) {
        await discard(response.body);
        return endWithFailure(ticket, n, started, classifyHttpAnswer({ status, bearer }), { rejectedToken: auth.token! });
      }
      const errorBody = await readErrorBody(response.body).catch(() => undefined);
      const retryAfterSeconds = parseRetryAfter(response.headers['retry-after']);
      const verdict = classifyHttpAnswer({
        status,
        bearer,
        ...(errorBody?.code !== undefined ? { code: errorBody.code } : {}),
        ...(errorBody?.message ? { detail: redact(errorBody.message, spec.sensitive()) } : {}),
        ...(errorBody?.field !== undefined ? { field: errorBody.field } : {}),
        ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
      });
      return endWithFailure(ticket, n, started, verdict);
    } catch (error) {
      if (callerSignal?.aborted) {
        const outcome = (callerSignal.reason as Error | undefined)?.name === 'TimeoutError' ? 'timeout' : 'network';
        settle(ticket, n, started, status, 'release', outcome);
        throw callerSignal.reason;
      }
      const cause = safeCause(error);
      const verdict = classifyThrown({
        sent: sentAt !== undefined,
        status,
        deadlinePassed: signal.aborted,
        ...(errorCodeOf(error) !== undefined ? { errorCode: errorCodeOf(error)! } : {}),
        ...(cause ? { cause } : {}),
      });
      settle(ticket, n, started, status, verdict.breaker, verdict.outcome);
      return failure(verdict);
    }
  }

  try {
    let attempts = 0;
    let refreshed = false;
    for (let n = 1; ; n++) {
      const result = await attempt(n);
      if ('value' in result) return result.value;
      const lastFailure = result.failure;
      if (lastFailure.rejectedToken !== undefined) {
        spec.auth.invalidate?.(lastFailure.rejectedToken);
        // a 401 means the request was not executed: refresh once and re-send, whatever its effect
        if (!refreshed) {
          refreshed = true;
          continue;
        }
      }
      attempts++;
      const decision = shouldRetry(route.effect, {
        kind: lastFailure.kind,
        retryAfterKnown: lastFailure.retryAfterMs !== undefined,
        ...(lastFailure.tokenTransient !== undefined ? { tokenTransient: lastFailure.tokenTransient } : {}),
      });
      const error = new RegisterError({ ...lastFailure.error, outcomeUnknown: decision === 'unknown', ...(sentAt ? { sentAt } : {}) });
      if (decision !== 'retry' || attempts >= maxAttempts || transport.closed) throw error;
      const delay = lastFailure.retryAfterMs ?? backoffDelayMs(transport.retryPolicy, attempts);
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
