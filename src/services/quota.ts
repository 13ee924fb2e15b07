/**
 * The register's quota (2,000 calls per organisation per register day) protected from our
 * side, for the organisation as a whole: every attempt is admitted against the shared ledger
 * (storage/quota/store.ts), so all its API clients and all replicas draw on one count. Admission
 * refuses, with no call made:
 * - everything while the register's last 429 for the organisation holds (seen by any replica);
 * - everything once the day's calls are used up;
 * - free reads past the reserve share of the day, so that paid work can still go through;
 * - a client whose token bucket is empty, so that no client burns the day in a burst.
 */
import { CLIENT_ERROR_CODES, type HeldCheck, type QuotaGate, type RegisterCallEvent, RegisterError } from '../register/client';
import { DatabaseUnavailableError } from '../storage/database-unavailable';
import { endOfLondonDay, londonDate, secondsUntilLondonMidnight } from '../register/contract/london-day';
import type { RouteDef } from '../register/contract/routes';
import type { Admission, AdmitRequest, QuotaStore } from '../storage/quota/store';
import { decide } from '../storage/quota/admission-decision';
import { ROUTES } from '../register/contract/routes';
import { leaseKeyOf, QuotaLeases } from './quota-leases';
import type { QuotaPolicy } from './settings';

export { DEFAULT_QUOTA_POLICY, type QuotaPolicy } from './settings';

export interface QuotaUsage {
  /** Register day (YYYY-MM-DD, Europe/London). */
  day: string;
  /** Register calls of the caller's organisation that day, all its API clients and replicas together (token fetches excluded), those counted ahead in leases included. */
  calls: number;
  /** Of `calls`, those counted in other replicas' leases still open: at most this many are not made yet; absent when none. */
  leased?: number;
  /** While every call is refused here (the register's 429, or the day's calls used up): until when. */
  blockedUntil?: Date;
  /** While free reads are refused here (their share of the day used up, or every call refused): until when. */
  freeReadsBlockedUntil?: Date;
}

const londonClock = new Intl.DateTimeFormat('en-GB', {
  timeZone: 'Europe/London',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
  day: 'numeric',
  month: 'long',
});

/**
 * "in 49947 s (at 00:00:00 on 11 March, London time)": the wait in seconds for programs, and the
 * moment for a person, in the register's time zone (whole seconds, rounded up like the wait).
 */
function waitWords(seconds: number, untilMs: number): string {
  const at = new Date(Math.ceil(untilMs / 1000) * 1000);
  const parts = londonClock.formatToParts(at);
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return `in ${seconds} s (at ${get('hour')}:${get('minute')}:${get('second')} on ${get('day')} ${get('month')}, London time)`;
}

/** A call refused here, before it was made: its message speaks to the caller. */
export class QuotaRefusal extends RegisterError {
  override name = 'QuotaRefusal';
}

/** The API client a register client calls for, and the organisation whose quota it draws on. */
export interface QuotaClient {
  id: string;
  organisation: string;
}

export class QuotaGuard {
  private readonly leases: QuotaLeases;

  constructor(
    private readonly store: QuotaStore,
    private readonly policy: QuotaPolicy,
    /** The register's clock: its day is the quota's day. */
    private readonly now: () => Date = () => new Date(),
  ) {
    this.leases = new QuotaLeases(store, { leaseMs: policy.leaseMs ?? 0, leaseCalls: policy.leaseCalls });
  }

  /** At shutdown: the calls of leases in hand that were not used are given back. */
  close(): Promise<void> {
    return this.leases.close();
  }

  /** What one API client's register client tells the quota, and asks of it (see QuotaGate). */
  forClient(client: QuotaClient): QuotaGate {
    const leaseKey = leaseKeyOf(client.organisation, client.id);
    return {
      admit: (route) => this.admit(client, route),
      // A free read with a lease in hand is admitted here and now: no promise, no turn of the loop.
      admitNow: (route) => this.leased(route.name) && this.leases.admitNow(leaseKey, this.now().getTime()),
      refuseIfHeld: (call) => this.refuseIfHeld(client, call),
      settled: (call) => this.settled(client, call),
      rateLimited: (retryAfterSeconds) => this.rateLimited(client, retryAfterSeconds),
    };
  }

