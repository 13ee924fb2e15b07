import { describe, expect, NOON_ISH, test } from '../support/emulator-fixtures';

describe('daily quota per organisation per London day', () => {
  test.override({ emuOptions: { dailyQuota: 3, now: () => new Date('2025-06-10T21:00:00Z') } }); // 22:00 BST

  test('answers 429 TOO_MANY_REQUESTS with Retry-After = seconds to London midnight', async ({ api, emu }) => {
    for (let i = 0; i < 3; i++) expect((await api.get('/titles/MID15313/summary')).status).toBe(200);
    const r = await api.get('/titles/MID15313/summary');
    expect(r.status).toBe(429);
    expect(r.json.code).toBe('TOO_MANY_REQUESTS');
    const retryAfter = Number(r.headers.get('retry-after'));
    // The base clock is fixed at 22:00 BST; a little real time may pass, never a whole second.
    expect(retryAfter).toBe(7200);
    expect(emu.state.quotaUsed('ORG-A')).toBe(3);
  });

  test('is shared by the clients of an organisation, not across organisations; token calls are free', async ({ api, emu }) => {
    await api.get('/titles/MID15313/summary', { client: 'client-a' });
    await api.get('/titles/MID15313/summary', { client: 'client-a2' });
    await api.get('/ref', { client: 'client-a2' });
    expect((await api.get('/titles/MID15313/summary', { client: 'client-a' })).status).toBe(429);
    expect((await api.get('/titles/MID15313/summary', { client: 'client-b' })).status).toBe(200);
    expect(emu.state.quotaUsed('ORG-B')).toBe(1);
    expect(emu.calls.count({ route: 'token' })).toBe(3);
  });

  test('comes before input validation but after authentication', async ({ api }) => {
    for (let i = 0; i < 3; i++) await api.get('/titles/MID15313/summary');
    expect((await api.get('/titles/bad/summary')).status).toBe(429);
    expect((await api.get('/titles/MID15313/summary', { client: null })).status).toBe(401);
  });

  test('resets at the next London midnight', async ({ api, emu }) => {
    for (let i = 0; i < 3; i++) await api.get('/titles/MID15313/summary');
    expect((await api.get('/titles/MID15313/summary')).status).toBe(429);
    emu.clock.set(new Date('2025-06-10T22:59:59Z'));
    api.forgetTokens();
    expect((await api.get('/titles/MID15313/summary')).status).toBe(429);
    emu.clock.set(new Date('2025-06-10T23:00:00Z'));
    expect((await api.get('/titles/MID15313/summary')).status).toBe(200);
    expect(emu.state.quotaUsed('ORG-A', '2025-06-11')).toBe(1);
  });
});

describe('default quota', () => {
  test.override({ emuOptions: { now: () => NOON_ISH } });
  test('allows 2000 calls a day, then 429', async ({ api, emu }) => {
    await api.tokenFor('client-a');
    for (let batch = 0; batch < 20; batch++) await Promise.all(Array.from({ length: 100 }, () => api.get('/ref')));
    expect(emu.state.quotaUsed('ORG-A')).toBe(2000);
    expect(emu.calls.count({ route: 'listPaths', status: 200 })).toBe(2000);
    expect((await api.get('/ref')).status).toBe(429);
  });
});
