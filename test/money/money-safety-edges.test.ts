/**
 * Money safety at the edges: a call that provably never left (pool wait, refused connection)
 * keeps its key usable and leaves no journal entry; London midnight between the charge and
 * the replay; a process that died mid-call; a 401 or a 429 on a chargeable GET.
 */
import { createServer } from 'node:net';
import { describe, expect, test, vi } from 'vitest';
import { SqliteIdempotencyStore } from '../../src/storage/idempotency/sqlite-store';
import { inputHash } from '../../src/services/idempotency/key';
import { londonDate } from '../../src/register/contract/london-day';
import { request } from 'undici';
import { ChargeRecordsQuery, PurchaseTitleDetailsMutation, TitleQuery } from '../support/documents';
import { newKey, serviceForTest, type Service } from '../support/harness';
import { FAULT_TEST_TRANSPORT } from '../support/fault-transport';

const details = (key: string, titleNumber = 'MID15313', fas = '0877') => ({
  fas,
  input: { titleNumber, reference: 'edge', idempotencyKey: key },
});

async function journal(svc: Service, day = londonDate(svc.emulator.clock.now())) {
  const { data, errors } = await svc.gql(ChargeRecordsQuery, { day });
  expect(errors).toBeUndefined();
  return data!.chargeRecords;
}

describe('a call that never left keeps its key', () => {
  test('the wait for a pool connection counts inside the deadline, is never sent later, and the key then works once', async () => {
    const svc = await serviceForTest({ services: { transport: { ...FAULT_TEST_TRANSPORT, connections: 1 } } });
    await svc.gql(TitleQuery, { titleNumber: 'MID1234' }); // a token, and the one connection, in place
    // The tenant's only API connection is held by an answer the register drips out slowly.
    svc.emulator.faults.inject('titleSummary', { kind: 'drip', chunkBytes: 1, intervalMs: 50 }, 1);
    const holder = await request(`${svc.emulator.url}/titles/MID1234/summary`, {
      dispatcher: svc.services.transport.dispatcher('client-a', 'api'),
    });

    const key = newKey('pool');
    const first = await svc.gql(PurchaseTitleDetailsMutation, details(key));
    expect(first.errors![0]!.extensions!.code).toBe('REGISTER_TIMEOUT');
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(0);
    expect((await journal(svc)).filter((r) => r.idempotencyKey === key)).toEqual([]);

    // The connection frees: the purchase that gave up waiting must not go out now. The pool
    // serves its queue in order, so a read sent after it has been answered once the queue is past it.
    holder.body.destroy();
    const summaries = svc.emulator.calls.count({ route: 'titleSummary' });
    expect((await svc.gql(TitleQuery, { titleNumber: 'MID15313' })).data!.title!.titleNumber).toBe('MID15313');
    expect(svc.emulator.calls.count({ route: 'titleSummary' })).toBe(summaries + 1);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(0);
    expect(svc.emulator.ledger.charges).toHaveLength(0);

    const again = await svc.gql(PurchaseTitleDetailsMutation, details(key));
    expect(again.data!.purchaseTitleDetails.userErrors).toEqual([]);
    expect(again.data!.purchaseTitleDetails.charges).toHaveLength(1);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(1);
    expect((await journal(svc)).filter((r) => r.idempotencyKey === key).map((r) => r.status)).toEqual(['CHARGED']);
  });

  test('a register that refuses connections: an error, no journal entry, and the key works once it is back', async () => {
    const emulatorPort = await freePort();
    const svc = await serviceForTest({ services: { transport: FAULT_TEST_TRANSPORT } });
    const down = await svc.restart({ registerBaseUrl: `http://127.0.0.1:${emulatorPort}/v1` });
    const key = newKey('refused');
    const first = await down.gql(PurchaseTitleDetailsMutation, details(key));
    expect(first.errors![0]!.extensions!.code).toBe('REGISTER_UNAVAILABLE');
    expect(await journal(down)).toEqual([]);

    const up = await svc.restart({ registerBaseUrl: svc.emulator.url });
    const again = await up.gql(PurchaseTitleDetailsMutation, details(key));
    expect(again.data!.purchaseTitleDetails.charges).toHaveLength(1);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(1);
  });
});

