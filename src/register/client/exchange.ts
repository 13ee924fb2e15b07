/**
 * One register call: overall deadline (the wait for a pool connection included), attempts,
 * retries decided by the route's effect (`shouldRetry`), the single 401 token refresh, the
 * circuit breaker and `onCall` events. A `RegisterCall` holds one call's state; its methods are
 * the steps of an attempt (credentials, admit, the breaker's ticket, send, end) and `run` is the
 * retry loop around them.
 */
import { request, type Dispatcher } from 'undici';
import { hasEffect, type RouteDef } from '../contract/routes';
import type { Credentials, ExchangeSpec } from './call-spec';
import { CallAbort, type CallerSignal, DeadlineExceeded, followCaller, raceAbort } from './cancellation';
import { trackingDispatcher } from './sent-tracking';
import type { RegisterTransport, RegisterCallEvent } from './http';
import type { BreakerCall, BreakerTicket } from './circuit-breaker';
import { type AttemptFailure, type BreakerVerdict, classifyContractBreach, classifyHttpAnswer, classifyThrown } from './classify';
import { CLIENT_ERROR_CODES, RegisterError, redact, safeCause, type RegisterErrorInit } from './errors';
import { backoffDelayMs, parseRetryAfter, shouldRetry, sleep, type FailureKind } from './retry';
import { discard, readErrorBody, type RawResponse } from './responses';

interface Failure {
  kind: FailureKind;
  error: RegisterErrorInit;
  retryAfterMs?: number;
  /** Set when a bearer route answered 401 to this token. */
  rejectedToken?: string;
  tokenTransient?: boolean;
}

type Attempt<T> = { value: T } | { failure: Failure };

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

export const initOf = (error: RegisterError): RegisterErrorInit => ({
  status: error.status,
  code: error.code,
  route: error.route,
  ...(error.detail !== undefined ? { detail: error.detail } : {}),
  ...(error.field !== undefined ? { field: error.field } : {}),
  ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
  ...(error.cause instanceof Error ? { cause: error.cause } : {}),
});

export function exchange<T>(transport: RegisterTransport, spec: ExchangeSpec<T>): Promise<T> {
  return wrapped(transport, spec, transport.retryPolicy.attempts);
}

function wrapped<T>(transport: RegisterTransport, spec: ExchangeSpec<T>, attempts: number): Promise<T> {
  const wrapper = transport.callWrapper;
  if (!wrapper) return new RegisterCall(transport, spec, attempts).run();
  return wrapper({ route: spec.route.name, method: spec.route.method }, () => new RegisterCall(transport, spec, attempts).run());
}

class RegisterCall<T> implements BreakerCall {
  private readonly route: RouteDef;
  /**
   * None for a call that charges or creates: it is not cut short by its caller, because once it
   * may have reached the register its answer is read to the end so that the charge or creation
   * is recorded.
   */
  private readonly callerSignal: CallerSignal | undefined;
  /** Aborted by the caller or the deadline, whichever comes first. */
  private readonly abort = new CallAbort();
  /** A download's body, still being read by the caller once the call has returned. */
  private openBody: Dispatcher.ResponseData['body'] | undefined;
  // Set by run(), not here: building them can throw, and the call must then reject, not throw.
  private url!: string;
  private body: string | undefined;
  /** 1-based, as the events count: the re-send after a 401 is an attempt too. */
  private attemptNumber = 0;
  /** The register's clock when the current attempt's request went out, for the charge journal's day. */
  private sentAt: Date | undefined;
  /** A call that charges: the register's clock as the current attempt's answer began (its day is the charge's). */
  private answeredAt: Date | undefined;
  /** Some attempt of this call was written to the register. */
  private written = false;

  constructor(
    private readonly transport: RegisterTransport,
    private readonly spec: ExchangeSpec<T>,
    /** The attempts the retry policy allows this call (a breaker's trial has one). */
    private readonly attempts: number,
  ) {
    this.route = spec.route;
    this.callerSignal = hasEffect(spec.route) ? undefined : spec.opts?.signal;
  }

  get routeName(): string {
    return this.route.name;
  }

  /** No effect, and an answer read whole (a download's body would be left open): the breaker may have it sent again. */
  get resendable(): boolean {
    return !hasEffect(this.route) && this.route.response !== 'pdf';
  }

  /** The same call for no caller, once: no retries, its own deadline, no caller's signal or request id. */
  resend(): Promise<unknown> {
    if (!this.resendable) return Promise.reject(new Error(`register ${this.route.name} calls are never sent again`));
    return wrapped(this.transport, { ...this.spec, opts: {} }, 1);
  }

