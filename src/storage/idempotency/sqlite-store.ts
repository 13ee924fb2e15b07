/** The default idempotency backend: node:sqlite in the data folder, WAL, one row per (scope, key). */
import type { DatabaseSync } from 'node:sqlite';
import { type DataFileHealth, dataFileHealth, openDataFile } from '../sqlite-database';
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

/** ` AND <the caller's rows>` with `?` placeholders, its values appended; nothing for every caller's. */
const whoseRows = (caller: CallerFilter | undefined, values: (string | null)[]) =>
  caller
    ? ` AND ${callerCondition(caller, (value) => {
        values.push(value);
        return '?';
      })}`
    : '';

export class SqliteIdempotencyStore implements IdempotencyStore {
  private readonly db: DatabaseSync;
  private readonly health: DataFileHealth;

  constructor(
    dataDir: string,
    private readonly now: () => number = Date.now,
  ) {
    const tables = tableStatements('idempotency', 'charge_journal', { serial: 'INTEGER PRIMARY KEY AUTOINCREMENT', integer: 'INTEGER' });
    this.db = openDataFile(dataDir, tables.map((statement) => `${statement};`).join('\n'));
    this.health = dataFileHealth(dataDir);
    this.addSpendColumns();
    this.addCallerColumns();
  }

  /** Databases written before callers were kept get the caller columns (their old rows read as their API client's). */
  private addCallerColumns() {
    const columnsOf = (table: string) =>
      new Set((this.db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).map((c) => c.name));
    for (const [table, added] of [
      ['idempotency', ADDED_COLUMNS.idempotency],
      ['charge_journal', ADDED_COLUMNS.journal],
    ] as const) {
      const columns = columnsOf(table);
      for (const [name, type] of added) if (!columns.has(name)) this.db.exec(`ALTER TABLE ${table} ADD COLUMN ${name} ${type}`);
    }
    for (const statement of callerIndexStatements('charge_journal')) this.db.exec(statement);
  }

  /**
   * Journals written before spend control lack the reference, product and amount columns: added
   * here, and the amounts of old charges read from their JSON, so today's totals stay right.
   */
  private addSpendColumns() {
    const columns = new Set((this.db.prepare('PRAGMA table_info(charge_journal)').all() as { name: string }[]).map((c) => c.name));
    if (columns.has('amount_pence')) return;
    this.transaction(() => {
      for (const [name, type] of [
        ['reference', 'TEXT'],
        ['product', 'TEXT'],
        ['amount_pence', 'INTEGER'],
      ]) {
        if (!columns.has(name!)) this.db.exec(`ALTER TABLE charge_journal ADD COLUMN ${name} ${type}`);
      }
      this.db.exec(`UPDATE charge_journal SET product = json_extract(charge, '$.productType'),
        amount_pence = CAST(ROUND(CAST(json_extract(charge, '$.fee') AS REAL) * 100) AS INTEGER) WHERE status = 'CHARGED'`);
    });
  }

