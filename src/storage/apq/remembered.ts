import type { ApqStore } from './store';

/** What one replica remembers of the shared store: at most `max` entries, oldest out first. */
export class RememberedApqStore implements ApqStore {
  private readonly memory = new Map<string, string>();

  constructor(
    private readonly shared: ApqStore,
    private readonly max = 1_000,
  ) {}

  async get(organisation: string, hash: string): Promise<string | undefined> {
    const key = `${organisation}\u0000${hash}`;
    const known = this.memory.get(key);
    if (known !== undefined) return known;
    const query = await this.shared.get(organisation, hash);
    if (query !== undefined) this.remember(key, query);
    return query;
  }

  async set(organisation: string, hash: string, query: string): Promise<boolean> {
    const kept = await this.shared.set(organisation, hash, query);
    if (kept) this.remember(`${organisation}\u0000${hash}`, query);
    return kept;
  }

  private remember(key: string, query: string) {
    if (this.memory.size >= this.max) this.memory.delete(this.memory.keys().next().value!);
    this.memory.set(key, query);
  }

  purge(olderThan: number): Promise<number> {
    this.memory.clear();
    return this.shared.purge(olderThan);
  }

  close(): Promise<void> {
    return this.shared.close();
  }
}
