/**
 * The emulator's durable state (`startEmulator({ stateFile })`): one SQLite file holding what a
 * real register would still know after a restart (its ledger and transaction-number counter,
 * quota counts, live tokens, cases, deeds, issued document and plan IDs). Every change is one
 * synchronous transaction with synchronous=FULL, committed before the emulator answers, so a
 * charge a caller was told about survives a kill at any instant; SQLite's write-ahead log makes
 * a commit cut short invisible, never a torn file. Call records, faults and the clock's offset
 * are the test harness's, not the register's, and are not kept.
 */
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import type { CaseRecord, DeedRecord, IssuedFile, LedgerEntry } from './types';

/** A token as kept: the SHA-256 of the bearer value, never the value (the file is no key ring). */
export interface KeptToken {
  hash: string;
  clientId: string;
  organisation: string;
  expiresAt: number;
}

export interface KeptCharge {
  sequence: number;
  entry: LedgerEntry;
}

/** What a state file holds at start, to rebuild the in-memory state from. */
export interface KeptState {
  charges: KeptCharge[];
  /** The last transaction-number sequence ever used (0 for a new file); the next charge takes one more. */
  lastSequence: number;
  quota: { organisation: string; day: string; used: number }[];
  tokens: KeptToken[];
  /** Cases created through the API (the seeded ones come from the fixtures), without their deeds. */
  cases: CaseRecord[];
  /** Every deed added through the API, in order (seeded cases' too). */
  deeds: DeedRecord[];
  documents: IssuedFile[];
}

/** Where the state's changes go: a state file, or nowhere (the in-memory default). */
export interface StateSink {
  /** The charges of one call and the sequence they leave, together or not at all. */
  charged(charges: readonly KeptCharge[]): void;
  quotaTaken(organisation: string, day: string, used: number): void;
  tokenIssued(token: KeptToken): void;
  tokensExpired(now: number): void;
  caseCreated(record: CaseRecord): void;
  deedAdded(deed: DeedRecord): void;
  fileIssued(file: IssuedFile): void;
  close(): void;
}

export const IN_MEMORY: StateSink = {
  charged() {},
  quotaTaken() {},
  tokenIssued() {},
  tokensExpired() {},
  caseCreated() {},
  deedAdded() {},
  fileIssued() {},
  close() {},
};

/** A state file that cannot be used: the start stops, rather than run on an empty register beside kept data. */
export class EmulatorStateError extends Error {
  override name = 'EmulatorStateError';
}

const FORMAT = 1;

const SCHEMA = `
  CREATE TABLE IF NOT EXISTS counters (name TEXT PRIMARY KEY, value INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS charges (sequence INTEGER PRIMARY KEY, entry TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS quota (organisation TEXT NOT NULL, day TEXT NOT NULL, used INTEGER NOT NULL,
    PRIMARY KEY (organisation, day));
  CREATE TABLE IF NOT EXISTS tokens (hash TEXT PRIMARY KEY, client_id TEXT NOT NULL, organisation TEXT NOT NULL,
    expires_at INTEGER NOT NULL);
  CREATE TABLE IF NOT EXISTS cases (id TEXT PRIMARY KEY, record TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS deeds (position INTEGER PRIMARY KEY AUTOINCREMENT, record TEXT NOT NULL);
  CREATE TABLE IF NOT EXISTS documents (id TEXT PRIMARY KEY, record TEXT NOT NULL);
`;

/** JSON of a record whose Date fields come back as Dates. */
const revive = (text: string, dates: readonly string[]) =>
  JSON.parse(text, (key, value: unknown) => (dates.includes(key) && typeof value === 'string' ? new Date(value) : value));

function problem(path: string, error: unknown): EmulatorStateError {
  const code = (error as { errcode?: unknown }).errcode;
  const primary = typeof code === 'number' ? code & 0xff : undefined;
  const why =
    primary === 5 || primary === 6 // SQLITE_BUSY, SQLITE_LOCKED
      ? 'it is in use by another running emulator (another start on the same DATA_DIR?)'
      : primary === 26 || primary === 11 // SQLITE_NOTADB, SQLITE_CORRUPT
        ? 'it is not an emulator state file, or it is damaged; move it away to start the emulator empty'
        : (error as Error).message;
  return new EmulatorStateError(`the register emulator's state file ${path} cannot be used: ${why}`);
}

class SqliteStateSink implements StateSink {
  private readonly statements: Record<'charge' | 'counter' | 'quota' | 'token' | 'expire' | 'case' | 'deed' | 'file', StatementSync>;

