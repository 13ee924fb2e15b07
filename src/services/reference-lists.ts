/**
 * Reference lists are the same for every caller, so they are cached process-wide: fresh for
 * `ttlMs`, then revalidated with If-None-Match (a 304 costs no body). Concurrent misses share
 * one upstream call.
 */
import type { CallOptions, RegisterClient } from '../register/client';
import { LIST_PATH_PATTERN } from '../register/contract/rules';
import type { DetailedList } from '../register/contract/wire';

/** How long a reference list is served before it is revalidated (REFERENCE_LIST_TTL_MS). */

interface Entry<T> {
  value: T;
  etag?: string;
  checkedAt: number;
}

export class ReferenceListCache {
  private pathsEntry?: Entry<string[]>;
  private readonly lists = new Map<string, Entry<DetailedList>>();
  private readonly pending = new Map<string, Promise<unknown>>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async paths(register: RegisterClient, options: CallOptions): Promise<string[]> {
    if (this.pathsEntry && this.isFresh(this.pathsEntry)) return this.pathsEntry.value;
    return this.once('paths', async () => {
      const paths = await register.listPaths(shared(options));
      this.pathsEntry = { value: paths, checkedAt: this.now() };
      return paths;
    });
  }

  /** The detailed list, or null when discovery does not offer that path (no list call then). */
  async detailed(register: RegisterClient, path: string, options: CallOptions): Promise<DetailedList | null> {
    if (!LIST_PATH_PATTERN.test(path)) return null;
    const offered = await this.paths(register, options);
    if (!offered.includes(path)) return null;
    const cached = this.lists.get(path);
    if (cached && this.isFresh(cached)) return cached.value;
    return this.once(`list:${path}`, async () => {
      const answer = await register.referenceList(path, 'detailed', {
        ...shared(options),
        ...(cached?.etag ? { ifNoneMatch: cached.etag } : {}),
      });
      if (answer.notModified && cached) {
        cached.checkedAt = this.now();
        return cached.value;
      }
      if (answer.notModified) throw new Error('register answered 304 to an unconditional request');
      const list = answer.body;
      this.lists.set(path, { value: list, checkedAt: this.now(), ...(answer.etag ? { etag: answer.etag } : {}) });
      return list;
    });
  }

  private isFresh(entry: Entry<unknown>): boolean {
    return this.now() - entry.checkedAt < this.ttlMs;
  }

  private once<T>(key: string, run: () => Promise<T>): Promise<T> {
    const existing = this.pending.get(key);
    if (existing) return existing as Promise<T>;
    const promise = run().finally(() => this.pending.delete(key));
    this.pending.set(key, promise);
    return promise;
  }
}

/** A call shared by every request waiting on it: no one caller's going away may cancel it for the others. */
function shared(options: CallOptions): CallOptions {
  const { signal: _callerSignal, ...rest } = options;
  return rest;
}
