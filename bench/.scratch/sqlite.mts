import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
const db = new DatabaseSync(join(mkdtempSync(join(tmpdir(), 'sq-')), 'x.sqlite'));
db.exec(`PRAGMA journal_mode = WAL; PRAGMA busy_timeout = 5000; PRAGMA synchronous = NORMAL;
CREATE TABLE IF NOT EXISTS quota_usage (organisation TEXT NOT NULL, day TEXT NOT NULL, calls INTEGER NOT NULL, PRIMARY KEY (organisation, day));
CREATE TABLE IF NOT EXISTS quota_block (organisation TEXT PRIMARY KEY, blocked_until INTEGER NOT NULL);
CREATE TABLE IF NOT EXISTS client_budget (client TEXT PRIMARY KEY, tokens REAL NOT NULL, updated_at INTEGER NOT NULL);`);
const usage = db.prepare('SELECT calls FROM quota_usage WHERE organisation = ? AND day = ?');
const block = db.prepare('SELECT blocked_until FROM quota_block WHERE organisation = ?');
const budget = db.prepare('SELECT tokens, updated_at FROM client_budget WHERE client = ?');
const count = db.prepare(`INSERT INTO quota_usage (organisation, day, calls) VALUES (?, ?, 1) ON CONFLICT (organisation, day) DO UPDATE SET calls = calls + 1`);
const state = db.prepare(`SELECT (SELECT calls FROM quota_usage WHERE organisation = ?1 AND day = ?2) AS calls,
 (SELECT blocked_until FROM quota_block WHERE organisation = ?1) AS blocked_until,
 (SELECT tokens FROM client_budget WHERE client = ?3) AS tokens, (SELECT updated_at FROM client_budget WHERE client = ?3) AS updated_at`);
const begin = db.prepare('BEGIN IMMEDIATE'); const commit = db.prepare('COMMIT');
const variants: Record<string, (n: number) => void> = {
  current(n) { for (let i = 0; i < n; i++) { db.exec('BEGIN IMMEDIATE'); usage.get('ORG-A', 'd'); block.get('ORG-A'); budget.get('c'); count.run('ORG-A', 'd'); db.exec('COMMIT'); } },
  prepared(n) { for (let i = 0; i < n; i++) { begin.run(); state.get('ORG-A', 'd', 'c'); count.run('ORG-A', 'd'); commit.run(); } },
  batch8(n) { for (let i = 0; i < n; i += 8) { begin.run(); for (let j = 0; j < 8; j++) { state.get('ORG-A', 'd', 'c'); count.run('ORG-A', 'd'); } commit.run(); } },
};
for (const round of [0, 1]) for (const [name, fn] of Object.entries(variants)) {
  const N = 40000; fn(2000);
  const c0 = process.cpuUsage(); fn(N); const c = process.cpuUsage(c0);
  if (round) console.log(name.padEnd(10), 'µs/call user', (c.user / N).toFixed(2), 'sys', (c.system / N).toFixed(2));
}