  constructor(private readonly db: DatabaseSync) {
    this.statements = {
      charge: db.prepare('INSERT INTO charges (sequence, entry) VALUES (?, ?)'),
      counter: db.prepare(
        "INSERT INTO counters (name, value) VALUES ('sequence', ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value",
      ),
      quota: db.prepare(
        'INSERT INTO quota (organisation, day, used) VALUES (?, ?, ?) ON CONFLICT (organisation, day) DO UPDATE SET used = excluded.used',
      ),
      token: db.prepare('INSERT OR REPLACE INTO tokens (hash, client_id, organisation, expires_at) VALUES (?, ?, ?, ?)'),
      expire: db.prepare('DELETE FROM tokens WHERE expires_at <= ?'),
      case: db.prepare('INSERT INTO cases (id, record) VALUES (?, ?)'),
      deed: db.prepare('INSERT INTO deeds (record) VALUES (?)'),
      file: db.prepare('INSERT INTO documents (id, record) VALUES (?, ?)'),
    };
  }

  charged(charges: readonly KeptCharge[]) {
    if (charges.length === 0) return;
    this.db.exec('BEGIN IMMEDIATE');
    try {
      for (const c of charges) this.statements.charge.run(c.sequence, JSON.stringify(c.entry));
      this.statements.counter.run(charges.at(-1)!.sequence);
      this.db.exec('COMMIT');
    } catch (error) {
      if (this.db.isTransaction) this.db.exec('ROLLBACK');
      throw error;
    }
  }

  quotaTaken(organisation: string, day: string, used: number) {
    this.statements.quota.run(organisation, day, used);
  }

  tokenIssued(t: KeptToken) {
    this.statements.token.run(t.hash, t.clientId, t.organisation, t.expiresAt);
  }

  tokensExpired(now: number) {
    this.statements.expire.run(now);
  }

  caseCreated(record: CaseRecord) {
    const { deeds: _deeds, ...rest } = record;
    this.statements.case.run(record.id, JSON.stringify(rest));
  }

  deedAdded(deed: DeedRecord) {
    this.statements.deed.run(JSON.stringify(deed));
  }

  fileIssued(file: IssuedFile) {
    this.statements.file.run(file.id, JSON.stringify(file));
  }

  close() {
    if (this.db.isOpen) this.db.close();
  }

  read(): KeptState {
    const rows = (sql: string) => this.db.prepare(sql).all() as Record<string, unknown>[];
    const charges = rows('SELECT sequence, entry FROM charges ORDER BY sequence').map((r) => ({
      sequence: Number(r.sequence),
      entry: revive(String(r.entry), ['at']) as LedgerEntry,
    }));
    const counter = rows("SELECT value FROM counters WHERE name = 'sequence'")[0];
    const lastSequence = Math.max(Number(counter?.value ?? 0), charges.at(-1)?.sequence ?? 0);
    return {
      charges,
      lastSequence,
      quota: rows('SELECT organisation, day, used FROM quota').map((r) => ({
        organisation: String(r.organisation),
        day: String(r.day),
        used: Number(r.used),
      })),
      tokens: rows('SELECT hash, client_id, organisation, expires_at FROM tokens').map((r) => ({
        hash: String(r.hash),
        clientId: String(r.client_id),
        organisation: String(r.organisation),
        expiresAt: Number(r.expires_at),
      })),
      cases: rows('SELECT record FROM cases ORDER BY rowid').map((r) => ({
        ...(revive(String(r.record), ['createdAt']) as Omit<CaseRecord, 'deeds'>),
        deeds: [],
      })),
      deeds: rows('SELECT record FROM deeds ORDER BY position').map((r) => revive(String(r.record), ['createdAt']) as DeedRecord),
      documents: rows('SELECT record FROM documents ORDER BY rowid').map(
        (r) => revive(String(r.record), ['issuedAt', 'expiresAt']) as IssuedFile,
      ),
    };
  }

  /** Opens (creating it when new) and takes the file for this emulator alone until close. */
  static open(path: string): { sink: SqliteStateSink; state: KeptState } {
    let db: DatabaseSync | undefined;
    try {
      db = new DatabaseSync(path);
      // One emulator per file: two would each hand out the same transaction numbers. The
      // exclusive lock is held from the first write until close (a killed process drops it).
      db.exec('PRAGMA locking_mode = EXCLUSIVE');
      db.exec('PRAGMA journal_mode = WAL');
      db.exec('PRAGMA synchronous = FULL');
      db.exec('BEGIN EXCLUSIVE');
      const version = Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);
      if (version > FORMAT) {
        db.exec('ROLLBACK');
        throw new EmulatorStateError(
          `the register emulator's state file ${path} cannot be used: it was written by a newer release (format ${version}, this one reads ${FORMAT})`,
        );
      }
      db.exec(SCHEMA);
      db.exec(`PRAGMA user_version = ${FORMAT}`);
      db.exec('COMMIT');
      const sink = new SqliteStateSink(db);
      return { sink, state: sink.read() };
    } catch (error) {
      if (db?.isOpen) db.close();
      throw error instanceof EmulatorStateError ? error : problem(path, error);
    }
  }
}

/** The state kept in `path` and the sink that keeps it there from now on. */
export function openStateFile(path: string): { sink: StateSink; state: KeptState } {
  return SqliteStateSink.open(path);
}
