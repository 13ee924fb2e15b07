/**
 * Consecutive-failure circuit breaker, one per register origin (per RegisterTransport).
 *
 * - closed: every call passes; N consecutive failures (5xx, timeouts, network errors — never
 *   4xx) open it. An attempt sent and still unanswered after `slowMs` counts as a failure then,
 *   without waiting for its own timeout, and `slowThreshold` such slow attempts with no success
 *   between them open it even before N: when the register hangs, the first three callers open the
 *   breaker within `slowMs`, not after their retries or a full call deadline each.
 * - open: calls fail fast with CIRCUIT_OPEN until `openMs` has passed (`retryAfterMs` says how
 *   long is left, for the caller's `retryAfterSeconds`).
 * - half_open: exactly one trial call passes; its failure (or its being slow) opens it again for
 *   another `openMs`. Its success closes the breaker only when it went to a route whose failures
 *   opened it, and the sign-in only when it alone failed: the register's sign-in answering proves
 *   nothing about its data routes, which can hang while it works. A trial on another route that succeeds frees the trial slot for the next
 *   call. Other calls still fail fast meanwhile. `openMs` is short, so that the breaker tries the
 *   register again soon after it is back.
 *
 * The breaker remembers the routes that failed and the last failed data call that may be sent
 * again (one without effect), else the last such call at all: `/ready` re-sends it as the trial
 * when no caller comes (observability/health.ts).
 *
 * Results of calls admitted before the breaker opened are ignored once it is open, so a
 * straggler's success cannot close it behind the trial's back.
 *
 * Not cockatiel's CircuitBreakerPolicy: its half-open state lets any call be the trial and closes
 * on that call's success, and it has no slow attempt that counts before its own timeout, nor any
 * notion of which route failed. Those are this breaker's decisions (a trial must prove the route
 * that failed; a call that charges is never sent again as a trial), which test/register/
 * breaker-trials.test.ts and test/server/data-route-hang.test.ts hold; a breaker that closes on
 * any success fails them (a register whose sign-in answers while its data routes hang).
 */

import { ROUTES } from '../contract/routes';

export type BreakerState = 'closed' | 'open' | 'half_open';

/** The sign-in: its answering proves only itself, never the data routes behind it. */
const SIGN_IN = ROUTES.token.name;

export interface BreakerOptions {
  failureThreshold: number;
  openMs: number;
  /** An attempt unanswered this long after it was sent counts as a failure; absent: only its end counts. */
  slowMs?: number;
  /** Slow attempts, with no success between them, that open the breaker (default 3); they count towards `failureThreshold` too. */
  slowThreshold?: number;
  now?: () => number;
}

export const DEFAULT_BREAKER = { failureThreshold: 5, openMs: 1_000, slowMs: 5_000, slowThreshold: 3 } as const;

/** The call a ticket admits, as the breaker sees it. */
export interface BreakerCall {
  /** The register route it goes to (ROUTES' name). */
  readonly routeName: string;
  /** It has no effect, so sending it again is harmless: a trial `/ready` may make when no caller comes. */
  readonly resendable: boolean;
  /** Sends the same call again, from its first attempt, for no caller. */
  resend(): Promise<unknown>;
}

/** Admission to one call; settle it exactly once. */
export interface BreakerTicket {
  /** The request was written: from now on the wait is the register's, and `slowMs` runs. */
  sent(): void;
  success(): void;
  failure(): void;
  /** The call ended without telling anything about the origin (e.g. the caller aborted). */
  release(): void;
}

export class CircuitBreaker {
  private mode: 'closed' | 'open' = 'closed';
  private failures = 0;
  private openedAt = 0;
  private trialInFlight = false;
  /** When the half-open trial was admitted: it decides within `slowMs` of it (and its sending). */
  private trialAt = 0;
  /** Slow attempts counted since the last success. */
  private slowFailures = 0;
  /** The routes whose failures were counted since the last success: a trial must prove one of them. */
  private readonly failed = new Set<string>();
  /** The last counted failure of a data route that may be sent again (no effect); cleared when the breaker closes. */
  private failedCall: BreakerCall | undefined;
  /** The last data call that may be sent again, whatever its end: the trial when only calls with an effect failed. */
  private lastRead: BreakerCall | undefined;
  /** Bumped on every transition, so tickets from an older phase are ignored. */
  private generation = 0;
  private readonly now: () => number;

  constructor(private readonly opts: BreakerOptions) {
    this.now = opts.now ?? (() => performance.now());
  }

  state(): BreakerState {
    if (this.mode === 'closed') return 'closed';
    return this.now() - this.openedAt >= this.opts.openMs ? 'half_open' : 'open';
  }

  /**
   * How long a refused call should wait before it is sent again: the rest of the open period,
   * or, while a trial is out, until it must have answered. 0 when calls pass.
   */
  retryAfterMs(): number {
    const state = this.state();
    if (state === 'closed') return 0;
    if (state === 'open') return this.openedAt + this.opts.openMs - this.now();
    if (!this.trialInFlight) return 0;
    return Math.max(0, this.trialAt + (this.opts.slowMs ?? this.opts.openMs) - this.now());
  }

