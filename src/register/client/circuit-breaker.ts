/**
 * Consecutive-failure circuit breaker, one per register origin (per RegisterTransport).
 *
 * - closed: every call passes; N consecutive failures (5xx, timeouts, network errors — never
 *   4xx) open it.
 * - open: calls fail fast with CIRCUIT_OPEN until `openMs` has passed.
 * - half_open: exactly one trial call passes; its success closes the breaker, its failure
 *   opens it again for another `openMs`. Other calls still fail fast meanwhile.
 *
 * Results of calls admitted before the breaker opened are ignored once it is open, so a
 * straggler's success cannot close it behind the trial's back.
 */

export type BreakerState = 'closed' | 'open' | 'half_open';

export interface BreakerOptions {
  failureThreshold: number;
  openMs: number;
  now?: () => number;
}

export const DEFAULT_BREAKER = { failureThreshold: 5, openMs: 10_000 } as const;

/** Admission to one call; settle it exactly once. */
export interface BreakerTicket {
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

  /** A ticket when the call may go ahead, undefined when it must fail fast. */
  acquire(): BreakerTicket | undefined {
    const state = this.state();
    if (state === 'closed') return this.ticket(this.generation, false);
    if (state === 'open' || this.trialInFlight) return undefined;
    this.trialInFlight = true;
    return this.ticket(this.generation, true);
  }

  private ticket(generation: number, trial: boolean): BreakerTicket {
    return new Ticket(this, generation, trial);
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

/** One call's admission: its first word counts, later ones are ignored. A class, not closures: one is made per register call. */
class Ticket implements BreakerTicket {
  private settled = false;

  constructor(
    private readonly breaker: CircuitBreaker,
    private readonly generation: number,
    private readonly trial: boolean,
  ) {}

  success(): void {
    this.once('success');
  }

  failure(): void {
    this.once('failure');
  }

  release(): void {
    this.once('release');
  }

  private once(outcome: 'success' | 'failure' | 'release'): void {
    if (this.settled) return;
    this.settled = true;
    this.breaker.settle(this.generation, this.trial, outcome);
  }
}
