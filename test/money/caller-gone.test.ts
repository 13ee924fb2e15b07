/**
 * A caller that goes away stops its free register calls: a page of 100 titles with their
 * securities, against a register answering slowly, cut off mid-way, sends at most the
 * concurrency limit's worth of calls after the disconnect (those already in flight), with and
 * without @stream. A purchase whose caller goes away still runs to its end and is recorded.
 */
import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { newKey, startService } from '../support/harness';

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** Serves the service; `onClose` runs as a request's connection closes, before the service hears of it. */
async function serveOnPort(svc: Awaited<ReturnType<typeof startService>>, onClose?: () => void): Promise<string> {
  const server: Server = createServer((req, res) => {
    if (onClose) res.once('close', onClose);
    void svc.yoga(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  );
  return `http://127.0.0.1:${(server.address() as { port: number }).port}/graphql`;
}

const TITLES = Array.from({ length: 100 }, (_, i) => `BLK${i + 1}`);
const CONCURRENCY = 8;

describe('a caller that goes away', () => {
  test.for([
    ['without @stream', 'query P($t: [TitleNumber!]!) { titles(titleNumbers: $t) { titleNumber securities { id } } }'],
    [
      'with @stream',
      'query P($t: [TitleNumber!]!) { titles(titleNumbers: $t) @stream(initialCount: 1) { titleNumber securities { id } } }',
    ],
  ])('stops its free register calls (%s)', { timeout: 60_000 }, async ([, query]) => {
    const svc = await startService({ emulator: { latencyMs: 200 }, services: { reads: { concurrency: CONCURRENCY } } });
    cleanups.push(() => svc.stop());
    // The calls the register has seen when the service learns that its caller left: the server's
    // listener runs before the service's own. (Counted at the client's abort instead, calls the
    // service started before the close reached it would count against it.)
    let atDisconnect: number | undefined;
    const url = await serveOnPort(svc, () => {
      atDisconnect ??= svc.emulator.calls.list().length;
    });
    const controller = new AbortController();
    const answer = fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'multipart/mixed, application/json', authorization: 'Bearer dev-key-a' },
      body: JSON.stringify({ query, variables: { t: TITLES } }),
      signal: controller.signal,
    }).then((r) => r.text());
    // Some calls have gone out, most are still to come: the caller hangs up.
    await vi.waitFor(() => expect(svc.emulator.calls.count({ route: 'titleSummary' })).toBeGreaterThan(0), { timeout: 20_000 });
    controller.abort();
    await answer.catch(() => undefined);
    await vi.waitFor(() => expect(atDisconnect).toBeDefined());
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    const after = svc.emulator.calls.list().length - atDisconnect!;
    // Only what was already in flight may still arrive (two routes per title at most, each bounded).
    expect(after).toBeLessThanOrEqual(2 * CONCURRENCY);
    expect(svc.emulator.calls.list().length).toBeLessThan(100);
  });

  test('a purchase whose caller goes away still runs to its end and is recorded', { timeout: 60_000 }, async () => {
    const svc = await startService({ emulator: { latencyMs: 600 } });
    cleanups.push(() => svc.stop());
    const url = await serveOnPort(svc);
    const controller = new AbortController();
    const key = newKey('gone');
    const answer = fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: 'Bearer dev-key-a' },
      body: JSON.stringify({
        query: `mutation { purchaseTitleDetails(fas: "0877", input: { titleNumber: "MID1234", idempotencyKey: "${key}" }) { charges { fee } } }`,
      }),
      signal: controller.signal,
    });
    await vi.waitFor(() => expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(1), { timeout: 20_000 });
    controller.abort();
    await answer.catch(() => undefined);
    const day = new Date().toISOString().slice(0, 10);
    await vi.waitFor(
      async () =>
        expect((await svc.services.idempotency.chargeRecords('client-a', day)).map((r) => [r.idempotencyKey, r.status])).toEqual([
          [key, 'CHARGED'],
        ]),
      { timeout: 20_000 },
    );
    expect(svc.emulator.ledger.count({ titleNumber: 'MID1234' })).toBe(1);
  });
});