  /** Takes back an attempt that never reached the register, or that it did not count. */
  private settled(client: QuotaClient, call: RegisterCallEvent): void {
    // Not counted by the register: never sent, refused by our breaker, unauthenticated or rate-limited.
    if (call.outcome === 'not_sent' || call.outcome === 'circuit_open' || call.status === 401 || call.status === 429) {
      const now = this.now();
      if (this.leased(call.route) && this.leases.giveBack(client.organisation, client.id, now.getTime())) return;
      void this.store.uncount(client.organisation, londonDate(now)).catch(() => undefined);
    }
  }

  /**
   * The register answered 429: every replica refuses the organisation's calls until its
   * Retry-After. Awaited before the caller is answered, so no call of theirs can slip past.
   */
  private async rateLimited(client: QuotaClient, retryAfterSeconds: number | undefined): Promise<number> {
    // Without a Retry-After the register's own day boundary is the only sure answer: wait a minute.
    const seconds = retryAfterSeconds ?? 60;
    await this.store.block(client.organisation, this.now().getTime() + seconds * 1000);
    // This replica's leases end at once; the others' on the store's notice (PostgreSQL), else at their end.
    await this.leases.endAll(client.organisation);
    return seconds;
  }

  /**
   * The organisation's calls today, and until when calls are refused here, by the same rules as
   * admission (storage/quota/admission-decision.ts `decide`): the register's block, then the day's limit, then the
   * free reads' share. A client's own bucket is left out: it is the client's, not the organisation's.
   * `now`: the register's clock as the caller read it, so that its answer and this one name one day.
   */
  async usage(organisation: string, now: Date = this.now()): Promise<QuotaUsage> {
    const day = londonDate(now);
    // This replica's leases end first: its own count is then exact, and `leased` is the others'.
    await this.leases.endAll(organisation);
    const usage = await this.store.usage(organisation, day, now.getTime());
    const { dailyQuota, freeShare } = this.policy;
    const midnight = endOfLondonDay(now).getTime();
    const blocked = Math.max(usage.blockedUntil ?? 0, usage.calls >= dailyQuota ? midnight : 0);
    const freeBlocked = Math.max(blocked, usage.calls >= Math.floor(dailyQuota * freeShare) ? midnight : 0);
    return {
      day,
      calls: usage.calls,
      ...(usage.leased ? { leased: usage.leased } : {}),
      ...(blocked > 0 ? { blockedUntil: new Date(blocked) } : {}),
      ...(freeBlocked > 0 ? { freeReadsBlockedUntil: new Date(freeBlocked) } : {}),
    };
  }

  /** Admits one attempt of a register call for this client, or throws RATE_LIMITED (no request made). */
  private async admit(client: QuotaClient, route: RouteDef): Promise<void> {
    const now = this.now();
    const request = this.admitRequest(client, route.effect === 'none', now);
    let admission = await this.admitOnce(request, route);
    // Calls this replica holds unused in leases count against the day's limits: near a limit they
    // are given back, and the call is asked for again, so that it is refused only when the calls
    // made (and other replicas' leases) leave it no room, as without leases.
    if (admission && !admission.admitted && admission.reason !== 'blocked' && admission.reason !== 'budget') {
      if (this.leases.holds(client.organisation)) {
        await this.leases.endAll(client.organisation);
        admission = await this.admitOnce(request, route);
      }
    }
    if (admission && !admission.admitted) throw this.refusal(admission, route.name, now);
  }

