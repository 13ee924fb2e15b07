/**
 * The embedded data file as the stores read it (storage/sqlite-database.ts): rows come from
 * SQLite as arrays and are made objects here, and statements are kept by their SQL. What a store
 * reads must be exactly what node:sqlite itself would have given, through schema changes and
 * however many statements a connection has prepared.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { openDataFile } from '../../src/storage/sqlite-database';

let dir: string;
let db: DatabaseSync;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'titlegraph-data-file-'));
  db = openDataFile(
    dir,
    'CREATE TABLE IF NOT EXISTS entry (id INTEGER PRIMARY KEY, name TEXT, amount REAL, note TEXT, day TEXT NOT NULL);',
  );
  const insert = db.prepare('INSERT INTO entry (name, amount, note, day) VALUES (?, ?, ?, ?)');
  insert.run('first', 3, null, '2026-11-01');
  insert.run('second', 12.5, 'paid', '2026-11-02');
  insert.run("a 'quoted', name", -1, '', '2026-11-03');
});
afterEach(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The same query on a plain node:sqlite connection to the same file. */
function direct<T>(read: (plain: DatabaseSync) => T): T {
  const plain = new DatabaseSync(join(dir, 'idempotency.sqlite'));
  try {
    return read(plain);
  } finally {
    plain.close();
  }
}

describe('rows read through the data file', () => {
  test('all() and get() give the columns and values node:sqlite gives, nulls, numbers and empty text included', () => {
    const sql = 'SELECT id, name, amount, note, day, amount * 2 AS doubled FROM entry ORDER BY id';
    const ours = db.prepare(sql).all();
    expect(ours).toHaveLength(3);
    expect(ours).toEqual(
      direct((plain) =>
        plain
          .prepare(sql)
          .all()
          .map((row) => ({ ...row })),
      ),
    );
    expect(Object.keys(ours[0]!)).toEqual(['id', 'name', 'amount', 'note', 'day', 'doubled']);

    const one = 'SELECT name, note FROM entry WHERE day = ?';
    expect(db.prepare(one).get('2026-11-03')).toEqual({ name: "a 'quoted', name", note: '' });
    expect(db.prepare(one).get('2026-11-01')).toEqual({ name: 'first', note: null });
    expect(db.prepare(one).get('1999-01-01')).toBeUndefined();
  });

  test('a statement prepared before a column was added reads the new column afterwards', () => {
    const everything = db.prepare('SELECT * FROM entry WHERE id = ?');
    expect(Object.keys(everything.get(1)!)).toEqual(['id', 'name', 'amount', 'note', 'day']);
    db.exec("ALTER TABLE entry ADD COLUMN caller TEXT DEFAULT 'ann'");
    expect(everything.get(1)).toEqual({ id: 1, name: 'first', amount: 3, note: null, day: '2026-11-01', caller: 'ann' });
    expect(db.prepare('SELECT * FROM entry WHERE id = ?').all(2)).toEqual([
      { id: 2, name: 'second', amount: 12.5, note: 'paid', day: '2026-11-02', caller: 'ann' },
    ]);
  });

  test('writes report their changes, and a connection that has prepared many statements still reads and writes right', () => {
    const result = db.prepare('UPDATE entry SET note = ? WHERE amount > ?').run('checked', 0);
    expect(result.changes).toBe(2);
    // More distinct statements than a connection keeps: the kept ones are dropped, none is wrong.
    for (let i = 0; i < 600; i++) expect(db.prepare(`SELECT ${i} AS n, count(*) AS c FROM entry`).get()).toEqual({ n: i, c: 3 });
    expect(db.prepare('SELECT note FROM entry ORDER BY id').all()).toEqual([{ note: 'checked' }, { note: 'checked' }, { note: '' }]);
    expect(db.prepare('UPDATE entry SET note = ? WHERE amount > ?').run('again', 10).changes).toBe(1);
  });
});
