/**
 * The storage layer's one way of saying "the database cannot be used right now, nothing was
 * written: try again", whichever backend: PostgreSQL unreachable, or the disk under the SQLite
 * file full, read-only or failing. Callers tell it from a fault of the statement itself, and
 * answer 503 with "nothing was sent to the register" rather than "Unexpected error."
 */

/** Why: the words an operator reads in the log and in /ready. */
export type DatabaseOutage = 'unreachable' | 'disk_full' | 'read_only' | 'io_error';

const DESCRIPTIONS: Record<DatabaseOutage, string> = {
  unreachable: 'the database is unreachable',
  disk_full: 'the disk holding the database is full',
  read_only: 'the database file or its disk is read-only',
  io_error: 'the disk holding the database failed to read or write',
};

export class DatabaseUnavailableError extends Error {
  constructor(
    cause: unknown,
    readonly reason: DatabaseOutage = 'unreachable',
  ) {
    super(DESCRIPTIONS[reason], { cause });
    this.name = 'DatabaseUnavailableError';
  }
}
