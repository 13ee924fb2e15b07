/**
 * The README's "Upgrading and rolling back", its commands run as written: on a PostgreSQL
 * database and a SQLite data folder as the release before callers were kept left them, the
 * backup; the upgrade, which is the stores' own start (columns and index added, rows kept); a
 * write as the previous release makes it, on the upgraded tables (a rollback without restore);
 * and the restore, which gives back the tables as they were.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import pg from 'pg';
import { describe, expect, onTestFinished, test } from 'vitest';
import { PgIdempotencyStore } from '../../src/storage/idempotency/pg-store';
import { SqliteIdempotencyStore } from '../../src/storage/idempotency/sqlite-store';
import { tableStatements } from '../../src/storage/idempotency/tables';
import { createTestDatabase, postgresSuite } from '../support/pg';
import { docPage } from '../support/docs';

const pgSuite = await postgresSuite();

/** The README's sh blocks of the section, in order: [backup, restore]. */
function readmeBlocks(): string[] {
  const readme = docPage('operations');
  const start = readme.indexOf('## Upgrading and rolling back');
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!.replace(/^ {3}/gm, ''));
}

/** Runs one README block in `cwd` with these settings; its output on failure. */
function run(block: string, cwd: string, env: Record<string, string>): void {
  const result = spawnSync('bash', ['-euc', block], { cwd, env: { ...process.env, ...env }, encoding: 'utf8' });
  expect(result.status, `${result.stdout}${result.stderr}`).toBe(0);
}

/** The tables as the release before callers made them: today's, less the caller columns and index. */
const BEFORE_CALLERS = [
  ...tableStatements('idempotency', 'charge_journal', { serial: 'BIGSERIAL PRIMARY KEY', integer: 'BIGINT' }),
  'ALTER TABLE idempotency DROP COLUMN caller, DROP COLUMN caller_id',
  'ALTER TABLE charge_journal DROP COLUMN caller, DROP COLUMN caller_name, DROP COLUMN caller_id',
];
/** A write as that release made it: it names its columns. */
const OLD_KEY = `INSERT INTO idempotency (scope, key, operation, input_hash, state, outcome, created_at, updated_at)
  VALUES ('client-a', 'KEY', 'purchaseTitleDetails', 'h', 'succeeded', '{"ok":true}', 1, 1)`;
const OLD_CHARGE = `INSERT INTO charge_journal (scope, key, status, operation, fas, title_number, charge, day, recorded_at, reference, product, amount_pence)
  VALUES ('client-a', 'KEY', 'CHARGED', 'purchaseTitleDetails', '0877', 'MID15313', '{"fee":"3.00"}', '2026-01-05', 1, 'r', 'TITLE_DATA_AND_PLANS', 300)`;

test('the README names both commands, for PostgreSQL and for SQLite', () => {
  const [backup, restore] = readmeBlocks();
  expect(backup).toMatch(/^pg_dump .*"\$DATABASE_URL"$/m);
  expect(backup).toMatch(/^cp -a "\$\{DATA_DIR:-data\}"/m);
  expect(restore).toMatch(/^pg_restore --clean .*--dbname="\$DATABASE_URL"/m);
  expect(restore).toMatch(/^rm -rf "\$\{DATA_DIR:-data\}" && mv /m);
});

describe.skipIf(!pgSuite.run)(pgSuite.title('upgrading and rolling back, as the README says'), () => {
  test('backup, upgrade by start, a write by the previous release, restore: PostgreSQL and SQLite', async () => {
    const [backup, restore] = readmeBlocks() as [string, string];
    const database = await createTestDatabase('upgrade');
    onTestFinished(() => database.drop());
    const work = mkdtempSync(join(tmpdir(), 'titlegraph-upgrade-'));
    onTestFinished(() => rmSync(work, { recursive: true, force: true }));
    const env = { DATABASE_URL: database.url, DATA_DIR: join(work, 'data') };

    // What the previous release left: PostgreSQL…
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    onTestFinished(() => client.end());
    for (const statement of BEFORE_CALLERS) await client.query(statement);
    await client.query(OLD_KEY.replace('KEY', 'before'));
    await client.query(OLD_CHARGE.replace('KEY', 'before'));
    // …and SQLite.
    const sqliteBefore = new SqliteIdempotencyStore(env.DATA_DIR);
    await sqliteBefore.close();
    const file = join(env.DATA_DIR, 'idempotency.sqlite');
    const old = new DatabaseSync(file);
    old.exec(
      `DROP INDEX charge_journal_caller; DROP INDEX charge_journal_principal; ALTER TABLE idempotency DROP COLUMN caller;
       ALTER TABLE idempotency DROP COLUMN caller_id; ALTER TABLE charge_journal DROP COLUMN caller_name;
       ALTER TABLE charge_journal DROP COLUMN caller; ALTER TABLE charge_journal DROP COLUMN caller_id`,
    );
    old.exec(OLD_KEY.replace('KEY', 'before'));
    old.exec(OLD_CHARGE.replace('KEY', 'before'));
    old.close();

    const pgColumns = async () =>
      (
        await client.query<{ column_name: string }>(
          "SELECT column_name FROM information_schema.columns WHERE table_name = 'charge_journal' AND table_schema = 'public' ORDER BY column_name",
        )
      ).rows.map((r) => r.column_name);
    const sqliteColumns = () => {
      const db = new DatabaseSync(file);
      try {
        return (db.prepare('PRAGMA table_info(charge_journal)').all() as { name: string }[]).map((c) => c.name).sort();
      } finally {
        db.close();
      }
    };
    const before = { pg: await pgColumns(), sqlite: sqliteColumns() };
    expect(before.pg).not.toContain('caller');
    expect(before.sqlite).not.toContain('caller');

    run(backup, work, env);

    // The upgrade: the new release's stores, started on the old tables.
    const store = new PgIdempotencyStore({ connectionString: database.url, maxConnections: 1 });
    await store.ready();
    await store.close();
    const sqliteAfter = new SqliteIdempotencyStore(env.DATA_DIR);
    await sqliteAfter.close();
    expect(await pgColumns()).toEqual([...before.pg, 'caller', 'caller_id', 'caller_name'].sort());
    expect(sqliteColumns()).toEqual([...before.sqlite, 'caller', 'caller_id', 'caller_name'].sort());
    const kept = await client.query("SELECT key, caller FROM charge_journal WHERE key = 'before'");
    expect(kept.rows).toEqual([{ key: 'before', caller: null }]);

    // A rollback without restore: the previous release's writes go into the upgraded tables.
    await client.query(OLD_KEY.replace('KEY', 'by-previous-release'));
    await client.query(OLD_CHARGE.replace('KEY', 'by-previous-release'));
    const upgraded = new DatabaseSync(file);
    upgraded.exec(OLD_CHARGE.replace('KEY', 'by-previous-release'));
    upgraded.close();

    // The restore (every replica stopped): the tables as they were before, with their rows.
    run(restore, work, env);
    expect(await pgColumns()).toEqual(before.pg);
    expect(sqliteColumns()).toEqual(before.sqlite);
    expect((await client.query('SELECT key FROM charge_journal ORDER BY key')).rows).toEqual([{ key: 'before' }]);
    const restored = new DatabaseSync(file);
    expect(restored.prepare('SELECT key FROM charge_journal').all()).toEqual([{ key: 'before' }]);
    restored.close();
  }, 60_000);
});
