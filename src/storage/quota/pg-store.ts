/**
 * The quota ledger in PostgreSQL (DATABASE_URL), shared by every replica. Admission is one
 * round trip: a function that locks the organisation's day row, so concurrent calls of one
 * organisation, from any replica, are admitted one at a time against the same count. It runs
 * the same steps as `decide` in admission-decision.ts.
 */
import pg from 'pg';
import { PgDatabase, quoteIdent } from '../pg-database';
import { type Admission, type AdmitRequest, DEAD_LEASE_AFTER_MS, type LeaseReturn, type QuotaStore, type QuotaUsageRecord } from './store';

/** Serialises the DDL of replicas starting together (a different key from the idempotency store's). */
const DDL_LOCK = 0x71756f74; // 'quot'

export interface PgQuotaStoreOptions {
  connectionString: string;
  schema?: string;
  maxConnections?: number;
  msToMidnight: (now: number) => number;
  /** Hear other replicas' recalls on a connection of its own (default true); without it, leases end at their expiry. */
  notices?: boolean;
}

export class PgQuotaStore implements QuotaStore {
  private readonly db: PgDatabase;
  private readonly prefix: string;
  /**
   * The NOTIFY channel of recalls (a block, or the free reads' share reached with leases open): one
   * per schema, so that ledgers side by side never hear each other. Its name is the previous
   * release's, whose replicas end their leases on it alike during a rolling upgrade.
   */
  private readonly channel: string;
  private readonly recallListeners = new Set<(organisation: string) => void>();
  private listening: pg.Client | undefined;
  private closed = false;

