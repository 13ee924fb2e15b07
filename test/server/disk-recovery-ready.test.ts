import { rmSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { describe, expect, test } from 'vitest';
import { logServiceEvents } from '../../src/observability/logging';
import { dataFileHealth } from '../../src/storage/sqlite-database';
import { PurchaseTitleDetailsMutation } from '../support/documents';
import { newKey, serviceForTest } from '../support/harness';
import { fillDisk, smallDiskForFile } from '../support/small-disk';

const disk = smallDiskForFile();

const purchase = () => ({ fas: '0877', input: { titleNumber: 'MID15313', idempotencyKey: newKey('disk-ready') } });

describe('a freed disk under the embedded database', () => {
  test('/ready is 200 once a write went through, while the log still waits out the quiet period', async ({ skip }) => {
    const mountPoint = disk.mountPoint();
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
