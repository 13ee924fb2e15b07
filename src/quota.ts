/**
 * The register's quota (2,000 calls per organisation per register day) protected from our
 * side: every call is counted per tenant and register day (Europe/London), and once the
 * register has answered 429, further calls for that tenant fail fast with RATE_LIMITED until
 * its Retry-After has passed, so a busy front end cannot dig the hole deeper.
 */
import type { EventHub } from './events';
import { RegisterError } from './register';
import { londonDate } from './register/london-day';

export interface QuotaUsage {
  /** Register day (YYYY-MM-DD, Europe/London). */
  day: string;
  /** Register calls made for the tenant that day (token fetches excluded). */
  calls: number;
  /** When the register last said 429, the instant until which calls are refused here. */
  blockedUntil?: Date;
}

export class QuotaGuard {
  private readonly usageByTenant = new Map<string, { day: string; calls: number }>();
  private readonly blockedUntil = new Map<string, number>();

  constructor(private readonly now: () => Date = () => new Date()) {}

  /** Counts the calls and remembers 429s, from the service's register-call events. */
  observe(events: EventHub): void {
    events.on('registerCall', (call) => {
      if (!call.tenant || call.route === 'token' || call.outcome === 'circuit_open' || call.outcome === 'not_sent') return;
      const day = londonDate(this.now());
      const usage = this.usageByTenant.get(call.tenant);
      if (usage?.day === day) usage.calls++;
      else this.usageByTenant.set(call.tenant, { day, calls: 1 });
      if (call.status === 429) {
        // Without a Retry-After the register's own day boundary is the only sure answer: wait a minute.
        const seconds = call.retryAfterSeconds ?? 60;
        this.blockedUntil.set(call.tenant, this.now().getTime() + seconds * 1000);
      }
    });
  }

  usage(tenant: string): QuotaUsage {
    const day = londonDate(this.now());
    const usage = this.usageByTenant.get(tenant);
    const until = this.blockedUntil.get(tenant);
    return {
      day,
      calls: usage?.day === day ? usage.calls : 0,
      ...(until !== undefined && until > this.now().getTime() ? { blockedUntil: new Date(until) } : {}),
    };
  }

  /** Throws RATE_LIMITED (no request made) while the register's last 429 for this tenant holds. */
  check(tenant: string, route: string): void {
    const until = this.blockedUntil.get(tenant);
    if (until === undefined) return;
    const remainingMs = until - this.now().getTime();
    if (remainingMs <= 0) {
      this.blockedUntil.delete(tenant);
      return;
    }
    throw new RegisterError({
      status: 429,
      code: 'TOO_MANY_REQUESTS',
      route,
      detail: 'the register quota is exhausted; refused here without a call',
      retryAfterSeconds: Math.ceil(remainingMs / 1000),
    });
  }
}
