import { type ApqLimits, DEFAULT_APQ_LIMITS } from '../settings';

/** A used entry's time is written again at most this often: reads stay reads. */
const TOUCH_EVERY_MS = 60 * 60 * 1000;

/** The statements that set up either backend's table, the same in SQLite and PostgreSQL. */
export const SCHEMA = [
  `CREATE TABLE IF NOT EXISTS persisted_query_by_org (
    organisation TEXT NOT NULL, hash TEXT NOT NULL, query TEXT NOT NULL, bytes INTEGER NOT NULL,
    registered_at BIGINT NOT NULL, used_at BIGINT NOT NULL, PRIMARY KEY (organisation, hash))`,
  'CREATE INDEX IF NOT EXISTS persisted_query_by_org_used ON persisted_query_by_org (organisation, used_at)',
  // The store before organisations: every tenant shared its entries, which is the leak the scope closes.
  'DROP TABLE IF EXISTS persisted_query',
];

/** What both backends of the shared store hold: the bounds they keep, and the clock of the entries' use. */
export abstract class SharedApqStore {
  constructor(
    protected readonly limits: ApqLimits = DEFAULT_APQ_LIMITS,
    protected readonly now: () => number = Date.now,
  ) {}

  /** Whether reading an entry should write its use time again (at most every TOUCH_EVERY_MS: reads stay reads). */
  protected touchDue(usedAt: string | number): boolean {
    return this.now() - Number(usedAt) > TOUCH_EVERY_MS;
  }
}
