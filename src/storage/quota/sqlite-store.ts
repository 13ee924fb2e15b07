/**
 * The quota ledger in one SQLite file (the default, one instance): each turn of the event loop's
 * admissions are committed together, in one transaction.
 */
import type { DatabaseSync, StatementSync } from 'node:sqlite';
import { openDataFile } from '../sqlite-database';
import { decide } from './admission-decision';
import { type Admission, type AdmitRequest, DEAD_LEASE_AFTER_MS, type LeaseReturn, type QuotaStore, type QuotaUsageRecord } from './store';

interface PendingAdmission {
  request: AdmitRequest;
  resolve(admission: Admission): void;
  reject(error: unknown): void;
}

export class SqliteQuotaStore implements QuotaStore {
  private readonly db: DatabaseSync;
  /** Prepared once: compiling the SQL on every register call cost more than running it. */
  private readonly sql: Record<
    | 'begin'
    | 'commit'
    | 'rollback'
    | 'state'
    | 'usage'
    | 'block'
    | 'saveBudget'
    | 'count'
    | 'uncount'
    | 'setBlock'
    | 'openLease'
    | 'closeLease'
    | 'dropPastLeases'
    | 'leased'
    | 'returnTokens',
    StatementSync
  >;
  /** Admissions asked for during this turn of the event loop, committed together (see admit). */
  private pending: PendingAdmission[] = [];

  constructor(
    dataDir: string,
    private readonly msToMidnight: (now: number) => number,
  ) {
    // Every register call writes here: NORMAL (no fsync per commit; WAL keeps the file sound)
    // is what makes that cheap. A power cut can lose the last counts, never the keys' records,
    // which keep their own connection's full durability.
    this.db = openDataFile(
      dataDir,
      `
      CREATE TABLE IF NOT EXISTS quota_usage (organisation TEXT NOT NULL, day TEXT NOT NULL, calls INTEGER NOT NULL, PRIMARY KEY (organisation, day));
      CREATE TABLE IF NOT EXISTS quota_block (organisation TEXT PRIMARY KEY, blocked_until INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS client_budget (client TEXT PRIMARY KEY, tokens REAL NOT NULL, updated_at INTEGER NOT NULL);
      CREATE TABLE IF NOT EXISTS quota_lease (id TEXT PRIMARY KEY, organisation TEXT NOT NULL, day TEXT NOT NULL, calls INTEGER NOT NULL, expires_at INTEGER NOT NULL);
      CREATE INDEX IF NOT EXISTS quota_lease_by_day ON quota_lease (organisation, day);
    `,
      { synchronous: 'NORMAL' },
    );
    this.sql = {
      begin: this.db.prepare('BEGIN IMMEDIATE'),
      commit: this.db.prepare('COMMIT'),
      rollback: this.db.prepare('ROLLBACK'),
      // The three things a decision reads, in one statement.
      state: this.db.prepare(
        `SELECT (SELECT calls FROM quota_usage WHERE organisation = ?1 AND day = ?2) AS calls,
                (SELECT blocked_until FROM quota_block WHERE organisation = ?1) AS blocked_until,
                (SELECT tokens FROM client_budget WHERE client = ?3) AS tokens,
                (SELECT updated_at FROM client_budget WHERE client = ?3) AS updated_at`,
      ),
      usage: this.db.prepare('SELECT calls FROM quota_usage WHERE organisation = ? AND day = ?'),
      block: this.db.prepare('SELECT blocked_until FROM quota_block WHERE organisation = ?'),
      saveBudget: this.db.prepare(
        `INSERT INTO client_budget (client, tokens, updated_at) VALUES (?, ?, ?)
         ON CONFLICT (client) DO UPDATE SET tokens = excluded.tokens, updated_at = excluded.updated_at`,
      ),
      count: this.db.prepare(
        `INSERT INTO quota_usage (organisation, day, calls) VALUES (?1, ?2, ?3)
         ON CONFLICT (organisation, day) DO UPDATE SET calls = calls + ?3`,
      ),
      uncount: this.db.prepare('UPDATE quota_usage SET calls = MAX(0, calls - ?3) WHERE organisation = ?1 AND day = ?2'),
      openLease: this.db.prepare('INSERT INTO quota_lease (id, organisation, day, calls, expires_at) VALUES (?, ?, ?, ?, ?)'),
      closeLease: this.db.prepare('DELETE FROM quota_lease WHERE id = ? RETURNING id'),
      // A lease left by a replica that died holding it (DEAD_LEASE_AFTER_MS): its row is nobody's.
      dropPastLeases: this.db.prepare('DELETE FROM quota_lease WHERE organisation = ? AND day < ? AND expires_at < ?'),
      leased: this.db.prepare(
        'SELECT COALESCE(SUM(calls), 0) AS calls FROM quota_lease WHERE organisation = ? AND day = ? AND expires_at > ?',
      ),
      returnTokens: this.db.prepare('UPDATE client_budget SET tokens = MIN(?2, tokens + ?3) WHERE client = ?1'),
      setBlock: this.db.prepare(
        `INSERT INTO quota_block (organisation, blocked_until) VALUES (?, ?)
         ON CONFLICT (organisation) DO UPDATE SET blocked_until = MAX(blocked_until, excluded.blocked_until)`,
      ),
    };
  }

