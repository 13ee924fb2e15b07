/**
 * The register hangs (the emulator's hang fault: no answer at all), with register timeouts far
 * longer than the test: the breaker opens on the first few attempts still in flight (slowMs),
 * not after their deadline; meanwhile calls are refused at once with REGISTER_UNAVAILABLE, a
 * retryAfterSeconds and "nothing was sent", and /ready is 503 saying why; once the register is
 * back, one trial (a caller's call, or the failed call /ready sends again when no call comes) closes it.
 */
import { describe, expect, test, vi } from 'vitest';
import { OrderTitleDocumentMutation, PurchaseTitleDetailsMutation, TitleQuery } from '../support/documents';
import { newKey, serviceForTest, type Service } from '../support/harness';

/** Timeouts of a minute: any answer the test sees comes from the breaker, not from a timeout. */
const HANGING = {
  transport: {
    timeouts: { headersMs: 60_000, bodyMs: 60_000, deadlineMs: 60_000 },
    retry: { attempts: 1 },
    breaker: { failureThreshold: 3, slowMs: 200, openMs: 3_000 },
  },
};

const ask = (svc: Service, titleNumber: string) => svc.gql(TitleQuery, { titleNumber });

async function hangTheRegister(svc: Service) {
  expect((await ask(svc, 'MID15313')).errors).toBeUndefined(); // token and pools ready
  svc.emulator.faults.inject('titleSummary', { kind: 'hang' }, 1_000);
  svc.emulator.calls.reset();
  // Callers keep asking; none of these calls ever gets an answer from the register.
  const asked = ['BLK1', 'BLK2', 'BLK3', 'BLK4', 'BLK5'].map((titleNumber) => {
    const call = { done: false };
    void ask(svc, titleNumber).finally(() => (call.done = true));
    return call;
  });
  await vi.waitFor(() => expect(svc.services.transport.breakerState()).toBe('open'), { timeout: 20_000, interval: 20 });
  return asked;
}

describe('a register that hangs', () => {
  test('opens the breaker within a few attempts, while they all still wait; refusals say nothing was sent and when to retry', async () => {
    const svc = await serviceForTest({ services: HANGING });
    const ordered = await svc.gql(
      OrderTitleDocumentMutation,
      { fas: '5555', input: { titleNumber: 'MID15313', titleSheet: { include: true }, idempotencyKey: newKey('hang-doc') } },
      'dev-key-b',
    );
    const link = new URL(ordered.data!.orderTitleDocument.document!.downloadUrl);
    const asked = await hangTheRegister(svc);
    // Opened by the attempts being slow, not by their end: every one is still waiting.
    expect(asked.filter((call) => call.done)).toEqual([]);
    const sent = svc.emulator.calls.count({ route: 'titleSummary' });
    expect(sent).toBeGreaterThanOrEqual(3);
    expect(sent).toBeLessThanOrEqual(5);

    const refused = await ask(svc, 'BLK6');
    expect(refused.errors).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(
          /^The register is not answering: .*nothing was sent to it \(REGISTER_UNAVAILABLE\); try again in \d+ s\.$/,
        ),
        extensions: expect.objectContaining({ code: 'REGISTER_UNAVAILABLE', retryAfterSeconds: expect.any(Number) }),
      }),
    ]);
    expect(refused.errors![0]!.extensions!.retryAfterSeconds as number).toBeGreaterThanOrEqual(1);

    // A purchase is refused the same way, before anything is sent or charged.
    const purchase = await svc.gql(PurchaseTitleDetailsMutation, {
      fas: '0877',
      input: { titleNumber: 'BLK7', idempotencyKey: newKey('hang') },
    });
    expect(purchase.errors?.[0]).toMatchObject({
      message: expect.stringContaining('nothing was sent'),
      extensions: { code: 'REGISTER_UNAVAILABLE', retryAfterSeconds: expect.any(Number) },
    });
    expect(svc.emulator.calls.count({ route: 'titleSummary' })).toBe(sent);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(0);
    expect(svc.emulator.ledger.count({ titleNumber: 'BLK7' })).toBe(0);

    // A download too: a problem with Retry-After, and nothing fetched.
    const download = await svc.get(link.pathname + link.search, null);
    expect(download.status).toBe(502);
    expect(Number(download.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(((await download.json()) as { error: { code: string; message: string } }).error).toEqual({
      code: 'REGISTER_UNAVAILABLE',
      message: expect.stringMatching(
        /^The register is not answering: .*nothing was sent to it \(REGISTER_UNAVAILABLE\); try again in \d+ s\.$/,
      ),
    });
    expect(svc.emulator.calls.count({ route: 'downloadDocument' })).toBe(0);

    // Not ready while it refuses, and /ready says why and for how long.
    const ready = await svc.get('/ready', null);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toMatchObject({
      ready: false,
      register: { reachable: true, breaker: 'open', retryAfterSeconds: expect.any(Number) },
    });

    // The register is back: the first call after the open period is the one trial, and it closes the breaker.
    svc.emulator.faults.clear();
    svc.emulator.calls.reset();
    await vi.waitFor(async () => expect((await ask(svc, 'BLK8')).errors).toBeUndefined(), { timeout: 20_000, interval: 100 });
    expect(svc.emulator.calls.count({ route: 'titleSummary' })).toBe(1);
    expect(svc.services.transport.breakerState()).toBe('closed');
    expect((await svc.get('/ready', null)).status).toBe(200);
  }, 60_000);

  test('with no calls coming (a load balancer took the replica out), /ready makes the trial of the failed route and brings it back', async () => {
    const svc = await serviceForTest({ services: HANGING });
    await hangTheRegister(svc);
    svc.emulator.faults.clear();
    svc.emulator.calls.reset();
    await vi.waitFor(async () => expect((await svc.get('/ready', null)).status).toBe(200), { timeout: 20_000, interval: 200 });
    expect(svc.services.transport.breakerState()).toBe('closed');
    // The trial was the failed read sent again, not the token route, which answered all along.
    expect(svc.emulator.calls.count({ route: 'titleSummary' })).toBe(1);
  }, 60_000);
});