  /** Runs `work` in one write transaction (BEGIN IMMEDIATE: other processes on the file wait). */
  private transaction<R>(work: () => R): R {
    this.db.exec('BEGIN IMMEDIATE');
    try {
      const result = work();
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      // SQLite has already rolled back after some errors (a full disk): the error to throw is that one.
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
  }

  /** Readiness: rejects (DatabaseUnavailableError) while the disk under the file is full, read-only or failing. */
  ping(): Promise<void> {
    return this.health.check();
  }

  private reserveSpend(scope: string, intent: ChargeIntent, check: SpendCheck) {
    const clients = JSON.stringify(check.organisationClients);
    const charged = this.db
      .prepare(
        `SELECT DISTINCT product FROM charge_journal WHERE scope IN (SELECT value FROM json_each(?)) AND day = ? AND fas = ?
         AND title_number = ? AND status = 'CHARGED'`,
      )
      .all(clients, check.chargedOnDay ?? intent.day, intent.fas, intent.titleNumber) as { product: string }[];
    const sum = (sql: string, ...values: (string | null)[]) =>
      Number((this.db.prepare(sql).get(...values) as { total: number | null }).total ?? 0);
    const client = sum(`SELECT SUM(amount_pence) AS total FROM charge_journal WHERE scope = ? AND day = ?`, scope, intent.day);
    const callerValues: (string | null)[] = [scope, intent.day];
    const caller = sum(
      `SELECT SUM(amount_pence) AS total FROM charge_journal WHERE scope = ? AND day = ?${
        intent.caller ? whoseRows(spendingRows(intent.caller), callerValues) : ' AND caller IS NULL'
      }`,
      ...callerValues,
    );
    const organisation = sum(
      `SELECT SUM(amount_pence) AS total FROM charge_journal WHERE scope IN (SELECT value FROM json_each(?)) AND day = ?`,
      clients,
      intent.day,
    );
    const alreadyCharged = new Set(charged.map((c) => c.product));
    return { reservedPence: spendReservation(check, alreadyCharged, client, organisation, caller), alreadyCharged };
  }

  claim(...[scope, key, operation, inputHash, intent, caller]: Parameters<IdempotencyStore['claim']>): Promise<ClaimResult> {
    const take = async () => {
      const at = this.now();
      return this.transaction(() => {
        // One statement: insert a new key, or re-take a retryable failure of the same input.
        const row = this.db
          .prepare(
            `INSERT INTO idempotency (scope, key, operation, input_hash, state, created_at, updated_at, caller, caller_id)
             VALUES (?, ?, ?, ?, 'in_progress', ?, ?, ?, ?)
             ON CONFLICT (scope, key) DO UPDATE SET state = 'in_progress', outcome = NULL, updated_at = excluded.updated_at,
               caller = excluded.caller, caller_id = excluded.caller_id
             WHERE idempotency.state = 'failed_retryable' AND idempotency.input_hash = excluded.input_hash
               AND idempotency.operation = excluded.operation
               AND (idempotency.caller_id = excluded.caller_id
                 OR (idempotency.caller_id IS NULL AND (idempotency.caller IS NULL OR idempotency.caller = ?)))
             RETURNING key`,
          )
          .get(scope, key, operation, inputHash, at, at, ...claimerValues(caller));
        if (!row) return undefined;
        if (!intent) return { reservedPence: 0 };
        // BEGIN IMMEDIATE holds the write lock from the start: no other claim reads the totals in between.
        const { reservedPence, alreadyCharged } = intent.spend
          ? this.reserveSpend(scope, intent, intent.spend)
          : { reservedPence: 0, alreadyCharged: new Set<string>() };
        for (const entry of pendingEntries(scope, key, intent, at, alreadyCharged)) this.writeEntry(entry);
        return { reservedPence };
      });
    };
    return claimWith(take, () => this.get(scope, key));
  }

  async finish(scope: string, key: string, state: Exclude<IdempotencyState, 'in_progress'>, outcome?: string, charges?: ReportedCharges) {
    const at = this.now();
    this.transaction(() => {
      this.db
        .prepare(`UPDATE idempotency SET state = ?, outcome = ?, updated_at = ? WHERE scope = ? AND key = ?`)
        .run(state, outcome ?? null, at, scope, key);
      this.settleJournal(scope, key, state, charges);
    });
  }

  /**
   * A known outcome settles the key's entries even when the stale-key rule already called them
   * OUTCOME_UNKNOWN: that happens when this process's own write was held up (the database was
   * away) past staleMs, and the register's answer is the truth the journal must hold. Entries
   * are settled in place (UPDATE, never DELETE and INSERT): a statement's cursor passes each once.
   */
  private settleJournal(scope: string, key: string, state: IdempotencyState, charges?: ReportedCharges) {
    if (state === 'outcome_unknown') {
      this.db
        .prepare(
          `UPDATE charge_journal SET status = 'OUTCOME_UNKNOWN', day = COALESCE(?, day) WHERE scope = ? AND key = ? AND status = 'PENDING'`,
        )
        .run(charges?.day ?? null, scope, key);
      return;
    }
    const open = this.db
      .prepare(`SELECT ${OPEN_ENTRY_COLUMNS} FROM charge_journal WHERE scope = ? AND key = ? AND status IN ('PENDING', 'OUTCOME_UNKNOWN')`)
      .all(scope, key) as unknown as OpenEntry[];
    if (open.length === 0) return;
    const settlement = settlementOf(open, charges, scope, key);
    const charge = this.db.prepare(
      `UPDATE charge_journal SET status = 'CHARGED', ${CHARGED_SET_COLUMNS.map((c) => `${c} = ?`).join(', ')} WHERE id = ?`,
    );
    for (const { id, values } of settlement.charged) charge.run(...values, id);
    for (const entry of settlement.added) this.writeEntry(entry);
    const remove = this.db.prepare(`DELETE FROM charge_journal WHERE id = ?`);
    for (const id of settlement.removed) remove.run(id);
  }

  private writeEntry(values: EntryValues) {
    this.db.prepare(`INSERT INTO charge_journal (${ENTRY_COLUMNS}) VALUES (${values.map(() => '?').join(', ')})`).run(...values);
  }

  async settleStale(scope: string, key: string, staleBefore: number, outcome: string): Promise<boolean> {
    const at = this.now();
    return this.transaction(() => {
      const changed = this.db
        .prepare(
          `UPDATE idempotency SET state = 'outcome_unknown', outcome = ?, updated_at = ?
           WHERE scope = ? AND key = ? AND state = 'in_progress' AND updated_at < ?`,
        )
        .run(outcome, at, scope, key, staleBefore);
      if (Number(changed.changes) === 0) return false;
      this.settleJournal(scope, key, 'outcome_unknown');
      return true;
    });
  }

  async get(scope: string, key: string): Promise<IdempotencyRecord | undefined> {
    const row = this.db.prepare(`SELECT ${RECORD_COLUMNS} FROM idempotency WHERE scope = ? AND key = ?`).get(scope, key) as
      | IdempotencyRow
      | undefined;
    return row ? recordOfRow(row) : undefined;
  }

  async chargeRecords(scope: string, day: string, caller?: CallerFilter): Promise<JournalRecord[]> {
    const values: (string | null)[] = [scope, day];
    const rows = this.db
      .prepare(
        `SELECT ${JOURNAL_COLUMNS} FROM charge_journal WHERE scope = ? AND day = ?${whoseRows(caller, values)} ORDER BY recorded_at, id`,
      )
      .all(...values) as unknown as JournalRow[];
    const pendingFrom = this.now() - PENDING_AT_MOST_MS;
    return rows.map((row) => journalRecordOfRow(row, pendingFrom));
  }

  async statementPage({ clients, caller, ...query }: StatementPageQuery) {
    const parts = statementParts(clients, caller).map(([scope, partCaller]) => {
      const { text, values } = statementScopeQuery(
        'charge_journal',
        scope,
        query,
        partCaller,
        () => '?',
        (index) => ` INDEXED BY ${index}`,
      );
      return this.db.prepare(text).all(...values) as unknown as (JournalRow & { id: number })[];
    });
    return statementPageOf(mergeStatementParts(parts, query.limit), this.now() - PENDING_AT_MOST_MS);
  }

  async statementSummary({ clients, from, to, reference, caller }: Omit<StatementPageQuery, 'after' | 'limit'>) {
    const values: (string | null)[] = [JSON.stringify(clients), from, to, reference ?? null, reference ?? null];
    const row = this.db
      .prepare(
        `SELECT SUM(CASE WHEN status = 'CHARGED' THEN amount_pence ELSE 0 END) AS charged,
                SUM(CASE WHEN status = 'CHARGED' THEN 0 ELSE 1 END) AS unknown
         FROM charge_journal WHERE scope IN (SELECT value FROM json_each(?)) AND day >= ? AND day <= ?
         AND (? IS NULL OR reference = ?)${whoseRows(caller, values)}`,
      )
      .get(...values) as {
      charged: number | null;
      unknown: number | null;
    };
    return { chargedPence: Number(row.charged ?? 0), unknownCount: Number(row.unknown ?? 0) };
  }

  async chargedProducts(clients: readonly string[], day: string, fas: string, titleNumber: string): Promise<Set<string>> {
    const rows = this.db
      .prepare(
        `SELECT DISTINCT product FROM charge_journal WHERE scope IN (SELECT value FROM json_each(?)) AND day = ? AND fas = ?
         AND title_number = ? AND status = 'CHARGED'`,
      )
      .all(JSON.stringify(clients), day, fas, titleNumber) as { product: string }[];
    return new Set(rows.map((r) => r.product));
  }

  async spendTotals(clients: readonly string[], day: string, caller?: CallerFilter): Promise<SpendTotals> {
    const values: (string | null)[] = [JSON.stringify(clients), day];
    const row = this.db
      .prepare(
        `SELECT SUM(CASE WHEN status = 'CHARGED' THEN amount_pence ELSE 0 END) AS charged,
                SUM(CASE WHEN status = 'CHARGED' THEN 0 ELSE amount_pence END) AS pending
         FROM charge_journal WHERE scope IN (SELECT value FROM json_each(?)) AND day = ?${whoseRows(caller, values)}`,
      )
      .get(...values) as { charged: number | null; pending: number | null };
    return { chargedPence: Number(row.charged ?? 0), pendingPence: Number(row.pending ?? 0) };
  }

  async adoptLegacyCallers(owner: (scope: string, subject: string) => string | undefined): Promise<number> {
    let adopted = 0;
    for (const table of ['idempotency', 'charge_journal']) {
      const legacy = this.db
        .prepare(`SELECT DISTINCT scope, caller FROM ${table} WHERE caller_id IS NULL AND caller IS NOT NULL`)
        .all() as { scope: string; caller: string }[];
      const adopt = this.db.prepare(`UPDATE ${table} SET caller_id = ? WHERE scope = ? AND caller = ? AND caller_id IS NULL`);
      for (const { scope, caller } of legacy) {
        const id = owner(scope, caller);
        if (id !== undefined) adopted += Number(adopt.run(id, scope, caller).changes);
      }
    }
    return adopted;
  }

  async purge(olderThan: number): Promise<number> {
    const result = this.db.prepare(`DELETE FROM idempotency WHERE updated_at < ?`).run(olderThan);
    return Number(result.changes);
  }

  async purgeJournal(olderThan: number): Promise<number> {
    const result = this.db.prepare(`DELETE FROM charge_journal WHERE recorded_at < ?`).run(olderThan);
    return Number(result.changes);
  }

  async close() {
    if (this.db.isOpen) this.db.close();
  }
}
