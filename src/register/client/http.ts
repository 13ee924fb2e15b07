/**
 * RegisterTransport: what is shared process-wide per register origin — the connection pools,
 * the circuit breaker, the timeouts, the retry policy and the `onCall` hook.
 * It knows HTTP only; tenants (credentials, tokens) live in RegisterClient.
 *
 * Connection pools are per tenant, and downloads have pools of their own: a tenant's slow
 * downloads, or its burst of calls, can only ever wait for its own connections.
 */
import { Agent, type Dispatcher } from 'undici';
import { londonDate, oneLondonDay } from '../contract/london-day';
import { buildPath, type RouteDef } from '../contract/routes';
import { CircuitBreaker, DEFAULT_BREAKER, type BreakerState } from './circuit-breaker';
import { DEFAULT_RETRY, type RetryPolicy } from './retry';
import { DEFAULT_CALL_DEADLINE_MS } from './settings';

export interface RegisterCallEvent {
  route: string;
  method: string;
  /** 0 if no response. */
  status: number;
  durationMs: number;
  /** 1-based attempt number within the call. */
  attempt: number;
  /** `not_sent`: the request never left (no connection, or the deadline passed in the pool queue). */
  outcome: 'ok' | 'http_error' | 'timeout' | 'network' | 'contract' | 'circuit_open' | 'not_sent';
  /** The API client (tenant) the call was made for. */
  tenant?: string;
  /** The caller's request id, when the call served a request. */
  requestId?: string;
  /** Seconds the register asked us to wait (429 or 503 with Retry-After). */
  retryAfterSeconds?: number;
}

/**
 * Wraps one register call, all its attempts included: observability/tracing.ts makes a span
 * active around it, so that the HTTP client's own spans nest under the call's.
 */
export type CallWrapper = <T>(call: { route: string; method: string }, run: () => Promise<T>) => Promise<T>;

export interface RegisterTransportOptions {
  /** Ends with /v1, e.g. http://127.0.0.1:4010/v1 */
  baseUrl: string;
  /** Connections of each tenant's pool for API calls, default 32. */
  connections?: number;
  /** Connections of each tenant's pool for downloads (PDF routes), default 8. */
  downloadConnections?: number;
  /** Defaults 2000 / 10000 / 30000 / 30000. `bodyMs` is the idle time allowed between body chunks. */
  timeouts?: { connectMs?: number; headersMs?: number; bodyMs?: number; deadlineMs?: number };
  /** Attempts when `shouldRetry` allows another (the route's effect decides, not its method); default 3 in total. */
  retry?: { attempts?: number; baseDelayMs?: number; maxDelayMs?: number };
  /** Default 5 consecutive failures (an attempt unanswered 5 s after it was sent is one), 1 s open. */
  breaker?: { failureThreshold?: number; openMs?: number; slowMs?: number };
  /** Once per attempt: metrics, logs, quota counting. Exceptions thrown here are swallowed. */
  onCall?: (e: RegisterCallEvent) => void;
}

/**
 * How sure this service is of the register's day now: `EXACT` when every instant its estimate
 * of the register's clock allows is on one London day; `NEAR_MIDNIGHT` when a London midnight is
 * among them (the register may already be, or still be, on the other day); `MACHINE_CLOCK` before
 * the register has answered once (this machine's clock stands in for it).
 */
export type RegisterDayCertainty = 'EXACT' | 'NEAR_MIDNIGHT' | 'MACHINE_CLOCK';

/** The register's day now, by the estimate of its clock `at`, and how sure of it the estimate is. */
export interface RegisterDay {
  /** YYYY-MM-DD, Europe/London, of `at`. */
  day: string;
  certainty: RegisterDayCertainty;
  /**
   * The latest day the register may be on now (for a purchase, when its call reaches it): `day`,
   * or the day after while that midnight is within the span. Its clock only moves on, so a charge
   * journalled on this day (by its answer's Date) proves the register is on it.
   */
  latestDay: string;
  at: Date;
}

/**
 * What one answer's `Date` header tells of the register's clock, on this machine's monotonic
 * clock (performance.now()), so that this machine's own wall clock, skewed or stepped, plays no part.
 */
interface ClockReading {
  /** The header, in epoch ms: a whole second, the register's clock with its fraction dropped. */
  headerMs: number;
  /** When the attempt began (before it waited for a connection): the header cannot have been made earlier. */
  sentAt: number;
  /** When the header was read: it cannot have been made later. */
  readAt: number;
}

