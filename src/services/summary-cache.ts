/**
 * Optional short cache of title summaries, per tenant (SUMMARY_CACHE_TTL_MS, default 0 = off).
 *
 * Off, every request asks the register again (loaders only de-duplicate within one request).
 * On, a summary a tenant fetched is served to that same tenant for `ttlMs` without a register
 * call, e.g. when a front-end page loads twice. It is never shared across tenants: each tenant
 * gets its own cache. Only found summaries are
 * kept (a "not found" or an error is asked again); at most `maxEntries` per tenant, oldest
 * first out.
 */
import type { TitleSummary } from '../register/contract/wire';

export interface SummaryCacheOptions {
  ttlMs: number;
  /** Per tenant; default 10 000 summaries. */
  maxEntries?: number;
  now?: () => number;
}

export class SummaryCache {
  private readonly entries = new Map<string, { value: TitleSummary; expiresAt: number }>();
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(
    private readonly ttlMs: number,
    options: Omit<SummaryCacheOptions, 'ttlMs'> = {},
  ) {
    this.maxEntries = Math.max(1, options.maxEntries ?? 10_000);
    this.now = options.now ?? Date.now;
  }

  get(titleNumber: string): TitleSummary | undefined {
    const entry = this.entries.get(titleNumber);
    if (!entry) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(titleNumber);
      return undefined;
    }
    return entry.value;
  }

  set(titleNumber: string, value: TitleSummary): void {
    this.entries.delete(titleNumber);
    if (this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next();
      if (!oldest.done) this.entries.delete(oldest.value);
    }
    this.entries.set(titleNumber, { value, expiresAt: this.now() + this.ttlMs });
  }

  get size(): number {
    return this.entries.size;
  }
}

/** One summary cache per tenant, made on first use; none at all when the cache is off. */
export class SummaryCaches {
  private readonly byTenant = new Map<string, SummaryCache>();

  constructor(private readonly options: SummaryCacheOptions) {}

  /** How long a summary is served from the cache (0: the cache is off). */
  get ttlMs(): number {
    return this.options.ttlMs;
  }

  /** The tenant's own cache, or undefined when the cache is off (ttlMs 0). */
  for(tenant: string): SummaryCache | undefined {
    if (!(this.options.ttlMs > 0)) return undefined;
    let cache = this.byTenant.get(tenant);
    if (!cache) {
      cache = new SummaryCache(this.options.ttlMs, this.options);
      this.byTenant.set(tenant, cache);
    }
    return cache;
  }
}
