/**
 * Consecutive-failure circuit breaker, one per register origin (per RegisterTransport).
 *
 * - closed: every call passes; N consecutive failures (5xx, timeouts, network errors — never
 *   4xx) open it. An attempt sent and still unanswered after `slowMs` counts as a failure then,
 *   without waiting for its own timeout: when the register hangs, the first few calls open the
 *   breaker within `slowMs`, not after a full call deadline each.
 * - open: calls fail fast with CIRCUIT_OPEN until `openMs` has passed (`retryAfterMs` says how
 *   long is left, for the caller's `retryAfterSeconds`).
 * - half_open: exactly one trial call passes; its success closes the breaker, its failure (or
 *   its being slow) opens it again for another `openMs`. Other calls still fail fast meanwhile.
 *   `openMs` is short, so that the breaker tries the register again soon after it is back.
 *
 * Results of calls admitted before the breaker opened are ignored once it is open, so a
 * straggler's success cannot close it behind the trial's back.
 */

export type BreakerState = 'closed' | 'open' | 'half_open';

export interface BreakerOptions {
  failureThreshold: number;
  openMs: number;
  /** An attempt unanswered this long after it was sent counts as a failure; absent: only its end counts. */
  slowMs?: number;
  now?: () => number;
}

export const DEFAULT_BREAKER = { failureThreshold: 5, openMs: 1_000, slowMs: 5_000 } as const;

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

  /** A ticket when the call may go ahead, undefined when it must fail fast. */
  acquire(): BreakerTicket | undefined {
    const state = this.state();
    if (state === 'closed') return this.ticket(this.generation, false);
    if (state === 'open' || this.trialInFlight) return undefined;
    this.trialInFlight = true;
    this.trialAt = this.now();
    return this.ticket(this.generation, true);
  }

  private ticket(generation: number, trial: boolean): BreakerTicket {
    return new Ticket(this, generation, trial);
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
  settle(generation: number, trial: boolean, outcome: 'success' | 'failure' | 'release'): void {
    if (generation !== this.generation) return;
    if (outcome === 'success') {
      if (trial || this.mode === 'closed') this.close();
    } else if (outcome === 'failure') {
      if (trial) this.open();
      else if (this.mode === 'closed' && ++this.failures >= this.opts.failureThreshold) this.open();
    } else if (trial) this.trialInFlight = false;
  }

  private open(): void {
    this.mode = 'open';
    this.openedAt = this.now();
    this.trialInFlight = false;
    this.failures = 0;
    this.generation++;
  }

  private close(): void {
    if (this.mode !== 'closed') this.generation++;
    this.mode = 'closed';
    this.failures = 0;
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
    this.breaker.settle(this.generation, this.trial, 'failure');
  }

  private once(outcome: 'success' | 'failure' | 'release'): void {
    if (this.settled) return;
    this.settled = true;
    clearTimeout(this.slow);
    this.breaker.settle(this.generation, this.trial, outcome);
  }
}