/**
 * How far the register's clock and this machine's monotonic clock may run apart, per unit of
 * time since the reading: 100 ppm, the tolerance of an undisciplined quartz clock (both clocks'
 * together are far less under NTP). Every register call takes a new reading, so this is 6 ms
 * after a quiet minute, 360 ms after a quiet hour.
 */
const CLOCK_RATE_TOLERANCE = 1e-4;

export interface ResolvedTimeouts {
  connectMs: number;
  headersMs: number;
  bodyMs: number;
  deadlineMs: number;
}

/**
 * The longest one register call runs, its attempts and waits for a connection included
 * (REGISTER_CALL_DEADLINE_MS): a call that charges or creates and has no answer by then is
 * OUTCOME_UNKNOWN. The shutdown deadline is kept above it (config/index.ts), so that a deploy waits for
 * such a call rather than cutting it.
 */

/** How long close() waits for in-flight requests before destroying the sockets. */
const CLOSE_GRACE_MS = 1_000;

interface TenantPools {
  api: Agent;
  downloads: Agent;
}

/** The pool key of calls made for no tenant (none today: every client has one). */
const NO_TENANT = '';

export class RegisterTransport {
  /** @internal */ readonly breaker: CircuitBreaker;
  /** @internal */ readonly timeouts: ResolvedTimeouts;
  /** @internal */ readonly retryPolicy: RetryPolicy;
  private readonly base: string;
  private readonly onCall: ((e: RegisterCallEvent) => void) | undefined;
  private closing: Promise<void> | undefined;
  /** The `Date` header of the register's latest answer; unset until one came. */
  private clockReading: ClockReading | undefined;
  /** The latest Date header's text and its time, parsed once for every answer within its second. */
  private lastDateHeader = { text: '', ms: Number.NaN };

  constructor(opts: RegisterTransportOptions) {
    const base = new URL(opts.baseUrl);
    if (base.search || base.hash) throw new Error('RegisterTransport baseUrl must not carry a query or fragment');
    this.base = base.href.replace(/\/+$/, '');
    this.timeouts = {
      connectMs: opts.timeouts?.connectMs ?? 2_000,
      headersMs: opts.timeouts?.headersMs ?? 10_000,
      bodyMs: opts.timeouts?.bodyMs ?? 30_000,
      deadlineMs: opts.timeouts?.deadlineMs ?? DEFAULT_CALL_DEADLINE_MS,
    };
    this.retryPolicy = {
      attempts: Math.max(1, opts.retry?.attempts ?? DEFAULT_RETRY.attempts),
      baseDelayMs: opts.retry?.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs,
      maxDelayMs: opts.retry?.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs,
    };
    this.breaker = new CircuitBreaker({
      failureThreshold: opts.breaker?.failureThreshold ?? DEFAULT_BREAKER.failureThreshold,
      openMs: opts.breaker?.openMs ?? DEFAULT_BREAKER.openMs,
      slowMs: opts.breaker?.slowMs ?? DEFAULT_BREAKER.slowMs,
    });
    this.onCall = opts.onCall;
    this.connections = { api: opts.connections ?? 32, downloads: opts.downloadConnections ?? 8 };
  }

  private readonly connections: { api: number; downloads: number };
  private readonly pools = new Map<string, TenantPools>();

  private agent(connections: number): Agent {
    return new Agent({
      connections,
      keepAliveTimeout: 4_000,
      keepAliveMaxTimeout: 60_000,
      connect: { timeout: this.timeouts.connectMs },
      headersTimeout: this.timeouts.headersMs,
      bodyTimeout: this.timeouts.bodyMs,
    });
  }

  /** @internal The tenant's pool for this kind of call, created on first use. */
  dispatcher(tenant: string | undefined, kind: 'api' | 'downloads'): Dispatcher {
    const key = tenant ?? NO_TENANT;
    let pools = this.pools.get(key);
    if (!pools) {
      pools = { api: this.agent(this.connections.api), downloads: this.agent(this.connections.downloads) };
      this.pools.set(key, pools);
    }
    return pools[kind];
  }

  /** State of this origin's circuit breaker. */
  breakerState(): BreakerState {
    return this.breaker.state();
  }

  /**
   * The register's time now, as its latest `Date` header tells (its day, not ours, decides
   * charging and document expiry): the header's second, plus half a second for the fraction it
   * dropped, plus the time since it was read. Until the register has answered once this is only
   * this machine's clock: see `knowsRegisterClock` (RegisterClient.registerNow asks the register
   * first). A charge's own day is never taken from here, but from its answer (`Answered.answeredAt` in responses.ts).
   */
  registerNow(): Date {
    const reading = this.clockReading;
    if (!reading) return new Date();
    return new Date(reading.headerMs + 500 + (performance.now() - reading.readAt));
  }

