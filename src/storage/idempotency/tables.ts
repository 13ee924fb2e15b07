/**
 * The tables both SQL backends keep and their indexes, in either dialect: `serial` declares the
 * journal's auto-increment id, `integer` the (64-bit) type of times and amounts.
 *
 * Written by hand rather than through Kysely and its migrator: the statements differ between the
 * two dialects only in placeholders and these two types, and an upgrade here only ever adds
 * nullable columns and indexes on start, so that the previous release runs on the upgraded tables
 * (a rollback without a restore, test/storage/journal-upgrade.test.ts and upgrade-notes.test.ts on
 * both databases). A migrator's table of applied steps is one the previous release does not know;
 * it is the tool to adopt the day a change must rewrite or drop what a running release reads.
 */
export function tableStatements(table: string, journal: string, types: { serial: string; integer: string }): string[] {
  const { serial, integer } = types;
  return [
    `CREATE TABLE IF NOT EXISTS ${table} (
      scope TEXT NOT NULL,
      key TEXT NOT NULL,
      operation TEXT NOT NULL,
      input_hash TEXT NOT NULL,
      state TEXT NOT NULL CHECK (state IN ('in_progress', 'succeeded', 'failed_final', 'failed_retryable', 'outcome_unknown')),
      outcome TEXT,
      created_at ${integer} NOT NULL,
      updated_at ${integer} NOT NULL,
      caller TEXT,
      caller_id TEXT,
      PRIMARY KEY (scope, key)
    )`,
    `CREATE INDEX IF NOT EXISTS idempotency_updated ON ${table} (updated_at)`,
    `CREATE TABLE IF NOT EXISTS ${journal} (
      id ${serial},
      scope TEXT NOT NULL,
      key TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('PENDING', 'CHARGED', 'OUTCOME_UNKNOWN')),
      operation TEXT NOT NULL,
      fas TEXT NOT NULL,
      title_number TEXT NOT NULL,
      charge TEXT,
      day TEXT NOT NULL,
      recorded_at ${integer} NOT NULL,
      reference TEXT,
      product TEXT,
      amount_pence ${integer},
      caller TEXT,
      caller_name TEXT,
      caller_id TEXT
    )`,
    `CREATE INDEX IF NOT EXISTS charge_journal_day ON ${journal} (scope, day, recorded_at)`,
    // A statement page's order (day, recorded_at, id) after its client: one index range a page.
    `CREATE INDEX IF NOT EXISTS charge_journal_page ON ${journal} (scope, day, recorded_at, id)`,
    `CREATE INDEX IF NOT EXISTS charge_journal_key ON ${journal} (scope, key)`,
    `CREATE INDEX IF NOT EXISTS charge_journal_recorded ON ${journal} (recorded_at)`,
  ];
}

/**
 * Indexes on the caller columns, made after an older journal has been given those columns: a
 * principal's statement reads one range of charge_journal_principal (callers.ts); a bare subject's
 * (and the previous release's) of charge_journal_caller.
 */
export function callerIndexStatements(journal: string): string[] {
  return [
    `CREATE INDEX IF NOT EXISTS charge_journal_caller ON ${journal} (scope, caller, day, recorded_at, id)`,
    `CREATE INDEX IF NOT EXISTS charge_journal_principal ON ${journal} (scope, caller_id, caller, day, recorded_at, id)`,
  ];
}

/** Columns added since the first release, in either dialect: an older database gets them on open. */
export const ADDED_COLUMNS = {
  idempotency: [
    ['caller', 'TEXT'],
    ['caller_id', 'TEXT'],
  ],
  journal: [
    ['caller', 'TEXT'],
    ['caller_name', 'TEXT'],
    ['caller_id', 'TEXT'],
  ],
} as const;
