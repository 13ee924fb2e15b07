/**
 * The one SQLite file of an instance (DATA_DIR/idempotency.sqlite): idempotency keys, the
 * charge journal, the quota ledger and persisted queries, each store on a connection of its own.
 * WAL lets them read while another writes; busy_timeout makes a writer wait, not fail.
 *
 * A disk that is full, read-only or failing is an outage of the whole file, not a fault of one
 * statement: every connection's errors of that kind become DatabaseUnavailableError (503,
 * "nothing was sent"), and the file's health (DataFileHealth) tells the episode once, when it
 * starts and when it ends, to whoever listens (the log) and to readiness.
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite';
import { type DatabaseOutage, DatabaseUnavailableError } from './database-unavailable';

/** The write-ahead log's size once checkpointed (SQLite's journal_size_limit). */
export const WAL_SIZE_LIMIT_BYTES = 1024 * 1024;
import { OutageEpisodes } from './outage-episodes';

/** SQLite's primary result codes (the low byte of an extended one) that mean the file cannot be used. */
const OUTAGE_CODES: Record<number, DatabaseOutage> = {
  8: 'read_only', // SQLITE_READONLY
  10: 'io_error', // SQLITE_IOERR
  13: 'disk_full', // SQLITE_FULL
  14: 'io_error', // SQLITE_CANTOPEN
};

/** The outage an error of node:sqlite means, if it means one. */
export function sqliteOutage(error: unknown): DatabaseOutage | undefined {
  const errcode = (error as { errcode?: unknown } | null)?.errcode;
  return typeof errcode === 'number' ? OUTAGE_CODES[errcode & 0xff] : undefined;
}

/** The health of one data file, shared by every connection to it. */
export class DataFileHealth extends OutageEpisodes {
  /** Connections open on the file; the entry is dropped with the last. */
  connections = 0;

  constructor(
    /** The data folder (the key of `files`). */
    readonly dataDir: string,
    now: () => number = Date.now,
  ) {
    super(now);
  }

  /** A statement failed: an outage error becomes DatabaseUnavailableError (the episode starts with the first). */
  failed(error: unknown): unknown {
    const reason = sqliteOutage(error);
    if (!reason) return error;
    const unavailable = new DatabaseUnavailableError(error, reason);
    this.refused(unavailable);
    return unavailable;
  }

  /** A write was committed. */
  wrote(): void {
    this.worked();
  }

  /**
   * Readiness: resolves when the file takes writes, as soon as one went through since the last
   * refusal (the episode's end, for the log, waits for its quiet period). Until then it tries one
   * small write (nothing else may be writing: a replica out of its load balancer gets no
   * requests), and rejects while the outage lasts.
   */
  async check(): Promise<void> {
    if (this.working) return;
    let db: DatabaseSync | undefined;
    try {
      db = openDataFile(this.dataDir, 'CREATE TABLE IF NOT EXISTS data_file_probe (id INTEGER PRIMARY KEY, at INTEGER NOT NULL);');
      db.prepare('INSERT OR REPLACE INTO data_file_probe (id, at) VALUES (1, ?)').run(this.now());
    } catch {
      // the episode goes on; its error is the answer
    } finally {
      db?.close();
    }
    const outage = this.outage;
    if (!this.working && outage) throw outage;
  }
}

/** By data folder: what every connection to its file shares. */
const files = new Map<string, DataFileHealth>();

/** The health of the data file in `dataDir` (the same object for every store on it). */
export function dataFileHealth(dataDir: string): DataFileHealth {
  const key = resolve(dataDir);
  let health = files.get(key);
  if (!health) {
    health = new DataFileHealth(key);
    files.set(key, health);
  }
  return health;
}

/**
 * Opens the data file in `dataDir`. Every statement's
 * outage error becomes DatabaseUnavailableError and is told to the file's health; a ROLLBACK
 * after SQLite already rolled back (as it does on SQLITE_FULL) does nothing, rather than
 * replace the real error with "cannot rollback - no transaction is active".
 */
export function openDataFile(dataDir: string, schema: string, options: { synchronous?: 'FULL' | 'NORMAL' } = {}): DatabaseSync {
  mkdirSync(dataDir, { recursive: true });
  const health = dataFileHealth(dataDir);
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(join(dataDir, 'idempotency.sqlite'));
  } catch (error) {
    throw health.failed(error);
  }
  health.connections++;
  const guardedDb = guarded(db, health);
  try {
    // journal_size_limit: after each checkpoint the write-ahead log is cut back to 1 MiB; without
    // it the file keeps its largest size (4 MB and more after a busy hour) for good.
    guardedDb.exec(
      `PRAGMA journal_mode = WAL; PRAGMA journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}; PRAGMA busy_timeout = 5000; PRAGMA synchronous = ${options.synchronous ?? 'FULL'};`,
    );
    guardedDb.exec(schema);
  } catch (error) {
    guardedDb.close();
    throw error;
  }
  return guardedDb;
}

