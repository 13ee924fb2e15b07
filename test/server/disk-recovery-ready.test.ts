/**
 * After a full disk under the embedded database is freed, `/ready` is 200 as soon as writes go
 * through, as the README says, not once the episode's quiet period has passed: that period only
 * decides when the log says the outage is over. On a real filesystem that fills up (a small tmpfs).
 */
import { execFileSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { logServiceEvents } from '../../src/observability/logging';
import { dataFileHealth } from '../../src/storage/sqlite-database';
import { PurchaseTitleDetailsMutation } from '../support/documents';
import { newKey, serviceForTest } from '../support/harness';

/** A 4 MiB tmpfs of this test's own; undefined where mounting is not allowed (not root). */
let mountPoint: string | undefined;
beforeAll(() => {
  const dir = mkdtempSync(join(tmpdir(), 'titlegraph-small-disk-'));
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m', 'tmpfs', dir], { stdio: 'ignore' });
    mountPoint = dir;
  } catch {
    rmSync(dir, { recursive: true, force: true });
  }
});
afterAll(() => {
  if (!mountPoint) return;
  execFileSync('umount', ['-l', mountPoint], { stdio: 'ignore' });
  rmSync(mountPoint, { recursive: true, force: true });
});

/** Writes a file until the filesystem has no byte left. */
function fillDisk(path: string): void {
  const fd = openSync(path, 'w');
  try {
    for (const size of [64 * 1024, 512, 1]) {
      try {
        for (;;) writeSync(fd, Buffer.alloc(size));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
      }
    }
  } finally {
    closeSync(fd);
  }
}

const purchase = () => ({ fas: '0877', input: { titleNumber: 'MID15313', idempotencyKey: newKey('disk-ready') } });

describe('a freed disk under the embedded database', () => {
  test('/ready is 200 once a write went through, while the log still waits out the quiet period', async ({ skip }) => {
    if (!mountPoint) return skip('mounting a tmpfs needs root');
    const dataDir = join(mountPoint, 'data');
    const lines: { level: number; msg?: string }[] = [];
    const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const svc = await serviceForTest({ services: { dataDir }, app: { logger, observability: { readiness: { cacheMs: 0 } } } });
    logServiceEvents(svc.services.events, logger);
    // Longer than the test: the episode, as the log tells it, cannot end during it.
    dataFileHealth(dataDir).quietMs = 600_000;

    expect((await svc.gql(PurchaseTitleDetailsMutation, purchase())).data?.purchaseTitleDetails.userErrors).toEqual([]);
    fillDisk(join(mountPoint, 'filler'));
    expect((await svc.gql(PurchaseTitleDetailsMutation, purchase())).status).toBe(503);
    expect(await (await svc.get('/ready')).json()).toMatchObject({ ready: false, database: { reachable: false, error: 'disk_full' } });

    rmSync(join(mountPoint, 'filler'));
    const served = await svc.gql(PurchaseTitleDetailsMutation, purchase());
    expect(served.data?.purchaseTitleDetails.userErrors).toEqual([]);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(2);

    const ready = await svc.get('/ready');
    expect(ready.status).toBe(200);
    expect(await ready.json()).toMatchObject({ ready: true, database: { reachable: true } });
    expect(lines.filter((l) => /takes writes again, after/.test(l.msg ?? ''))).toEqual([]);
  });
});
