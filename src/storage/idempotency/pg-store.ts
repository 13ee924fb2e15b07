/**
 * The PostgreSQL idempotency backend (DATABASE_URL): one table shared by every replica of the
 * service, with the SQLite store's semantics. A key is claimed with one atomic
 * INSERT … ON CONFLICT … DO UPDATE … WHERE … RETURNING, so of any number of concurrent claims
 * (from any process) exactly one wins; a retryable failure of the same input can be re-taken.
 * Times are the service's clock in epoch milliseconds, like the SQLite store.
 */
import type pg from 'pg';
import {
  JOURNAL_COLUMNS,
  RECORD_COLUMNS,
  journalRecordOfRow,
  recordOfRow,
  type IdempotencyRow,
  type JournalRow,
  ENTRY_COLUMNS,
  type EntryValues,
  type OpenEntry,
  pendingEntries,
  settlementOf,
  CHARGED_SET_COLUMNS,
  OPEN_ENTRY_COLUMNS,
} from './rows';
import {
  PENDING_AT_MOST_MS,
  type ChargeIntent,
  type ClaimResult,
  type IdempotencyRecord,
  type IdempotencyState,
  type IdempotencyStore,
  type JournalRecord,
  type ReportedCharges,
  type SpendCheck,
  type StatementPageQuery,
  type SpendTotals,
} from './store';
import { statementPageOf, statementScopeQuery, statementParts, mergeStatementParts } from './statement-pages';
import { spendReservation } from './spending-decision';
import { claimWith } from './claim';
import { tableStatements, ADDED_COLUMNS, callerIndexStatements } from './tables';
import { type CallerFilter, callerCondition, claimerValues, spendingRows } from './callers';

import { PgDatabase, quoteIdent } from '../pg-database';

/** A placeholder writer that appends to `values`: `$n` for the value just added. */
const pgParam = (values: unknown[]) => (value: string | null) => {
  values.push(value);
  return `$${values.length}`;
};

/** ` AND <the caller's rows>`, its values appended; nothing for every caller's. */
const whoseRows = (caller: CallerFilter | undefined, values: unknown[]) =>
  caller ? ` AND ${callerCondition(caller, pgParam(values))}` : '';

export interface PgIdempotencyStoreOptions {
  connectionString: string;
  /** Schema holding the table (created when missing). Default: the connection's search_path (usually public). */
  schema?: string;
  /** Connections in the pool. Default 10. */
  maxConnections?: number;
  now?: () => number;
}

/** Fixed key of the advisory lock that serialises the DDL of replicas starting together. */
const DDL_LOCK = 0x7469746c; // 'titl'
/** Seed of the per-organisation advisory locks that serialise spending decisions. */
export const SPEND_LOCK = 0x7370656e; // 'spen'

export class PgIdempotencyStore implements IdempotencyStore {
  private readonly db: PgDatabase;
  private readonly table: string;
  private readonly journal: string;
  private readonly now: () => number;

  constructor(options: PgIdempotencyStoreOptions) {
    this.now = options.now ?? Date.now;
    const schema = options.schema;
    this.table = schema ? `${quoteIdent(schema)}.idempotency` : 'idempotency';
    this.journal = schema ? `${quoteIdent(schema)}.charge_journal` : 'charge_journal';
    this.db = new PgDatabase({
      connectionString: options.connectionString,
      ...(options.maxConnections !== undefined ? { maxConnections: options.maxConnections } : {}),
      ddlLock: DDL_LOCK,
      setup: async (client) => {
        if (schema) await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
        for (const statement of tableStatements(this.table, this.journal, { serial: 'BIGSERIAL PRIMARY KEY', integer: 'BIGINT' })) {
          await client.query(statement);
        }
        // Spend control (reference, product, amount): added to journals written before it, the
        // amounts of old charges read from their JSON so today's totals stay right.
        const added = await client.query<{ missing: boolean }>(
          `SELECT NOT EXISTS (SELECT 1 FROM information_schema.columns WHERE table_name = 'charge_journal' AND column_name = 'amount_pence'
             AND table_schema = COALESCE($1, current_schema())) AS missing`,
          [schema ?? null],
        );
        if (added.rows[0]?.missing) {
          await client.query(
            `ALTER TABLE ${this.journal} ADD COLUMN IF NOT EXISTS reference TEXT, ADD COLUMN IF NOT EXISTS product TEXT,
             ADD COLUMN IF NOT EXISTS amount_pence BIGINT`,
          );
          await client.query(
            `UPDATE ${this.journal} SET product = charge::json->>'productType', amount_pence = round((charge::json->>'fee')::numeric * 100)
             WHERE status = 'CHARGED' AND charge ~ '"fee":"[0-9]+(\\.[0-9]{1,2})?"'`,
          );
        }
        // Callers: databases written before callers were kept get the columns (old rows read as their API client's).
        for (const [table, added] of [
          [this.table, ADDED_COLUMNS.idempotency],
          [this.journal, ADDED_COLUMNS.journal],
        ] as const) {
          await client.query(`ALTER TABLE ${table} ${added.map(([name, type]) => `ADD COLUMN IF NOT EXISTS ${name} ${type}`).join(', ')}`);
        }
        for (const statement of callerIndexStatements(this.journal)) await client.query(statement);
      },
    });
  }