  /**
   * Group commit: the admissions asked for in one turn of the event loop are decided one after
   * the other inside one transaction, each seeing the counts of those before it, so they are
   * exactly what one transaction each would give. A commit is a WAL write and its file locks,
   * most of an admission's cost (~20 µs): under load, a handful share one. The wait is a
   * setImmediate, which runs as soon as this turn's I/O callbacks are done.
   */
  admit(request: AdmitRequest): Promise<Admission> {
    return new Promise((resolve, reject) => {
      if (this.pending.push({ request, resolve, reject }) === 1) setImmediate(() => this.admitPending());
    });
  }

  private admitPending(): void {
    const batch = this.pending;
    this.pending = [];
    // Already answered by close(): nothing to commit, and the database is shut.
    if (batch.length === 0) return;
    const outcomes: ({ admission: Admission } | { error: unknown })[] = [];
    try {
      this.sql.begin.run();
      try {
        for (const { request } of batch) {
          // A decision that cannot be made (its clock failed) refuses that caller alone; a
          // write that fails undoes the whole group, since a count may be half made.
          let decided: ReturnType<typeof decide>;
          try {
            decided = this.decideNow(request);
          } catch (error) {
            outcomes.push({ error });
            continue;
          }
          if (request.burst > 0) this.sql.saveBudget.run(request.client, decided.tokens, request.now);
          if (decided.admission.admitted) {
            const granted = decided.admission.granted ?? 1;
            this.sql.count.run(request.organisation, request.day, granted);
            const { lease } = request;
            if (lease) {
              this.sql.dropPastLeases.run(request.organisation, request.day, request.now - DEAD_LEASE_AFTER_MS);
              this.sql.openLease.run(lease.id, request.organisation, request.day, granted, lease.expiresAt);
            }
          }
          outcomes.push({ admission: decided.admission });
        }
        this.sql.commit.run();
      } catch (error) {
        this.sql.rollback.run();
        throw error;
      }
    } catch (error) {
      for (const { reject } of batch) reject(error);
      return;
    }
    for (const [i, { resolve, reject }] of batch.entries()) {
      const outcome = outcomes[i]!;
      if ('admission' in outcome) resolve(outcome.admission);
      else reject(outcome.error);
    }
  }

  private decideNow(request: AdmitRequest): ReturnType<typeof decide> {
    const state = this.sql.state.get(request.organisation, request.day, request.client) as {
      calls: number | null;
      blocked_until: number | null;
      tokens: number | null;
      updated_at: number | null;
    };
    return decide(
      request,
      {
        calls: state.calls ?? 0,
        blockedUntil: state.blocked_until ?? 0,
        tokens: state.tokens ?? request.burst,
        tokensAt: state.updated_at ?? request.now,
      },
      this.msToMidnight(request.now),
    );
  }

  async uncount(organisation: string, day: string): Promise<void> {
    this.sql.uncount.run(organisation, day, 1);
  }

  async endLease({ organisation, client, day, id, unused, burst }: LeaseReturn): Promise<void> {
    this.sql.begin.run();
    try {
      // Once only: a lease given back twice would uncount calls that were made.
      if (this.sql.closeLease.get(id) && unused > 0) {
        this.sql.uncount.run(organisation, day, unused);
        if (burst > 0) this.sql.returnTokens.run(client, burst, unused);
      }
      this.sql.commit.run();
    } catch (error) {
      this.sql.rollback.run();
      throw error;
    }
  }

  async block(organisation: string, until: number): Promise<void> {
    this.sql.setBlock.run(organisation, until);
  }

  async usage(organisation: string, day: string, now: number): Promise<QuotaUsageRecord> {
    const usage = this.sql.usage.get(organisation, day) as { calls: number } | undefined;
    const block = this.sql.block.get(organisation) as { blocked_until: number } | undefined;
    const leased = (this.sql.leased.get(organisation, day, now) as { calls: number }).calls;
    return {
      calls: usage?.calls ?? 0,
      ...(leased > 0 ? { leased } : {}),
      ...(block && block.blocked_until > now ? { blockedUntil: block.blocked_until } : {}),
    };
  }

  async close(): Promise<void> {
    // Admissions already asked for are answered first, as they would have been without grouping.
    if (this.pending.length > 0 && this.db.isOpen) this.admitPending();
    if (this.db.isOpen) this.db.close();
  }
}