  /**
   * A ticket when the call may go ahead, undefined when it must fail fast. `call`: what it is;
   * without one (tests of the bookkeeping alone), any trial's success closes the breaker.
   */
  acquire(call?: BreakerCall): BreakerTicket | undefined {
    const state = this.state();
    if (state === 'closed') return new Ticket(this, this.generation, false, call);
    if (state === 'open' || this.trialInFlight) return undefined;
    this.trialInFlight = true;
    this.trialAt = this.now();
    return new Ticket(this, this.generation, true, call);
  }

  /**
   * Whether a trial of `call` that succeeded shows the register answers again: it went where calls
   * failed. When none of the data calls that failed may be sent again (they charge or create),
   * another data route answering is the evidence there can be.
   */
  private proves(call: BreakerCall | undefined): boolean {
    if (call === undefined || this.failed.size === 0) return true;
    if (call.routeName === SIGN_IN) return this.failed.size === 1 && this.failed.has(SIGN_IN);
    return this.failed.has(call.routeName) || this.failedCall === undefined;
  }

  /** The routes whose failures count now (since the last success), sorted: what a trial must prove. */
  failedRoutes(): string[] {
    return [...this.failed].sort();
  }

  /**
   * The call `/ready` may send again as the trial, while the breaker is not closed: the last failed
   * data call without effect, else (only calls with an effect failed) the last data call without effect.
   */
  trialCall(): BreakerCall | undefined {
    return this.mode === 'closed' ? undefined : (this.failedCall ?? this.lastRead);
  }

  /** @internal The slow-attempt threshold tickets start when their request is written. */
  get slowMs(): number | undefined {
    return this.opts.slowMs;
  }

  /** @internal Whether a ticket of this phase still counts. */
  current(generation: number): boolean {
    return generation === this.generation;
  }

  /** @internal A ticket's outcome, when it is the first word of a ticket of the current phase. */
  settle(generation: number, trial: boolean, outcome: 'success' | 'failure' | 'release' | 'slow', call: BreakerCall | undefined): void {
    if (generation !== this.generation) return;
    if (outcome === 'success') {
      if (call?.resendable && call.routeName !== SIGN_IN) this.lastRead = call;
      if (!trial) {
        if (this.mode === 'closed') this.close();
      } else if (this.proves(call)) this.close();
      // a healthy route answered: it proves nothing of the failing ones, and the next call may try them
      else this.trialInFlight = false;
    } else if (outcome === 'release') {
      if (trial) this.trialInFlight = false;
    } else {
      if (call) {
        this.failed.add(call.routeName);
        if (call.resendable && call.routeName !== SIGN_IN) this.failedCall = call;
      }
      if (trial) this.open();
      else if (this.mode === 'closed') {
        this.failures++;
        if (outcome === 'slow') this.slowFailures++;
        const slowThreshold = this.opts.slowThreshold ?? DEFAULT_BREAKER.slowThreshold;
        if (this.failures >= this.opts.failureThreshold || this.slowFailures >= slowThreshold) this.open();
      }
    }
  }

  private open(): void {
    this.mode = 'open';
    this.openedAt = this.now();
    this.trialInFlight = false;
    this.failures = 0;
    this.slowFailures = 0;
    this.generation++;
  }

  private close(): void {
    if (this.mode !== 'closed') this.generation++;
    this.mode = 'closed';
    this.failures = 0;
    this.slowFailures = 0;
    this.failed.clear();
    this.failedCall = undefined;
    this.trialInFlight = false;
  }
}

/**
 * One call's admission: its first word counts, later ones are ignored; once sent, an attempt
 * unanswered after `slowMs` is counted as a failure there and then, and its end adds nothing more.
 * A class, not closures: one is made per register call.
 */
class Ticket implements BreakerTicket {
  private settled = false;
  /** Counted as a failure when it became slow. */
  private counted = false;
  private slow: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly breaker: CircuitBreaker,
    private readonly generation: number,
    private readonly trial: boolean,
    private readonly call: BreakerCall | undefined,
  ) {}

  sent(): void {
    const slowMs = this.breaker.slowMs;
    if (this.settled || this.slow !== undefined || slowMs === undefined) return;
    this.slow = setTimeout(() => this.becameSlow(), slowMs);
    this.slow.unref?.();
  }

  success(): void {
    this.once('success');
  }

  failure(): void {
    if (this.counted) this.once('release');
    else this.once('failure');
  }

  release(): void {
    this.once('release');
  }

  private becameSlow(): void {
    if (this.settled || !this.breaker.current(this.generation)) return;
    this.counted = true;
    this.breaker.settle(this.generation, this.trial, 'slow', this.call);
  }

  private once(outcome: 'success' | 'failure' | 'release'): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.slow);
    this.breaker.settle(this.generation, this.trial, outcome, this.call);
  }
}