  /** Resolves once the tables exist; rejects when the database cannot be reached or set up. */
  ready(): Promise<void> {
    return this.db.ready();
  }

  private query<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<R>> {
    return this.db.query<R>(text, values);
  }

  private transaction<R>(work: (client: pg.PoolClient) => Promise<R>): Promise<R> {
    return this.db.transaction(work);
  }

  claim(...[scope, key, operation, inputHash, intent, caller]: Parameters<IdempotencyStore['claim']>): Promise<ClaimResult> {
    const take = () => {
      const at = this.now();
      return this.transaction(async (client) => {
        // One statement: insert a new key, or re-take a retryable failure of the same input. Under
        // concurrency PostgreSQL re-checks the WHERE on the latest committed row: one winner.
        const result = await client.query(
          `INSERT INTO ${this.table} AS t (scope, key, operation, input_hash, state, created_at, updated_at, caller, caller_id)
           VALUES ($1, $2, $3, $4, 'in_progress', $5, $5, $6, $7)
           ON CONFLICT (scope, key) DO UPDATE SET state = 'in_progress', outcome = NULL, updated_at = EXCLUDED.updated_at,
             caller = EXCLUDED.caller, caller_id = EXCLUDED.caller_id
           WHERE t.state = 'failed_retryable' AND t.input_hash = EXCLUDED.input_hash AND t.operation = EXCLUDED.operation
             AND (t.caller_id = EXCLUDED.caller_id OR (t.caller_id IS NULL AND (t.caller IS NULL OR t.caller = $8)))
           RETURNING key`,
          [scope, key, operation, inputHash, at, ...claimerValues(caller)],
        );
        if (result.rowCount !== 1) return undefined;
        if (!intent) return { reservedPence: 0 };
        const { reservedPence, alreadyCharged } = intent.spend
          ? await this.reserveSpend(client, scope, intent, intent.spend)
          : { reservedPence: 0, alreadyCharged: new Set<string>() };
        for (const entry of pendingEntries(scope, key, intent, at, alreadyCharged)) await this.writeEntry(client, entry);
        return { reservedPence };
      });
    };
    return claimWith(take, () => this.get(scope, key));
  }

