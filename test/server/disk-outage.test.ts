import { mkdtempSync, rmSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, test, vi } from 'vitest';
import { logServiceEvents } from '../../src/observability/logging';
import { DatabaseUnavailableError } from '../../src/storage/database-unavailable';
import { dataFileHealth, openDataFile, sqliteOutage } from '../../src/storage/sqlite-database';
import { PurchaseTitleDetailsMutation } from '../support/documents';
import { newKey, serviceForTest } from '../support/harness';
import { fillDisk, smallDiskForFile } from '../support/small-disk';

const disk = smallDiskForFile();

function recordingLogger() {
  const lines: { level: number; msg?: string; yoga?: unknown }[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines, text: () => lines.map((l) => JSON.stringify(l)).join('\n') };
}

const purchase = (key = newKey('disk')) => ({ fas: '0877', input: { titleNumber: 'MID15313', idempotencyKey: key } });

describe('a full disk under the embedded database', () => {
  test('503 "nothing was sent", /ready 503 disk_full, one log line for the episode; over once space is back', async ({ skip }) => {
    const mountPoint = disk.mountPoint();
    if (!mountPoint) return skip('mounting a tmpfs needs root');
    const dataDir = join(mountPoint, 'data');
    const { logger, lines, text } = recordingLogger();
    const svc = await serviceForTest({ services: { dataDir }, app: { logger, observability: { readiness: { cacheMs: 0 } } } });
    logServiceEvents(svc.services.events, logger);
    dataFileHealth(dataDir).quietMs = 0;

    const first = await svc.gql(PurchaseTitleDetailsMutation, purchase());
    expect(first.data?.purchaseTitleDetails.charges).toHaveLength(1);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(1);

    fillDisk(join(mountPoint, 'filler'));
    for (let i = 0; i < 5; i++) {
      const refused = await svc.gql(PurchaseTitleDetailsMutation, purchase());
      expect(refused.status).toBe(503);
      expect(refused.errors).toEqual([
        expect.objectContaining({
          message: expect.stringContaining('nothing was sent to the register'),
          extensions: expect.objectContaining({ code: 'SERVICE_UNAVAILABLE' }),
        }),
      ]);
    }
    // The register never heard of them: one purchase, the one before the disk filled.
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(1);
    expect(svc.emulator.ledger.charges).toHaveLength(1);

    const ready = await svc.get('/ready');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({ ready: false, database: { reachable: false, error: 'disk_full' } });

    const told = lines.filter((l) => /disk holding the database is full/.test(l.msg ?? ''));
    expect(told).toEqual([expect.objectContaining({ level: 50, event: 'storage', reason: 'disk_full' })]);
    expect(lines.filter((l) => l.level >= 50)).toHaveLength(1);
    expect(text()).not.toMatch(/cannot rollback|Unexpected error/);

    rmSync(join(mountPoint, 'filler'));
    // Readiness tries a write while the episode lasts: with space back, it ends.
    await vi.waitFor(async () => expect((await svc.get('/ready')).status).toBe(200), { timeout: 10_000, interval: 50 });
    expect(lines.filter((l) => /takes writes again, after/.test(l.msg ?? ''))).toEqual([
      expect.objectContaining({ level: 30, event: 'storage' }),
    ]);
    const again = await svc.gql(PurchaseTitleDetailsMutation, purchase());
    expect(again.status).toBe(200);
    expect(again.data?.purchaseTitleDetails.userErrors).toEqual([]);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(2);
  });
});

describe('SQLite errors that mean the file cannot be used', () => {
  test('read-only and full are outages (DatabaseUnavailableError); a constraint is the statement’s own fault', () => {
    const dir = mkdtempSync(join(tmpdir(), 'titlegraph-sqlite-'));
    try {
      const db = openDataFile(dir, 'CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY);');
      db.close();
      const readOnly = new DatabaseSync(join(dir, 'idempotency.sqlite'), { readOnly: true });
      let thrown: unknown;
      try {
        readOnly.exec('INSERT INTO t (id) VALUES (1)');
      } catch (error) {
        thrown = error;
      }
      readOnly.close();
      expect(sqliteOutage(thrown)).toBe('read_only');

      const guarded = openDataFile(dir, 'CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY);');
      guarded.exec('PRAGMA max_page_count = 1');
      // SQLITE_FULL inside a transaction: SQLite rolls back itself, and the ROLLBACK after it is no second error.
      guarded.exec('BEGIN IMMEDIATE');
      let full: unknown;
      try {
        for (let i = 0; i < 1_000; i++) guarded.prepare('INSERT INTO t (id) VALUES (?)').run(i);
        guarded.exec('COMMIT');
      } catch (error) {
        full = error;
        guarded.exec('ROLLBACK');
      }
      expect(full).toBeInstanceOf(DatabaseUnavailableError);
      expect(full).toMatchObject({ reason: 'disk_full', message: 'the disk holding the database is full' });

      guarded.exec('PRAGMA max_page_count = 1000000');
      guarded.prepare('INSERT INTO t (id) VALUES (?)').run(1);
      expect(() => guarded.prepare('INSERT INTO t (id) VALUES (?)').run(1)).toThrow(/UNIQUE constraint failed/);
      guarded.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
