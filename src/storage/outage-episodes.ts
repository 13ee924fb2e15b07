/**
 * One database's outages as episodes: told once when the first refusal comes and once when it is
 * over, never once per request it refuses, to whoever listens (the log). An episode is over when
 * the database has taken work again and gone `quietMs` without another refusal: a nearly full disk
 * or a flapping network takes some statements and refuses the next, and one episode is still one
 * pair of lines. Whether it takes work right now (`working`) is another question, readiness's,
 * answered at once.
 */
import type { DatabaseOutage, DatabaseUnavailableError } from './database-unavailable';

/** How long the database must go without a refusal, having taken work, before an episode is over. */
const QUIET_MS = 10_000;

export type OutageEvent =
  | { kind: 'outage'; reason: DatabaseOutage; error: DatabaseUnavailableError }
  | { kind: 'recovered'; reason: DatabaseOutage; downMs: number };

export class OutageEpisodes {
  private episode: { error: DatabaseUnavailableError; since: number; lastFailure: number; working: boolean } | undefined;
  private readonly listeners = new Set<(event: OutageEvent) => void>();
  /** QUIET_MS (tests shorten it). */
  quietMs = QUIET_MS;

  constructor(protected readonly now: () => number = Date.now) {}

  /** The outage under way, if any. */
  get outage(): DatabaseUnavailableError | undefined {
    return this.episode?.error;
  }

  /** No outage, or the database took work after its last refusal (its episode may not be over yet). */
  get working(): boolean {
    return this.episode?.working ?? true;
  }

  on(listener: (event: OutageEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The database refused work: the episode starts with the first refusal. */
  refused(error: DatabaseUnavailableError): void {
    const at = this.now();
    if (this.episode) {
      this.episode.lastFailure = at;
      this.episode.working = false;
      return;
    }
    this.episode = { error, since: at, lastFailure: at, working: false };
    this.tell({ kind: 'outage', reason: error.reason, error });
  }

  /** Now, by this record's clock: when a statement is sent, for worked(). */
  stamp(): number {
    return this.now();
  }

  /**
   * The database took work (a write committed, a query answered). `sentAt` (stamp()): when the
   * statement was sent; one sent before the episode began says nothing about its end (it may have
   * run on a connection the outage had not reached yet), so it neither ends the episode nor counts
   * as working.
   */
  worked(sentAt?: number): void {
    const episode = this.episode;
    if (!episode) return;
    if (sentAt !== undefined && sentAt < episode.since) return;
    episode.working = true;
    if (this.now() - episode.lastFailure < this.quietMs) return;
    this.episode = undefined;
    this.tell({ kind: 'recovered', reason: episode.error.reason, downMs: this.now() - episode.since });
  }

  private tell(event: OutageEvent) {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // a listener never breaks a statement
      }
    }
  }
}
