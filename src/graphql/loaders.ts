/**
 * Per-request DataLoaders. The register has no batch endpoint, so loads are de-duplicated by
 * DataLoader and made one call per distinct title, at most `concurrency` at a time. Each key
 * resolves as soon as its own call answers (no batch waits for its slowest member), so a
 * `titles` page streamed with @stream sends its first item after one register round trip.
 * Loaders are created per request (and so per tenant): nothing is cached across requests, except
 * summaries when the optional per-tenant summary cache is on (src/services/summary-cache.ts).
 */
import DataLoader from 'dataloader';
import pLimit, { type LimitFunction } from 'p-limit';
import { graphQLErrorFromRegister } from './errors';
import { RegisterError, type CallOptions, type RegisterClient } from '../register/client';
import type { SecuritiesResponse, TitleSummary } from '../register/contract/wire';
import type { SummaryCache } from '../services/summary-cache';

export interface Loaders {
  titleSummary: DataLoader<string, TitleSummary | null>;
  securities: DataLoader<string, SecuritiesResponse | null>;
}

/** A loader whose "not found" is null and whose other failures are per-key GraphQL errors. */
function registerLoader<V>(limit: LazyLimit, load: (key: string) => Promise<V>): DataLoader<string, V | null> {
  // batch: false: each key is its own call anyway; batching would only hold every key of a
  // batch until the last one answered.
  return new DataLoader<string, V | null>(
    async ([key]) => [
      await limit.run(async () => {
        try {
          return await load(key!);
        } catch (error) {
          if (error instanceof RegisterError) {
            return error.code === 'TITLE_NOT_FOUND' ? null : graphQLErrorFromRegister(error);
          }
          return error instanceof Error ? error : new Error(String(error));
        }
      }),
    ],
    { batch: false },
  );
}

/** With the optional per-tenant summary cache (SUMMARY_CACHE_TTL_MS), a fresh summary costs no call. */
function cachedSummaries(
  cache: SummaryCache | undefined,
  load: (n: string) => Promise<TitleSummary>,
): (n: string) => Promise<TitleSummary> {
  if (!cache) return load;
  return async (n) => {
    const hit = cache.get(n);
    if (hit) return hit;
    const summary = await load(n);
    cache.set(n, summary);
    return summary;
  };
}

/**
 * At most `concurrency` loads at a time. The first load starts at once, outside any queue: most
 * requests load one title, and making a p-limit costs more than the request's own GraphQL work
 * (~8 µs, docs/performance.md). A p-limit is made when a load comes while that first one runs,
 * with the slots it leaves; once it ends, the queue has them all. A class, not closures: two are
 * made per request, and under tsx each named closure costs a defineProperty (keepNames).
 */
class LazyLimit {
  private limit: LimitFunction | undefined;
  private firstRunning = false;

  constructor(private readonly concurrency: number) {}

  run<T>(task: () => Promise<T>): Promise<T> {
    if (!this.limit && !this.firstRunning && this.concurrency > 1) {
      this.firstRunning = true;
      const running = task();
      running.then(
        () => this.firstEnded(),
        () => this.firstEnded(),
      );
      return running;
    }
    this.limit ??= pLimit(this.firstRunning ? this.concurrency - 1 : this.concurrency);
    return this.limit(task);
  }

  private firstEnded(): void {
    this.firstRunning = false;
    if (this.limit) this.limit.concurrency = this.concurrency;
  }
}

export function createLoaders(register: RegisterClient, concurrency: number, options: CallOptions, summaryCache?: SummaryCache): Loaders {
  // A bound each: summaries and their securities listings are fetched side by side.
  return {
    titleSummary: registerLoader(
      new LazyLimit(concurrency),
      cachedSummaries(summaryCache, async (n) => (await register.titleSummary(n, options)).data),
    ),
    securities: registerLoader(new LazyLimit(concurrency), (n) => register.securities(n, options)),
  };
}
