import { describe, expect, NOON_ISH, test } from '../support/emulator-fixtures';

describe('/__control (out-of-process controls)', () => {
  test.override({ emuOptions: { now: () => NOON_ISH } });

  test('ledger, calls, reset-calls', async ({ api, emu }) => {
    await api.get('/titles/MID15313/details?fas=0877');
    const ledger = await (await fetch(`${emu.origin}/__control/ledger`)).json();
    expect(ledger.charges).toHaveLength(1);
    expect(ledger.charges[0]).toMatchObject({
      clientId: 'client-a',
      organisation: 'ORG-A',
      titleNumber: 'MID15313',
      charge: { fas: '0877' },
    });
    const calls = await (await fetch(`${emu.origin}/__control/calls`)).json();
    expect(calls.calls.map((c: { route: string }) => c.route)).toEqual(['token', 'titleDetails']);
    expect((await fetch(`${emu.origin}/__control/reset-calls`, { method: 'POST' })).status).toBe(204);
    expect(emu.calls.list()).toHaveLength(0);
  });

  test('faults and clock', async ({ api, emu }) => {
    const post = (path: string, body: unknown) => fetch(`${emu.origin}/__control/${path}`, { method: 'POST', body: JSON.stringify(body) });
    expect((await post('faults', { route: 'titleSummary', fault: { kind: 'status', status: 502 }, times: 1 })).status).toBe(204);
    expect((await api.get('/titles/MID15313/summary')).status).toBe(502);
    await post('faults', { route: 'titleSummary', fault: { kind: 'status', status: 502 } });
    expect((await post('faults', { clear: true })).status).toBe(204);
    expect((await api.get('/titles/MID15313/summary')).status).toBe(200);
    expect((await post('faults', { route: 'nope', fault: { kind: 'hang' } })).status).toBe(400);

    const advanced = await (await post('clock', { advance: 301_000 })).json();
    expect(advanced.now).toBe('2025-06-10T09:05:01.000Z');
    expect((await api.get('/titles/MID15313/summary')).status).toBe(401);
    expect((await (await post('clock', { set: '2025-12-01T10:00:00Z' })).json()).now).toBe('2025-12-01T10:00:00.000Z');
    expect(emu.clock.now().toISOString()).toBe('2025-12-01T10:00:00.000Z');
    expect((await (await post('clock', { reset: true })).json()).now).toBe(NOON_ISH.toISOString());
    expect((await post('clock', {})).status).toBe(400);
    expect((await fetch(`${emu.origin}/__control/nothing`)).status).toBe(404);
  });
});