  /**
   * Reads what the spending decision needs under the organisation's transaction-scoped advisory
   * lock: claims of one organisation, from every replica, decide one after the other, and each
   * statement (READ COMMITTED) sees the reservations committed before it.
   */
  private async reserveSpend(client: pg.PoolClient, scope: string, intent: ChargeIntent, check: SpendCheck) {
    await client.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, ${SPEND_LOCK}))`, [check.organisation]);
    const charged = await client.query<{ product: string }>(
      `SELECT DISTINCT product FROM ${this.journal} WHERE scope = ANY($1::text[]) AND day = $2 AND fas = $3 AND title_number = $4
       AND status = 'CHARGED'`,
      [check.organisationClients, check.chargedOnDay ?? intent.day, intent.fas, intent.titleNumber],
    );
    const values: unknown[] = [[...new Set([...check.organisationClients, scope])], intent.day, scope];
    const own = intent.caller ? callerCondition(spendingRows(intent.caller), pgParam(values)) : 'caller IS NULL';
    const totals = await client.query<{ client: string | null; organisation: string | null; caller: string | null }>(
      `SELECT SUM(CASE WHEN scope = $3 THEN amount_pence ELSE 0 END) AS client, SUM(amount_pence) AS organisation,
              SUM(CASE WHEN scope = $3 AND ${own} THEN amount_pence ELSE 0 END) AS caller
       FROM ${this.journal} WHERE scope = ANY($1::text[]) AND day = $2`,
      values,
    );
    const row = totals.rows[0];
    const pence = (value: string | null | undefined) => Number(value ?? 0);
    const alreadyCharged = new Set(charged.rows.map((r) => r.product));
    return {
      reservedPence: spendReservation(check, alreadyCharged, pence(row?.client), pence(row?.organisation), pence(row?.caller)),
      alreadyCharged,
    };
  }

  async finish(scope: string, key: string, state: Exclude<IdempotencyState, 'in_progress'>, outcome?: string, charges?: ReportedCharges) {
    const at = this.now();
    await this.transaction(async (client) => {
      await client.query(`UPDATE ${this.table} SET state = $1, outcome = $2, updated_at = $3 WHERE scope = $4 AND key = $5`, [
        state,
        outcome ?? null,
        at,
        scope,
        key,
      ]);
      await this.settleJournal(client, scope, key, state, charges);
    });
  }

  /** As in the SQLite store: a known outcome settles an entry the stale-key rule called OUTCOME_UNKNOWN too, in place. */
  private async settleJournal(client: pg.PoolClient, scope: string, key: string, state: IdempotencyState, charges?: ReportedCharges) {
    if (state === 'outcome_unknown') {
      await client.query(
        `UPDATE ${this.journal} SET status = 'OUTCOME_UNKNOWN', day = COALESCE($3, day) WHERE scope = $1 AND key = $2 AND status = 'PENDING'`,
        [scope, key, charges?.day ?? null],
      );
      return;
    }
    const open = await client.query<OpenEntry>(
      `SELECT ${OPEN_ENTRY_COLUMNS} FROM ${this.journal} WHERE scope = $1 AND key = $2 AND status IN ('PENDING', 'OUTCOME_UNKNOWN')
       FOR UPDATE`,
      [scope, key],
    );
    if (open.rows.length === 0) return;
    const settlement = settlementOf(open.rows, charges, scope, key);
    const set = CHARGED_SET_COLUMNS.map((column, i) => `${column} = $${i + 1}`).join(', ');
    for (const { id, values } of settlement.charged) {
      await client.query(`UPDATE ${this.journal} SET status = 'CHARGED', ${set} WHERE id = $${CHARGED_SET_COLUMNS.length + 1}`, [
        ...values,
        id,
      ]);
    }
    for (const entry of settlement.added) await this.writeEntry(client, entry);
    if (settlement.removed.length > 0) {
      await client.query(`DELETE FROM ${this.journal} WHERE id = ANY($1::bigint[])`, [settlement.removed]);
    }
  }

  private async writeEntry(client: pg.PoolClient, values: EntryValues) {
    await client.query(`INSERT INTO ${this.journal} (${ENTRY_COLUMNS}) VALUES (${values.map((_, i) => `$${i + 1}`).join(', ')})`, values);
  }

  async settleStale(scope: string, key: string, staleBefore: number, outcome: string): Promise<boolean> {
    const at = this.now();
    return this.transaction(async (client) => {
      const changed = await client.query(
        `UPDATE ${this.table} SET state = 'outcome_unknown', outcome = $1, updated_at = $2
         WHERE scope = $3 AND key = $4 AND state = 'in_progress' AND updated_at < $5`,
        [outcome, at, scope, key, staleBefore],
      );
      if (changed.rowCount !== 1) return false;
      await this.settleJournal(client, scope, key, 'outcome_unknown');
      return true;
    });
  }

  async get(scope: string, key: string): Promise<IdempotencyRecord | undefined> {
    const result = await this.query<IdempotencyRow>(`SELECT ${RECORD_COLUMNS} FROM ${this.table} WHERE scope = $1 AND key = $2`, [
      scope,
      key,
    ]);
    const row = result.rows[0];
    return row ? recordOfRow(row) : undefined;
  }

  async chargeRecords(scope: string, day: string, caller?: CallerFilter): Promise<JournalRecord[]> {
    const values: unknown[] = [scope, day];
    const result = await this.query<JournalRow>(
      `SELECT ${JOURNAL_COLUMNS} FROM ${this.journal} WHERE scope = $1 AND day = $2${whoseRows(caller, values)}
       ORDER BY recorded_at, id`,
      values,
    );
    const pendingFrom = this.now() - PENDING_AT_MOST_MS;
    return result.rows.map((row) => journalRecordOfRow(row, pendingFrom));
  }

  async statementPage({ clients, caller, ...query }: StatementPageQuery) {
    const parts = await Promise.all(
      statementParts(clients, caller).map(async ([scope, partCaller]) => {
        const { text, values } = statementScopeQuery(this.journal, scope, query, partCaller, (n) => `$${n}`);
        return (await this.query<JournalRow & { id: string }>(text, values)).rows;
      }),
    );
    return statementPageOf(mergeStatementParts(parts, query.limit), this.now() - PENDING_AT_MOST_MS);
  }

  async statementSummary({ clients, from, to, reference, caller }: Omit<StatementPageQuery, 'after' | 'limit'>) {
    const values: unknown[] = [clients, from, to, reference ?? null];
    const result = await this.query<{ charged: string | null; unknown: string | null }>(
      `SELECT SUM(CASE WHEN status = 'CHARGED' THEN amount_pence ELSE 0 END) AS charged,
              SUM(CASE WHEN status = 'CHARGED' THEN 0 ELSE 1 END) AS unknown
       FROM ${this.journal} WHERE scope = ANY($1::text[]) AND day >= $2 AND day <= $3
       AND ($4::text IS NULL OR reference = $4)${whoseRows(caller, values)}`,
      values,
    );
    const row = result.rows[0];
    return { chargedPence: Number(row?.charged ?? 0), unknownCount: Number(row?.unknown ?? 0) };
  }

  async chargedProducts(clients: readonly string[], day: string, fas: string, titleNumber: string): Promise<Set<string>> {
    const result = await this.query<{ product: string }>(
      `SELECT DISTINCT product FROM ${this.journal} WHERE scope = ANY($1::text[]) AND day = $2 AND fas = $3 AND title_number = $4
       AND status = 'CHARGED'`,
      [clients, day, fas, titleNumber],
    );
    return new Set(result.rows.map((r) => r.product));
  }

  async spendTotals(clients: readonly string[], day: string, caller?: CallerFilter): Promise<SpendTotals> {
    const values: unknown[] = [clients, day];
    const result = await this.query<{ charged: string | null; pending: string | null }>(
      `SELECT SUM(CASE WHEN status = 'CHARGED' THEN amount_pence ELSE 0 END) AS charged,
              SUM(CASE WHEN status = 'CHARGED' THEN 0 ELSE amount_pence END) AS pending
       FROM ${this.journal} WHERE scope = ANY($1::text[]) AND day = $2${whoseRows(caller, values)}`,
      values,
    );
    const row = result.rows[0];
    return { chargedPence: Number(row?.charged ?? 0), pendingPence: Number(row?.pending ?? 0) };
  }

  async adoptLegacyCallers(owner: (scope: string, subject: string) => string | undefined): Promise<number> {
    let adopted = 0;
    for (const table of [this.table, this.journal]) {
      const legacy = await this.query<{ scope: string; caller: string }>(
        `SELECT DISTINCT scope, caller FROM ${table} WHERE caller_id IS NULL AND caller IS NOT NULL`,
        [],
      );
      for (const { scope, caller } of legacy.rows) {
        const id = owner(scope, caller);
        if (id === undefined) continue;
        const changed = await this.query(`UPDATE ${table} SET caller_id = $1 WHERE scope = $2 AND caller = $3 AND caller_id IS NULL`, [
          id,
          scope,
          caller,
        ]);
        adopted += changed.rowCount ?? 0;
      }
    }
    return adopted;
  }

  async ping(): Promise<void> {
    await this.query('SELECT 1', []);
  }

  async purge(olderThan: number): Promise<number> {
    const result = await this.query(`DELETE FROM ${this.table} WHERE updated_at < $1`, [olderThan]);
    return result.rowCount ?? 0;
  }

  async purgeJournal(olderThan: number): Promise<number> {
    const result = await this.query(`DELETE FROM ${this.journal} WHERE recorded_at < $1`, [olderThan]);
    return result.rowCount ?? 0;
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