  /** One admission, from a lease for a free read while leasing is on; a ledger that cannot answer refuses as unsent. */
  private admitOnce(request: AdmitRequest, route: RouteDef): Promise<Admission | undefined> {
    const admitting = this.leased(route.name) ? this.leases.admit(request) : this.store.admit(request);
    return admitting.catch((error: unknown) => {
      if (!(error instanceof DatabaseUnavailableError)) throw error;
      // Nothing was sent: a refusal that says so, not an unknown outcome.
      throw new RegisterError({
        status: 0,
        code: CLIENT_ERROR_CODES.serviceUnavailable,
        route: route.name,
        retryAfterSeconds: 5,
        cause: error,
      });
    });
  }

  /** Whether calls of this route are admitted from leases: free reads, while leasing is on. */
  private leased(route: string): boolean {
    return this.leases.on && ROUTES[route as keyof typeof ROUTES]?.effect === 'none';
  }

  /**
   * Before the sign-in a call needs: the refusal its admission would give the organisation as a
   * whole (the register's 429 holds, or the day's calls or the free reads' share are used up),
   * read without counting anything, so that nothing at all, not even a sign-in, goes to the
   * register for a call that cannot be made. The client's own bucket is left to admission, and
   * so is a ledger that cannot answer: admission decides either way.
   */
  private async refuseIfHeld(client: QuotaClient, call: HeldCheck): Promise<void> {
    const now = this.now();
    // A lease in hand admits the call: the look is the lease's.
    if (call.free && this.leases.on && this.leases.admits(client.organisation, client.id, now.getTime())) return;
    const request = { ...this.admitRequest(client, call.free, now), burst: 0 };
    const usage = await this.store.usage(client.organisation, request.day, request.now).catch(() => undefined);
    if (!usage) return;
    const state = { calls: usage.calls, blockedUntil: usage.blockedUntil ?? 0, tokens: 0, tokensAt: 0 };
    const { admission } = decide(request, state, msToLondonMidnight(request.now));
    if (!admission.admitted) throw this.refusal(admission, call.route, now);
  }

  private admitRequest(client: QuotaClient, free: boolean, now: Date): AdmitRequest {
    const { dailyQuota, freeShare, clientBurst, clientPerMinute } = this.policy;
    return {
      organisation: client.organisation,
      client: client.id,
      day: londonDate(now),
      now: now.getTime(),
      free,
      freeLimit: Math.floor(dailyQuota * freeShare),
      dailyLimit: dailyQuota,
      burst: clientBurst,
      perMs: clientPerMinute / 60_000,
    };
  }

  /** A refusal's words, for the caller: why, and until when (in seconds and London time). */
  private refusal(admission: Extract<Admission, { admitted: false }>, route: string, now: Date): QuotaRefusal {
    const { dailyQuota, freeShare, clientBurst, clientPerMinute } = this.policy;
    const seconds = Math.max(1, Math.ceil(admission.retryAfterMs / 1000));
    // The day's refusals end at London midnight exactly; the store's wait is rounded up to a second.
    const midnight = admission.reason === 'daily' || admission.reason === 'reserve';
    const wait = waitWords(seconds, midnight ? endOfLondonDay(now).getTime() : now.getTime() + admission.retryAfterMs);
    const detail = {
      blocked: `The register refused this organisation's calls (429); they are refused here until it allows them again, ${wait}.`,
      daily: `This organisation has used its ${dailyQuota} register calls for today; they start again at midnight (Europe/London), ${wait}.`,
      reserve: `Free reads have used their share (${Math.round(freeShare * 100)}%) of this organisation's ${dailyQuota} register calls today; the rest is kept for purchases, orders, cases and deeds. Free reads start again at midnight (Europe/London), ${wait}.`,
      budget: `This API client made too many register calls in a short time (at most ${clientBurst} at once, then ${clientPerMinute} a minute); retry ${wait}.`,
    }[admission.reason];
    return new QuotaRefusal({ status: 429, code: 'TOO_MANY_REQUESTS', route, detail, retryAfterSeconds: seconds });
  }
}

/** Milliseconds from `now` to the next London midnight. */
export const msToLondonMidnight = (now: number): number => secondsUntilLondonMidnight(new Date(now)) * 1000;