  /**
   * The register's day now, and whether it is known. The header was made by the register's clock
   * at some moment between `sentAt` and `readAt`, and its clock then read between the header and
   * one second later. So its clock now is at least header + (now − readAt), and below header +
   * 1 s + (now − sentAt): a span of 1 s plus the round trip of the latest answer (its wait for a
   * connection included), widened by CLOCK_RATE_TOLERANCE since. `forPurchase`: the day asked
   * about is the one a call sent now is charged on, which reaches the register at the latest by
   * the call deadline (its attempts and waits included), so the span reaches that much further.
   * When a London midnight lies in the span the day is NEAR_MIDNIGHT: what was charged "today"
   * may be charged again.
   */
  registerDay(forPurchase = false): RegisterDay {
    const reading = this.clockReading;
    if (!reading) {
      const at = new Date();
      return { day: londonDate(at), certainty: 'MACHINE_CLOCK', latestDay: londonDate(at), at };
    }
    const now = performance.now();
    const drift = (now - reading.sentAt) * CLOCK_RATE_TOLERANCE;
    const ahead = forPurchase ? this.timeouts.deadlineMs : 0;
    const earliest = new Date(reading.headerMs + (now - reading.readAt) - drift);
    const latest = new Date(reading.headerMs + 1_000 + (now - reading.sentAt) + drift + ahead);
    const at = new Date(reading.headerMs + 500 + (now - reading.readAt));
    const certainty = oneLondonDay(earliest, latest) ? 'EXACT' : 'NEAR_MIDNIGHT';
    return { day: londonDate(at), certainty, latestDay: londonDate(new Date(latest.getTime() - 1)), at };
  }

  /** True once an answer of the register has told its clock. */
  get knowsRegisterClock(): boolean {
    return this.clockReading !== undefined;
  }

  /**
   * @internal An answer's `Date` header has come, for an attempt begun at `sentAt`
   * (performance.now()): the register's clock as it answered (ms since the epoch), if the header is one.
   */
  observeRegisterDate(value: string | string[] | undefined, sentAt: number): number | undefined {
    const text = Array.isArray(value) ? (value[0] ?? '') : (value ?? '');
    // A Date header names a whole second: every answer within it carries the same text, parsed once.
    if (text !== this.lastDateHeader.text) this.lastDateHeader = { text, ms: Date.parse(text) };
    const at = this.lastDateHeader.ms;
    if (Number.isNaN(at)) return undefined;
    this.clockReading = { headerMs: at, sentAt, readAt: performance.now() };
    return at;
  }

  /** True once close() has been called. */
  get closed(): boolean {
    return this.closing !== undefined;
  }

  /**
   * Closes the keep-alive pool. In-flight requests get a short grace period, then their
   * sockets are destroyed, so this resolves promptly even with hung upstream requests.
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      const agents = [...this.pools.values()].flatMap((p) => [p.api, p.downloads]);
      let timer: NodeJS.Timeout | undefined;
      const graceful = Promise.all(agents.map((a) => a.close())).then(() => true);
      const expired = new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), CLOSE_GRACE_MS);
      });
      const done = await Promise.race([graceful, expired]);
      clearTimeout(timer);
      if (!done) await Promise.all(agents.map((a) => a.destroy().catch(() => undefined)));
    })();
    return this.closing;
  }

  /** @internal Absolute URL of a route. Never put this into an error or a log: it can carry `fas`. */
  url(route: RouteDef, params?: Record<string, string>, query?: Record<string, string | undefined>): string {
    let url = this.base + buildPath(route, params);
    if (query) {
      const qs = new URLSearchParams();
      for (const [k, v] of Object.entries(query)) if (v !== undefined) qs.append(k, v);
      const s = qs.toString();
      if (s) url += `?${s}`;
    }
    return url;
  }

  /** @internal Set by wrapCalls. */
  callWrapper: CallWrapper | undefined;

  /** Every call from now on runs inside `wrapper` (undefined: none). */
  wrapCalls(wrapper: CallWrapper | undefined): void {
    this.callWrapper = wrapper;
  }

  /** @internal */
  emit(e: RegisterCallEvent): void {
    if (!this.onCall) return;
    try {
      this.onCall(e);
    } catch {
      // a metrics hook must never break a register call
    }
  }
}
