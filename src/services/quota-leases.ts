/**
 * Leases of the quota ledger: rather than a durable write before every free read, a replica takes
 * a block of calls from the shared ledger in one write (counted in full when taken), admits calls
 * from it in memory, and gives back what it did not use when the lease ends. The count is written
 * ahead of the calls, never behind them, so the ledger's count is never below the calls the
 * register has seen: a replica that dies with a lease in hand leaves its unused calls counted.
 *
 * A lease ends at the first of: its lifetime (QUOTA_LEASE_MS), its register day's end, its calls
 * used up, a 429 from the register (this replica's, at once; another replica's on PostgreSQL at
 * once through NOTIFY, else at the lease's end), a purchase that finds the day's calls at the free
 * reads' share with leases open (on PostgreSQL, the same NOTIFY), or the replica's shutdown. Its
 * size follows what this replica used in the last lease's lifetime (twice that, from 1 up to the
 * QUOTA_LEASE_CALLS bound), and the ledger grants at most a quarter of what is left before the next
 * limit, nor more than the client's bucket holds (admission-decision.ts): leases shrink to one call.
 *
 * Calls that charge or create are not leased: they are few, each is admitted on its own.
 * Hand-written: a lease is the ledger's own rule (its limits and buckets), which no rate-limit
 * library models; the pattern is YouTube's Doorman and Envoy's rate-limit quota service.
 */
import { randomUUID } from 'node:crypto';
import { endOfLondonDay } from '../register/contract/london-day';
import type { Admission, AdmitRequest, QuotaStore } from '../storage/quota/store';

/** Why the ledger refused a call: the refusal admission gives. */
type Refusal = Extract<Admission, { admitted: false }>;

/** The bound on a lease's size when QUOTA_LEASE_CALLS is not set (the adaptive size's ceiling). */
export const MAX_ADAPTIVE_LEASE_CALLS = 50;

export interface LeaseSettings {
  /** A lease's lifetime (QUOTA_LEASE_MS); 0 turns leasing off: every call is admitted on its own. */
  leaseMs: number;
  /** A lease's size, fixed (QUOTA_LEASE_CALLS); absent: adaptive, at most MAX_ADAPTIVE_LEASE_CALLS. */
  leaseCalls?: number | undefined;
}

interface Lease {
  id: string;
  organisation: string;
  client: string;
  burst: number;
  day: string;
  /** Its lifetime's end or its register day's, whichever comes first (by the register's clock). */
  endsAt: number;
  /** Calls granted, and those of them admitted so far. */
  granted: number;
  used: number;
  timer: NodeJS.Timeout;
}

export class QuotaLeases {
  /** The lease in hand of each (organisation, client): one at a time. */
  private readonly held = new Map<string, Lease>();
  /** A lease being taken: callers that need one meanwhile wait for it rather than take their own. */
  private readonly taking = new Map<string, Promise<Admission>>();
  /** Calls used in each key's last lease: the next lease's size follows it. */
  private readonly lastUsed = new Map<string, number>();
  /** Per organisation: the calls asked for by leases being taken (see take). */
  private readonly reserved = new Map<string, number>();
  private readonly unsubscribe: (() => void) | undefined;

  constructor(
    private readonly store: QuotaStore,
    private readonly settings: LeaseSettings,
  ) {
    this.unsubscribe = store.onRecall?.((organisation) => this.endAll(organisation));
  }

  get on(): boolean {
    return this.settings.leaseMs > 0;
  }

  /**
   * Admits one free read of `request`'s client from its lease, taking a new lease when it has
   * none (or its lease is spent or over): undefined when admitted, else the ledger's refusal.
   */
  async admit(request: AdmitRequest): Promise<Refusal | undefined> {
    const key = leaseKeyOf(request.organisation, request.client);
    for (;;) {
      if (this.admitNow(key, request.now)) return undefined;
      let taking = this.taking.get(key);
      if (!taking) {
        taking = this.take(key, request).finally(() => this.taking.delete(key));
        this.taking.set(key, taking);
      }
      const taken = await taking;
      if (!taken.admitted) return taken;
    }
  }

  /** Admits one free read of the key's client from the lease in hand, if it has one with calls left now. */
  admitNow(key: string, now: number): boolean {
    const lease = this.current(key, now);
    if (!lease || lease.used >= lease.granted) return false;
    lease.used++;
    if (lease.used === lease.granted) void this.end(key, lease);
    return true;
  }

