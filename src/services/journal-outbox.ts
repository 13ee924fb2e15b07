/**
 * Journal writes that failed after the register had answered (the database went away mid-call):
 * kept in this process and retried until they land, so that the journal ends up holding the
 * charge the register reported, not a bare OUTCOME_UNKNOWN. The caller was already shown the
 * charge in its answer. Hand-written because it is a dozen lines around one timer; a job queue
 * would need the very database that is unreachable.
 */
import type { EventHub } from './events';

type Write = () => Promise<void>;

export class JournalOutbox {
  private readonly writes = new Set<Write>();
  private timer: NodeJS.Timeout | undefined;
  private delayMs: number;

  constructor(
    private readonly events: EventHub,
    private readonly firstDelayMs = 250,
    private readonly maxDelayMs = 10_000,
  ) {
    this.delayMs = firstDelayMs;
  }

  /** Writes waiting for the database. */
  get size(): number {
    return this.writes.size;
  }

  /**
   * Runs `write` now; when it fails, keeps it and retries it until it lands, then calls `landed`.
   * True when it landed now.
   */
  async write(write: Write, landed?: () => void): Promise<boolean> {
    try {
      await write();
      return true;
    } catch {
      this.writes.add(landed ? () => write().then(landed) : write);
      this.events.emit('journalDeferred', { waiting: this.writes.size });
      this.schedule();
      return false;
    }
  }

  private schedule() {
    if (this.timer || this.writes.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.flush();
    }, this.delayMs);
  }

  /** Tries every waiting write once, in the order they came. */
  async flush(): Promise<void> {
    for (const write of [...this.writes]) {
      try {
        await write();
        this.writes.delete(write);
      } catch {
        // still unreachable: the rest would fail alike
        break;
      }
    }
    this.delayMs = this.writes.size === 0 ? this.firstDelayMs : Math.min(this.maxDelayMs, this.delayMs * 2);
    this.schedule();
  }

  /** At shutdown: one last try; what still fails is settled by the stale-key rule (OUTCOME_UNKNOWN). */
  async close(): Promise<void> {
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.flush();
    clearTimeout(this.timer);
    this.timer = undefined;
  }
}
