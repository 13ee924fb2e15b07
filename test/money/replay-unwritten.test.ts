/**
 * A purchase whose outcome could not be written (the disk filled, the database went away) after
 * the register charged: this replica holds the answer, and a replay of its key is answered from
 * it at once (the charge, its transaction number), not after 30 s of waiting with
 * IDEMPOTENCY_KEY_IN_USE. Once the outbox writes it, the store answers. Judged on the emulator's
 * call log and ledger: the call is made once.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, onTestFinished, test, vi } from 'vitest';
import { DatabaseUnavailableError } from '../../src/storage/database-unavailable';
import { SqliteIdempotencyStore } from '../../src/storage/idempotency/sqlite-store';
import { BuyTitleMutation } from '../support/documents';
import { newKey, serviceForTest } from '../support/harness';

/** The embedded store, whose writes of outcomes fail while `full` is set (as on a full disk). */
function storeWithFullDisk() {
  const dir = mkdtempSync(join(tmpdir(), 'titlegraph-unwritten-'));
  const store = new SqliteIdempotencyStore(dir);
  onTestFinished(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const disk = { full: false };
  const finish = store.finish.bind(store);
  store.finish = (...args) =>
    disk.full ? Promise.reject(new DatabaseUnavailableError(new Error('SQLITE_FULL'), 'disk_full')) : finish(...args);
  return { store, disk };
}

test('a replay of a key whose outcome is not written yet is answered from memory at once, then from the store', async () => {
  const { store, disk } = storeWithFullDisk();
  const svc = await serviceForTest({ services: { idempotency: store, idempotencyTiming: { waitMs: 30_000 } } });
  const purchase = { fas: '0877', input: { titleNumber: 'MID15313', idempotencyKey: newKey('unwritten') } };

  disk.full = true;
  const first = await svc.gql(BuyTitleMutation, purchase);
  const charge = first.data!.purchaseTitleDetails.charges[0]!;
  expect(charge.transactionNumber).toBe(svc.emulator.ledger.charges[0]!.charge.transactionNumber);
  expect((await store.get('client-a', purchase.input.idempotencyKey))!.state).toBe('in_progress');

  const started = Date.now();
  const replay = await svc.gql(BuyTitleMutation, purchase);
  expect(Date.now() - started).toBeLessThan(5_000);
  expect(replay.data!.purchaseTitleDetails).toMatchObject({ charges: [charge], userErrors: [] });
  expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(1);

  disk.full = false;
  await vi.waitFor(async () => expect((await store.get('client-a', purchase.input.idempotencyKey))!.state).toBe('succeeded'), {
    timeout: 5_000,
  });
  expect(svc.services.unsettled.size).toBe(0);
  expect((await svc.gql(BuyTitleMutation, purchase)).data!.purchaseTitleDetails.charges).toEqual([charge]);
  expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(1);
  expect(svc.emulator.ledger.charges).toHaveLength(1);
}, 40_000);