  /** Whether a free read of this client would be admitted from its lease now (the look before a sign-in). */
  admits(organisation: string, client: string, now: number): boolean {
    const lease = this.current(leaseKeyOf(organisation, client), now);
    return lease !== undefined && lease.used < lease.granted;
  }

  /** Whether this replica holds calls of the organisation unused in a lease. */
  holds(organisation: string): boolean {
    return this.heldUnused(organisation) > 0;
  }

  /** Gives back one admitted call that never reached the register; false when its lease is over (the ledger then takes it back). */
  giveBack(organisation: string, client: string, now: number): boolean {
    const lease = this.current(leaseKeyOf(organisation, client), now);
    if (!lease || lease.used === 0) return false;
    lease.used--;
    return true;
  }

  /** The register's 429, or a shutdown: every lease of the organisation (or every lease) ends now. */
  async endAll(organisation?: string): Promise<void> {
    const ending = [...this.held].filter(([, lease]) => organisation === undefined || lease.organisation === organisation);
    await Promise.all(ending.map(([key, lease]) => this.end(key, lease)));
  }

  async close(): Promise<void> {
    this.unsubscribe?.();
    await this.endAll();
  }

  /** The key's lease, if it is still good now: its register day, before its expiry. */
  private current(key: string, now: number): Lease | undefined {
    const lease = this.held.get(key);
    if (!lease) return undefined;
    if (now < lease.endsAt) return lease;
    void this.end(key, lease);
    return undefined;
  }

  private async take(key: string, request: AdmitRequest): Promise<Admission> {
    const id = randomUUID();
    const expiresAt = request.now + this.settings.leaseMs;
    const { organisation } = request;
    // The promises are per replica, not per client: all the organisation's clients here hold one
    // lease's calls between them (after a 429 elsewhere, that is what can still go; a replica that
    // dies, what it leaves counted unmade). At the bound, the others give theirs back first.
    const bound = this.settings.leaseCalls ?? MAX_ADAPTIVE_LEASE_CALLS;
    if (this.unusedOf(organisation) >= bound) await this.endAll(organisation);
    const wanted = Math.max(1, Math.min(this.sizeFor(key), bound - this.unusedOf(organisation)));
    this.reserved.set(organisation, (this.reserved.get(organisation) ?? 0) + wanted);
    let admission: Admission;
    try {
      admission = await this.store.admit({ ...request, lease: { id, wanted, expiresAt } });
    } finally {
      const left = this.reserved.get(organisation)! - wanted;
      if (left > 0) this.reserved.set(organisation, left);
      else this.reserved.delete(organisation);
    }
    if (admission.admitted) {
      // Its lifetime is on this replica's clock: the register's clock (request.now) may stand apart.
      const timer = setTimeout(() => void this.end(key, lease), this.settings.leaseMs);
      timer.unref();
      const lease: Lease = {
        id,
        organisation: request.organisation,
        client: request.client,
        burst: request.burst,
        day: request.day,
        endsAt: Math.min(expiresAt, endOfLondonDay(new Date(request.now)).getTime()),
        granted: admission.granted ?? 1,
        used: 0,
        timer,
      };
      this.held.set(key, lease);
    }
    return admission;
  }

  /** The organisation's calls this replica holds unused, and asks for in leases being taken. */
  private unusedOf(organisation: string): number {
    return (this.reserved.get(organisation) ?? 0) + this.heldUnused(organisation);
  }

  /** The organisation's calls unused in the leases this replica holds. */
  private heldUnused(organisation: string): number {
    let unused = 0;
    for (const lease of this.held.values()) if (lease.organisation === organisation) unused += lease.granted - lease.used;
    return unused;
  }

  /** Twice what the last lease's lifetime used, at least one, at most the bound; or the fixed size. */
  private sizeFor(key: string): number {
    if (this.settings.leaseCalls !== undefined) return this.settings.leaseCalls;
    return Math.min(MAX_ADAPTIVE_LEASE_CALLS, Math.max(1, 2 * (this.lastUsed.get(key) ?? 0)));
  }

  private async end(key: string, lease: Lease): Promise<void> {
    if (this.held.get(key) !== lease) return;
    this.held.delete(key);
    clearTimeout(lease.timer);
    this.lastUsed.set(key, lease.used);
    const { organisation, client, day, id, burst } = lease;
    // A give-back that fails leaves the calls counted: above the register's count, never below.
    await this.store.endLease({ organisation, client, day, id, unused: lease.granted - lease.used, burst }).catch(() => undefined);
  }
}

/** The key of one API client's leases of its organisation's quota. */
export const leaseKeyOf = (organisation: string, client: string): string => `${organisation}\u0000${client}`;