  async run(): Promise<T> {
    const { transport, route, spec } = this;
    if (transport.closed)
      throw new RegisterError({ status: 0, route: route.name, code: CLIENT_ERROR_CODES.unavailable, detail: 'transport is closed' });
    // A caller gone before the call starts: it is never sent. (One property read: the server's
    // request signal is a Proxy whose every access costs, and throwIfAborted reads it several times.)
    if (this.callerSignal?.aborted) throw this.callerSignal.reason;
    // Before the deadline's timer: a path parameter missing, say, rejects without leaving a timer behind.
    this.url = transport.url(route, spec.params, spec.query);
    this.body = spec.json === undefined ? undefined : JSON.stringify(spec.json);
    const deadlineAt = performance.now() + transport.timeouts.deadlineMs;
    const abort = this.abort;
    const timer = setTimeout(() => abort.abort(new DeadlineExceeded('deadline exceeded')), transport.timeouts.deadlineMs);
    const unfollow = this.callerSignal ? followCaller(this.callerSignal, abort) : undefined;
    try {
      // the attempts the retry policy counts: the re-send after a 401 is not one of them
      let failedAttempts = 0;
      let refreshed = false;
      for (this.attemptNumber = 1; ; this.attemptNumber++) {
        const result = await this.attempt();
        if ('value' in result) return result.value;
        const { failure } = result;
        if (failure.rejectedToken !== undefined) {
          spec.auth.invalidate?.(failure.rejectedToken);
          // a 401 means the request was not executed: refresh once and re-send, whatever its effect
          if (!refreshed) {
            refreshed = true;
            continue;
          }
        }
        failedAttempts++;
        const decision = shouldRetry(route.effect, {
          kind: failure.kind,
          retryAfterKnown: failure.retryAfterMs !== undefined,
          ...(failure.tokenTransient !== undefined ? { tokenTransient: failure.tokenTransient } : {}),
        });
        const error = new RegisterError({
          ...failure.error,
          outcomeUnknown: decision === 'unknown',
          ...(this.sentAt ? { sentAt: this.sentAt } : {}),
          ...(this.answeredAt ? { answeredAt: this.answeredAt } : {}),
          ...(this.written ? {} : { neverSent: true }),
        });
        if (decision !== 'retry' || failedAttempts >= this.attempts || transport.closed) throw error;
        const delay = failure.retryAfterMs ?? backoffDelayMs(transport.retryPolicy, failedAttempts);
        if (performance.now() + delay >= deadlineAt) throw error;
        try {
          await sleep(delay, abort.signal);
        } catch {
          if (this.callerSignal?.aborted) throw this.callerSignal.reason;
          throw error;
        }
      }
    } finally {
      // for a streamed download this ends the deadline once the headers are in; the caller's
      // signal keeps governing the body until it closes
      clearTimeout(timer);
      if (unfollow) {
        const body = this.openBody;
        if (body && !body.readableEnded && !body.destroyed) body.once('close', unfollow);
        else unfollow();
      }
    }
  }

  /** The steps in order; the first that fails ends the attempt. */
  private async attempt(): Promise<Attempt<T>> {
    // credentials at hand and no admission to wait for: no await before the request
    const ready = this.spec.auth.ready?.();
    // A sign-in is a request to the register too: none for a call the organisation cannot make.
    const { gate } = this.spec;
    if (!ready && gate) await gate.refuseIfHeld();
    const credentials = ready ? { auth: ready } : await this.credentials();
    if ('failure' in credentials) return credentials;
    // The quota's admission: a refusal ends the whole call, with nothing sent.
    if (gate && !gate.admitNow()) await gate.admit();
    const ticket = this.transport.breaker.acquire(this);
    if (!ticket) return this.refusedByBreaker();
    return this.send(credentials.auth, ticket);
  }