/**
 * Rows as arrays from SQLite, made objects here. node:sqlite builds each row object in C++, and
 * those left the heap growing between full collections: reading 3,000 pages of 500 rows grew the
 * process by 152 MB as objects, by 9 MB as arrays made objects in JavaScript, which was also
 * faster (1.6 s against 2.3 s; one row by key 1.5 µs against 1.8 µs). A year's CSV is such a read.
 * Undefined for a statement that returns no rows (a write, BEGIN, COMMIT).
 */
function rowReader(statement: StatementSync) {
  const columnNames = () => statement.columns().map((column) => column.name);
  let names = columnNames();
  if (names.length === 0) return undefined;
  statement.setReturnArrays(true);
  const objectOf = (values: readonly unknown[]): Record<string, unknown> => {
    // A statement SQLite prepared again after a schema change may return other columns.
    if (values.length !== names.length) names = columnNames();
    const row: Record<string, unknown> = {};
    for (let i = 0; i < names.length; i++) row[names[i]!] = values[i];
    return row;
  };
  return {
    get(args: SQLInputValue[]) {
      const values = statement.get(...args) as unknown as unknown[] | undefined;
      return values === undefined ? undefined : objectOf(values);
    },
    all(args: SQLInputValue[]) {
      return (statement.all(...args) as unknown as unknown[][]).map(objectOf);
    },
  };
}

/** Statements kept per connection (see guarded). */
const MAX_PREPARED_STATEMENTS = 256;

const isRollback = (sql: string) => /^\s*ROLLBACK\s*;?\s*$/i.test(sql);
/** A statement whose success puts data on the disk once committed (not a read, a PRAGMA or a BEGIN). */
const writes = (sql: string) => /^\s*(COMMIT|END|INSERT|UPDATE|DELETE|REPLACE)\b/i.test(sql);

/**
 * `db`, with every statement run through `health`. A Proxy rather than a wrapper class: the
 * stores keep using node:sqlite's own API, prepared statements included.
 */
function guarded(db: DatabaseSync, health: DataFileHealth): DatabaseSync {
  const attempt = <R>(sql: string, work: () => R): R => {
    let result: R;
    try {
      result = work();
    } catch (error) {
      throw health.failed(error);
    }
    // The disk took a write: a COMMIT, or a write outside a transaction.
    if (!db.isTransaction && writes(sql)) health.wrote();
    return result;
  };
  // Each statement's wrapped methods are made once, when it is prepared: the quota's run on every
  // register call, and a Proxy that made closures and matched the SQL on every call cost more than
  // some of the statements it wrapped.
  const statement = (prepared: StatementSync, sql: string): StatementSync => {
    const writesToDisk = writes(sql);
    const guard =
      <A extends unknown[], R>(method: (...args: A) => R) =>
      (...args: A): R => {
        let result: R;
        try {
          result = method.apply(prepared, args);
        } catch (error) {
          throw health.failed(error);
        }
        if (writesToDisk && !db.isTransaction) health.wrote();
        return result;
      };
    const run = guard(prepared.run);
    const reads = rowReader(prepared);
    const methods: Partial<Record<PropertyKey, unknown>> = {
      run: isRollback(sql)
        ? (...args: Parameters<StatementSync['run']>) => (db.isTransaction ? run(...args) : { changes: 0, lastInsertRowid: 0 })
        : run,
      get: guard(reads ? (...args: SQLInputValue[]) => reads.get(args) : prepared.get),
      all: guard(reads ? (...args: SQLInputValue[]) => reads.all(args) : prepared.all),
    };
    return new Proxy(prepared, {
      get(target, property) {
        const method = methods[property];
        if (method) return method;
        const value = Reflect.get(target, property, target) as unknown;
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
  };
  // Statements are kept by their SQL, per connection: compiling one cost more than running most
  // of them, and a statement page prepared per page left a native statement per page for the
  // collector (500 of them in a year's CSV). The texts are the stores' own, built from a handful
  // of shapes with every value a parameter; the bound is a guard, not a size anyone reaches.
  const prepared = new Map<string, StatementSync>();
  const methods: Partial<Record<PropertyKey, unknown>> = {
    exec: (sql: string) => (isRollback(sql) && !db.isTransaction ? undefined : attempt(sql, () => db.exec(sql))),
    prepare: (sql: string) => {
      let cached = prepared.get(sql);
      if (!cached) {
        if (prepared.size >= MAX_PREPARED_STATEMENTS) prepared.clear();
        cached = statement(
          attempt(sql, () => db.prepare(sql)),
          sql,
        );
        prepared.set(sql, cached);
      }
      return cached;
    },
    close: () => {
      prepared.clear();
      db.close();
      if (--health.connections <= 0 && files.get(health.dataDir) === health) files.delete(health.dataDir);
    },
  };
  return new Proxy(db, {
    get(target, property) {
      const method = methods[property];
      if (method) return method;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