  constructor(private readonly options: PgQuotaStoreOptions) {
    this.prefix = options.schema ? `${quoteIdent(options.schema)}.` : '';
    this.channel = `titlegraph_quota_block${options.schema ? `_${options.schema}` : ''}`;
    const p = this.prefix;
    this.db = new PgDatabase({
      connectionString: options.connectionString,
      ...(options.maxConnections !== undefined ? { maxConnections: options.maxConnections } : {}),
      ddlLock: DDL_LOCK,
      setup: async (client) => {
        if (options.schema) await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(options.schema)}`);
        await client.query(
          `CREATE TABLE IF NOT EXISTS ${p}quota_usage (organisation TEXT NOT NULL, day TEXT NOT NULL, calls INTEGER NOT NULL, PRIMARY KEY (organisation, day))`,
        );
        await client.query(`CREATE TABLE IF NOT EXISTS ${p}quota_block (organisation TEXT PRIMARY KEY, blocked_until BIGINT NOT NULL)`);
        await client.query(
          `CREATE TABLE IF NOT EXISTS ${p}client_budget (client TEXT PRIMARY KEY, tokens DOUBLE PRECISION NOT NULL, updated_at BIGINT NOT NULL)`,
        );
        await client.query(
          `CREATE TABLE IF NOT EXISTS ${p}quota_lease (id TEXT PRIMARY KEY, organisation TEXT NOT NULL, day TEXT NOT NULL, calls INTEGER NOT NULL, expires_at BIGINT NOT NULL)`,
        );
        // An index lives in its table's schema: its name is never qualified.
        await client.query(`CREATE INDEX IF NOT EXISTS quota_lease_by_day ON ${p}quota_lease (organisation, day)`);
        // One call, or a lease of up to p_wanted (p_lease_id set): the same steps as `decide` and `grantOf` in admission-decision.ts.
        await client.query(`
          CREATE OR REPLACE FUNCTION ${p}titlegraph_admit_calls(
            p_org TEXT, p_client TEXT, p_day TEXT, p_now BIGINT, p_free BOOLEAN, p_free_limit INTEGER, p_daily_limit INTEGER,
            p_burst DOUBLE PRECISION, p_per_ms DOUBLE PRECISION, p_ms_to_midnight BIGINT,
            p_wanted INTEGER, p_lease_id TEXT, p_expires_at BIGINT,
            OUT admitted BOOLEAN, OUT reason TEXT, OUT retry_after_ms BIGINT, OUT calls INTEGER, OUT granted INTEGER
          ) LANGUAGE plpgsql AS $fn$
          DECLARE
            v_calls INTEGER;
            v_blocked BIGINT;
            v_tokens DOUBLE PRECISION;
            v_at BIGINT;
          BEGIN
            INSERT INTO ${p}quota_usage (organisation, day, calls) VALUES (p_org, p_day, 0) ON CONFLICT DO NOTHING;
            SELECT u.calls INTO v_calls FROM ${p}quota_usage u WHERE u.organisation = p_org AND u.day = p_day FOR UPDATE;
            SELECT b.blocked_until INTO v_blocked FROM ${p}quota_block b WHERE b.organisation = p_org;
            v_blocked := COALESCE(v_blocked, 0);
            v_tokens := 0;
            IF p_burst > 0 THEN
              INSERT INTO ${p}client_budget (client, tokens, updated_at) VALUES (p_client, p_burst, p_now) ON CONFLICT DO NOTHING;
              SELECT c.tokens, c.updated_at INTO v_tokens, v_at FROM ${p}client_budget c WHERE c.client = p_client FOR UPDATE;
              v_tokens := LEAST(p_burst, v_tokens + GREATEST(0, p_now - v_at) * p_per_ms);
            END IF;
            admitted := FALSE;
            calls := v_calls;
            granted := 0;
            IF v_blocked > p_now THEN
              reason := 'blocked'; retry_after_ms := v_blocked - p_now;
            ELSIF v_calls >= p_daily_limit THEN
              reason := 'daily'; retry_after_ms := p_ms_to_midnight;
            ELSIF p_free AND v_calls >= p_free_limit THEN
              reason := 'reserve'; retry_after_ms := p_ms_to_midnight;
            ELSIF p_burst > 0 AND v_tokens < 1 THEN
              reason := 'budget'; retry_after_ms := CEIL((1 - v_tokens) / p_per_ms);
            ELSE
              admitted := TRUE;
              granted := 1;
              IF p_lease_id IS NOT NULL THEN
                granted := GREATEST(1, LEAST(p_wanted, ((CASE WHEN p_free THEN p_free_limit ELSE p_daily_limit END) - v_calls) / 4,
                  CASE WHEN p_burst > 0 THEN FLOOR(v_tokens)::INTEGER ELSE p_wanted END));
                -- A lease left by a replica that died holding it (DEAD_LEASE_AFTER_MS): its row is nobody's.
                DELETE FROM ${p}quota_lease l WHERE l.organisation = p_org AND l.day < p_day AND l.expires_at < p_now - ${DEAD_LEASE_AFTER_MS};
                INSERT INTO ${p}quota_lease (id, organisation, day, calls, expires_at) VALUES (p_lease_id, p_org, p_day, granted, p_expires_at);
              END IF;
              calls := v_calls + granted;
              UPDATE ${p}quota_usage u SET calls = u.calls + granted WHERE u.organisation = p_org AND u.day = p_day;
              IF p_burst > 0 THEN v_tokens := v_tokens - granted; END IF;
            END IF;
            IF p_burst > 0 THEN
              UPDATE ${p}client_budget c SET tokens = v_tokens, updated_at = p_now WHERE c.client = p_client;
            END IF;
            retry_after_ms := GREATEST(1, COALESCE(retry_after_ms, 1));
          END
          $fn$`);
        // The previous release's function, kept for its replicas during a rolling upgrade: one call at a time.
        await client.query(`
          CREATE OR REPLACE FUNCTION ${p}titlegraph_admit(
            p_org TEXT, p_client TEXT, p_day TEXT, p_now BIGINT, p_free BOOLEAN, p_free_limit INTEGER, p_daily_limit INTEGER,
            p_burst DOUBLE PRECISION, p_per_ms DOUBLE PRECISION, p_ms_to_midnight BIGINT,
            OUT admitted BOOLEAN, OUT reason TEXT, OUT retry_after_ms BIGINT, OUT calls INTEGER
          ) LANGUAGE sql AS $fn$
            SELECT a.admitted, a.reason, a.retry_after_ms, a.calls FROM ${p}titlegraph_admit_calls(
              p_org, p_client, p_day, p_now, p_free, p_free_limit, p_daily_limit, p_burst, p_per_ms, p_ms_to_midnight, 1, NULL, 0) a
          $fn$`);
      },
    });
  }

  ready(): Promise<void> {
    return this.db.ready();
  }

  private query<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<R>> {
    return this.db.query<R>(text, values);
  }

  async admit(r: AdmitRequest): Promise<Admission> {
    const p = this.prefix;
    // A call that is not a free read, admitted with the day's calls at or past the free reads'
    // share while leases of free reads are open (any replica's, this one's included), recalls
    // them in the same transaction: their unused calls would otherwise stay counted, and could
    // still be sent, until each lease's end. The notice goes out when the admission commits.
    const result = await this.query<{ admitted: boolean; reason: string | null; retry_after_ms: string; calls: number; granted: number }>(
      `SELECT a.admitted, a.reason, a.retry_after_ms, a.calls, a.granted,
              CASE WHEN NOT $5 AND a.admitted AND a.calls >= $6 AND EXISTS (
                SELECT 1 FROM ${p}quota_lease l WHERE l.organisation = $1 AND l.day = $3 AND l.expires_at > $4)
              THEN pg_notify($14, $1) IS NULL END AS recalled
       FROM ${p}titlegraph_admit_calls($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) a`,
      [
        r.organisation,
        r.client,
        r.day,
        r.now,
        r.free,
        r.freeLimit,
        r.dailyLimit,
        r.burst,
        r.perMs,
        this.options.msToMidnight(r.now),
        r.lease?.wanted ?? 1,
        r.lease?.id ?? null,
        r.lease?.expiresAt ?? 0,
        this.channel,
      ],
    );
    const row = result.rows[0]!;
    return row.admitted
      ? { admitted: true, calls: row.calls, ...(r.lease ? { granted: row.granted } : {}) }
      : { admitted: false, reason: row.reason as 'blocked' | 'daily' | 'reserve' | 'budget', retryAfterMs: Number(row.retry_after_ms) };
  }

  async uncount(organisation: string, day: string): Promise<void> {
    await this.query(`UPDATE ${this.prefix}quota_usage SET calls = GREATEST(0, calls - 1) WHERE organisation = $1 AND day = $2`, [
      organisation,
      day,
    ]);
  }

  async block(organisation: string, until: number): Promise<void> {
    // The block and its notice in one statement: a replica told of it reads it committed.
    await this.query(
      `WITH blocked AS (
         INSERT INTO ${this.prefix}quota_block (organisation, blocked_until) VALUES ($1, $2)
         ON CONFLICT (organisation) DO UPDATE SET blocked_until = GREATEST(${this.prefix}quota_block.blocked_until, EXCLUDED.blocked_until)
         RETURNING organisation)
       SELECT pg_notify($3, organisation) FROM blocked`,
      [organisation, until, this.channel],
    );
  }

  async endLease({ organisation, client, day, id, unused, burst }: LeaseReturn): Promise<void> {
    // Once only (the lease's row is deleted by the statement that gives back): a lease given back twice would uncount calls that were made.
    await this.query(
      `WITH ended AS (DELETE FROM ${this.prefix}quota_lease WHERE id = $1 RETURNING id),
            uncounted AS (UPDATE ${this.prefix}quota_usage SET calls = GREATEST(0, calls - $4)
              WHERE organisation = $2 AND day = $3 AND $4 > 0 AND EXISTS (SELECT 1 FROM ended) RETURNING 1)
       UPDATE ${this.prefix}client_budget SET tokens = LEAST($6, tokens + $4)
         WHERE client = $5 AND $6 > 0 AND $4 > 0 AND EXISTS (SELECT 1 FROM ended)`,
      [id, organisation, day, unused, client, burst],
    );
  }

  /**
   * Recalls, as PostgreSQL's NOTIFY tells them, on a connection of its own kept open while anyone
   * listens (create-services.ts takes it from the ledger's share). A lost connection is opened
   * again a second later; meanwhile leases end at their expiry, as on SQLite.
   */
  onRecall(listener: (organisation: string) => void): () => void {
    if (this.options.notices === false) return () => undefined;
    this.recallListeners.add(listener);
    if (!this.listening) this.listen();
    return () => {
      this.recallListeners.delete(listener);
    };
  }

  private listen(): void {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.options.connectionString });
    this.listening = client;
    const again = () => {
      if (this.listening !== client) return;
      this.listening = undefined;
      client.removeAllListeners();
      void client.end().catch(() => undefined);
      if (!this.closed && this.recallListeners.size > 0) setTimeout(() => this.listen(), 1_000).unref();
    };
    client.on('error', again);
    client.on('end', again);
    client.on('notification', (message) => {
      if (message.channel !== this.channel || !message.payload) return;
      for (const listener of this.recallListeners) listener(message.payload);
    });
    client
      .connect()
      .then(() => client.query(`LISTEN ${quoteIdent(this.channel)}`))
      .catch(again);
  }

  async usage(organisation: string, day: string, now: number): Promise<QuotaUsageRecord> {
    const result = await this.query<{ calls: number | null; blocked_until: string | null; leased: string | null }>(
      `SELECT (SELECT calls FROM ${this.prefix}quota_usage WHERE organisation = $1 AND day = $2) AS calls,
              (SELECT blocked_until FROM ${this.prefix}quota_block WHERE organisation = $1) AS blocked_until,
              (SELECT SUM(calls) FROM ${this.prefix}quota_lease WHERE organisation = $1 AND day = $2 AND expires_at > $3) AS leased`,
      [organisation, day, now],
    );
    const row = result.rows[0]!;
    const blockedUntil = row.blocked_until === null ? 0 : Number(row.blocked_until);
    const leased = Number(row.leased ?? 0);
    return { calls: row.calls ?? 0, ...(leased > 0 ? { leased } : {}), ...(blockedUntil > now ? { blockedUntil } : {}) };
  }

  async close(): Promise<void> {
    this.closed = true;
    const listening = this.listening;
    this.listening = undefined;
    await listening?.end().catch(() => undefined);
    await this.db.close();
  }
}