describe('chargeable GETs', () => {
  test('a 401 on titleDetails is refreshed once and re-sent: one charge', async () => {
    const svc = await serviceForTest({ services: { transport: FAULT_TEST_TRANSPORT } });
    svc.emulator.faults.inject('titleDetails', { kind: 'status', status: 401 }, 1);
    const { data } = await svc.gql(PurchaseTitleDetailsMutation, details(newKey('401')));
    expect(data!.purchaseTitleDetails.charges).toHaveLength(1);
    expect(svc.emulator.calls.count({ route: 'titleDetails', status: 401 })).toBe(1);
    expect(svc.emulator.calls.count({ route: 'titleDetails', status: 200 })).toBe(1);
    expect(svc.emulator.ledger.charges).toHaveLength(1);
  });

  test('a 429 on titleDetails is RATE_LIMITED, never stored as the key’s answer: the key works later', async () => {
    const svc = await serviceForTest({ services: { transport: FAULT_TEST_TRANSPORT } });
    // Retry-After 1 s is past the 700 ms deadline: answered at once, and the tenant waits 1 s.
    svc.emulator.faults.inject('titleDetails', { kind: 'status', status: 429, retryAfterSeconds: 1 }, 1);
    const key = newKey('429');
    const first = await svc.gql(PurchaseTitleDetailsMutation, details(key));
    expect(first.data!.purchaseTitleDetails.userErrors[0]!.code).toBe('RATE_LIMITED');
    expect(await journal(svc)).toEqual([]);
    // Asked again until the tenant's wait is over: refused here meanwhile, with nothing sent.
    const again = await vi.waitFor(
      async () => {
        const answer = await svc.gql(PurchaseTitleDetailsMutation, details(key));
        expect(answer.data!.purchaseTitleDetails.charges).toHaveLength(1);
        return answer;
      },
      { timeout: 10_000, interval: 100 },
    );
    expect(again.data!.purchaseTitleDetails.userErrors).toEqual([]);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(2); // the 429, then the purchase
    expect(svc.emulator.ledger.charges).toHaveLength(1);
  });
});

describe('London midnight', () => {
  test('a charge at 23:59:53 whose answer hangs: never re-sent after midnight, journalled on the register day of the charge', async () => {
    const svc = await serviceForTest({ services: { transport: FAULT_TEST_TRANSPORT } });
    // January: London is on GMT, so this is 23:59:53 London time, on a day that is not the service's.
    svc.emulator.clock.set(new Date('2026-01-15T23:59:53Z'));
    svc.emulator.faults.inject('titleDetails', { kind: 'hang', phase: 'after' }, 1);
    const key = newKey('midnight');
    const first = await svc.gql(PurchaseTitleDetailsMutation, details(key));
    expect(first.data!.purchaseTitleDetails.userErrors[0]!.code).toBe('OUTCOME_UNKNOWN');

    svc.emulator.clock.advance(10_000); // 00:00:03 on the 16th
    const replay = await svc.gql(PurchaseTitleDetailsMutation, details(key));
    expect(replay.data).toEqual(first.data);
    // The first purchase answered only after its one attempt had ended, and the replay from the journal.
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(1);
    expect(svc.emulator.ledger.charges).toHaveLength(1);
    expect(londonDate(svc.emulator.ledger.charges[0]!.at)).toBe('2026-01-15');

    expect((await journal(svc, '2026-01-15')).map((r) => [r.idempotencyKey, r.status])).toEqual([[key, 'OUTCOME_UNKNOWN']]);
    expect(await journal(svc, '2026-01-16')).toEqual([]);

    // Buying again after midnight is a new register day: a new, legitimate charge, journalled on that day.
    const next = newKey('next-day');
    const bought = await svc.gql(PurchaseTitleDetailsMutation, details(next));
    const charge = bought.data!.purchaseTitleDetails.charges[0]!;
    expect(svc.emulator.ledger.charges).toHaveLength(2);
    expect(await journal(svc, '2026-01-16')).toEqual([
      expect.objectContaining({
        idempotencyKey: next,
        status: 'CHARGED',
        charge: expect.objectContaining({ transactionNumber: charge.transactionNumber }),
      }),
    ]);
  });
});

describe('a process that died mid-call', () => {
  test('its key, left in progress, becomes OUTCOME_UNKNOWN once stale, and its journal entry shows from the start', async () => {
    const svc = await serviceForTest({ services: { transport: FAULT_TEST_TRANSPORT } });
    const key = newKey('crash');
    const day = londonDate(svc.emulator.clock.now());
    const input = { fas: '0877', titleNumber: 'MID15313', reference: 'edge' };
    // The dead process claimed the key five minutes ago and never finished.
    const dead = new SqliteIdempotencyStore(svc.dataDir, () => Date.now() - 5 * 60_000);
    await dead.claim('client-a', key, 'purchaseTitleDetails', inputHash('purchaseTitleDetails', input), {
      operation: 'purchaseTitleDetails',
      fas: '0877',
      titleNumber: 'MID15313',
      day,
    });
    await dead.close();
    expect((await journal(svc)).map((r) => [r.idempotencyKey, r.status, r.charge])).toEqual([[key, 'OUTCOME_UNKNOWN', null]]);

    const replay = await svc.gql(PurchaseTitleDetailsMutation, details(key));
    expect(replay.data!.purchaseTitleDetails.userErrors.map((e) => e.code)).toEqual(['OUTCOME_UNKNOWN']);
    const again = await svc.gql(PurchaseTitleDetailsMutation, details(key));
    expect(again.data).toEqual(replay.data);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(0);
    expect((await journal(svc)).map((r) => [r.idempotencyKey, r.status])).toEqual([[key, 'OUTCOME_UNKNOWN']]);
  });
});

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