  /** A token fetch is a call of its own, with its own events; when it fails, nothing is sent. */
  private async credentials(): Promise<{ auth: Credentials } | { failure: Failure }> {
    try {
      return { auth: await this.spec.auth.authorize(this.abort.signal) };
    } catch (error) {
      if (this.callerSignal?.aborted) throw this.callerSignal.reason;
      if (this.abort.aborted) {
        return {
          failure: {
            kind: 'token_failed',
            error: { route: this.route.name, status: 0, code: CLIENT_ERROR_CODES.timeout, detail: 'call deadline exceeded' },
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
  }

  private refusedByBreaker(): { failure: Failure } {
    this.emit(0, 'circuit_open', performance.now());
    return {
      failure: {
        kind: 'circuit_open',
        error: {
          route: this.route.name,
          status: 0,
          code: CLIENT_ERROR_CODES.circuitOpen,
          detail: 'circuit breaker is open',
          retryAfterSeconds: Math.max(1, Math.ceil(this.transport.breaker.retryAfterMs() / 1000)),
        },
      },
    };
  }

  /** The request: however it goes, the attempt ends here, its ticket settled. */
  private async send(auth: Credentials, ticket: BreakerTicket): Promise<Attempt<T>> {
    const { transport, spec, route, abort, callerSignal } = this;
    const started = performance.now();
    let status = 0;
    this.sentAt = undefined;
    this.answeredAt = undefined;
    const headers: Record<string, string> = { accept: spec.accept ?? 'application/json', authorization: auth.header, ...spec.headers };
    if (this.body !== undefined) headers['content-type'] = 'application/json';
    if (spec.opts?.requestId) headers['x-request-id'] = spec.opts.requestId;
    try {
      const pool = transport.dispatcher(spec.tenant, route.response === 'pdf' ? 'downloads' : 'api');
      const dispatcher = trackingDispatcher(pool, () => {
        this.sentAt = transport.registerNow();
        this.written = true;
        ticket.sent();
      });
      const pending = request(this.url, { dispatcher, method: route.method, headers, body: this.body, signal: abort });
      let response: Dispatcher.ResponseData;
      try {
        // undici settles a queued request only once it gets a connection: the race keeps the
        // deadline in force while the call waits for a pool slot.
        response = await raceAbort(pending, abort);
      } catch (error) {
        void pending.then(
          (late) => late.body.destroy(),
          () => undefined,
        );
        throw error;
      }
      status = response.statusCode;
      // Read with the headers, before the body: the register charged as it began this answer,
      // and a body that ends after its midnight does not move the charge to the next day.
      const answeredAt = transport.observeRegisterDate(response.headers.date, started);
      if (answeredAt !== undefined && route.effect === 'charges') this.answeredAt = new Date(answeredAt);
      // awaited here, so that a body that breaks off is caught below, with the status known
      return await this.readAnswer(response, auth, ticket, started);
    } catch (error) {
      if (callerSignal?.aborted) {
        const outcome = (callerSignal.reason as Error | undefined)?.name === 'TimeoutError' ? 'timeout' : 'network';
        this.end(ticket, started, status, 'release', outcome);
        throw callerSignal.reason;
      }
      const cause = safeCause(error);
      const verdict = classifyThrown({
        sent: this.sentAt !== undefined,
        status,
        deadlinePassed: abort.aborted,
        ...(errorCodeOf(error) !== undefined ? { errorCode: errorCodeOf(error)! } : {}),
        ...(cause ? { cause } : {}),
      });
      this.end(ticket, started, status, verdict.breaker, verdict.outcome);
      return this.failureOf(verdict);
    }
  }

  /** The answer's headers are in: the value, or the failure its status and error body make. */
  private async readAnswer(
    response: Dispatcher.ResponseData,
    auth: Credentials,
    ticket: BreakerTicket,
    started: number,
  ): Promise<Attempt<T>> {
    const { spec } = this;
    const status = response.statusCode;
    if ((status >= 200 && status < 300) || spec.alsoOk?.includes(status)) {
      try {
        const answer: RawResponse = { status, headers: response.headers, body: response.body };
        if (this.answeredAt) answer.answeredAt = this.answeredAt;
        const value = await spec.read(answer);
        this.end(ticket, started, status, 'success', 'ok');
        this.openBody = response.body;
        return { value };
      } catch (error) {
        if (!(error instanceof RegisterError && error.code === CLIENT_ERROR_CODES.contract)) throw error;
        response.body.destroy();
        return this.endWithFailure(ticket, started, classifyContractBreach(status, error.detail));
      }
    }

    const bearer = auth.token !== undefined;
    if (status === 401 && bearer) {
      await discard(response.body);
      return this.endWithFailure(ticket, started, classifyHttpAnswer({ status, bearer }), { rejectedToken: auth.token! });
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
    return this.endWithFailure(ticket, started, verdict);
  }

  /**
   * The one place an attempt the breaker let through ends: its ticket is settled and its event
   * emitted, together, so no path can leave a half-open breaker waiting on a ticket nobody settles.
   */
  private end(
    ticket: BreakerTicket,
    started: number,
    status: number,
    breaker: BreakerVerdict,
    outcome: RegisterCallEvent['outcome'],
    retryAfterSeconds?: number,
  ): void {
    ticket[breaker]();
    this.emit(status, outcome, started, retryAfterSeconds);
  }

  private endWithFailure(
    ticket: BreakerTicket,
    started: number,
    verdict: AttemptFailure,
    extra: Partial<Failure> = {},
  ): { failure: Failure } {
    this.end(ticket, started, verdict.error.status, verdict.breaker, verdict.outcome, verdict.error.retryAfterSeconds);
    return this.failureOf(verdict, extra);
  }

  private failureOf(verdict: AttemptFailure, extra: Partial<Failure> = {}): { failure: Failure } {
    return {
      failure: {
        kind: verdict.kind,
        error: { ...verdict.error, route: this.route.name },
        ...(verdict.retryAfterMs !== undefined ? { retryAfterMs: verdict.retryAfterMs } : {}),
        ...extra,
      },
    };
  }

  private emit(status: number, outcome: RegisterCallEvent['outcome'], started: number, retryAfterSeconds?: number): void {
    const { spec } = this;
    const event: RegisterCallEvent = {
      route: this.route.name,
      method: this.route.method,
      status,
      durationMs: performance.now() - started,
      attempt: this.attemptNumber,
      outcome,
      ...(spec.tenant !== undefined ? { tenant: spec.tenant } : {}),
      ...(spec.opts?.requestId !== undefined ? { requestId: spec.opts.requestId } : {}),
      ...(retryAfterSeconds !== undefined ? { retryAfterSeconds } : {}),
    };
    this.transport.emit(event);
    spec.gate?.settled(event);
  }
}
