/** Tokens: single-flight, refresh before expiry, one refresh on a 401, bad credentials; the token cache on its own. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RegisterClient } from '../../src/register/client';
import { TokenCache } from '../../src/register/client/token-cache';
import { CALM, CLIENT_A, exposedText, registerError, rig, type Rig } from '../support/register-rig';

let r: Rig;
beforeAll(async () => {
  r = await rig();
});
afterAll(async () => {
  await r.close();
});
beforeEach(() => {
  r.emu.faults.clear();
  r.emu.clock.reset();
  r.emu.calls.reset();
  r.events.length = 0;
});

const tokenCalls = () => r.emu.calls.count({ route: 'token' });

describe('token cache', () => {
  it('100 concurrent calls on a cold cache make exactly one token call', async () => {
    const c = r.client(r.transport(CALM));
    const results = await Promise.all(Array.from({ length: 100 }, () => c.titleSummary('MID1234')));
    expect(results.every((x) => x.data.titleNumber === 'MID1234')).toBe(true);
    expect(tokenCalls()).toBe(1);
    expect(r.emu.calls.count({ route: 'titleSummary', status: 200 })).toBe(100);
  });

  it('reuses the token, and refreshes it once less than 30 s of its life remains', async () => {
    const c = r.client(r.transport(CALM));
    await c.titleSummary('MID1234');
    r.emu.clock.advance(200_000);
    await c.titleSummary('MID1234');
    expect(tokenCalls()).toBe(1);
    r.emu.clock.advance(75_000); // 25 s left of 300
    await c.titleSummary('MID1234');
    expect(tokenCalls()).toBe(2);
    expect(r.emu.calls.count({ route: 'titleSummary', status: 401 })).toBe(0);
  });

  it('on a 401 refreshes once and re-sends the GET', async () => {
    // a client on the local clock: the register's clock jumps, so its token expires unseen
    const c = new RegisterClient(r.transport(CALM), { ...CLIENT_A });
    await c.titleSummary('MID1234');
    r.emu.clock.advance(301_000);
    const res = await c.titleSummary('MID15313');
    expect(res.data.titleNumber).toBe('MID15313');
    expect(tokenCalls()).toBe(2);
    expect(r.emu.calls.count({ route: 'titleSummary', status: 401 })).toBe(1);
    const summaryEvents = r.events.filter((e) => e.route === 'titleSummary');
    expect(summaryEvents.map((e) => [e.attempt, e.status, e.outcome])).toEqual([
      [1, 200, 'ok'],
      [1, 401, 'http_error'],
      [2, 200, 'ok'],
    ]);
  });

  it('on a 401 re-sends a POST once too (it was not executed)', async () => {
    const c = new RegisterClient(r.transport(CALM), { ...CLIENT_A });
    await c.titleSummary('MID1234');
    r.emu.clock.advance(301_000);
    const created = await c.createCase({
      reference: 'after 401',
      agent: { fas: '1877', contactEmail: 'a@example.com', contactTelephone: '1' },
      subjects: [{ type: 'REGISTERED', titleNumber: 'MID1234' }],
    });
    expect(created.id).toBeTruthy();
    expect(r.emu.calls.count({ route: 'createCase', status: 401 })).toBe(1);
    expect(r.emu.calls.count({ route: 'createCase', status: 201 })).toBe(1);
  });

  it('a second 401 is UNAUTHORISED, after exactly one refresh', async () => {
    const c = r.client(r.transport(CALM));
    r.emu.faults.inject('titleSummary', { kind: 'status', status: 401 }, 5);
    const e = await registerError(c.titleSummary('MID1234'));
    expect(e).toMatchObject({ status: 401, code: 'UNAUTHORISED', route: 'titleSummary' });
    expect(tokenCalls()).toBe(2);
    expect(r.emu.calls.count({ route: 'titleSummary' })).toBe(2);
  });

  it('wrong credentials: 401 from the token route is UNAUTHORISED, secret never shown', async () => {
    const c = r.client(r.transport(CALM), { clientId: 'client-a', clientSecret: 'not-the-secret' });
    const e = await registerError(c.titleSummary('MID1234'));
    expect(e).toMatchObject({ status: 401, code: 'UNAUTHORISED', route: 'token', outcomeUnknown: false });
    expect(exposedText(e)).not.toContain('not-the-secret');
    expect(exposedText(e)).not.toContain(Buffer.from('client-a:not-the-secret').toString('base64'));
    expect(r.emu.calls.count({ route: 'titleSummary' })).toBe(0);
  });

  it('tokens are per client (tenant)', async () => {
    const t = r.transport(CALM);
    await r.client(t).titleSummary('MID1234');
    await r.client(t).titleSummary('MID1234');
    expect(tokenCalls()).toBe(2);
  });
});

describe('the token cache on its own (no HTTP)', () => {
  /** A fetch that does not end until the test opens the gate. */
  function gated() {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    return { gate, open };
  }

  it('is single-flight, refreshes before expiry, and drops a token only when it is the current one', async () => {
    let now = 1_000_000;
    let fetches = 0;
    const { gate, open } = gated();
    const cache = new TokenCache(
      async () => {
        fetches++;
        await gate;
        return { accessToken: `t${fetches}`, expiresInSeconds: 300 };
      },
      { now: () => now, refreshBeforeExpiryMs: 30_000 },
    );
    const waiting = Promise.all(Array.from({ length: 100 }, () => cache.get()));
    open();
    expect(new Set(await waiting)).toEqual(new Set(['t1']));
    expect(fetches).toBe(1);
    now += 269_000;
    expect(await cache.get()).toBe('t1');
    now += 2_000; // 29 s left
    expect(await cache.get()).toBe('t2');
    cache.invalidate('t1'); // stale token: no effect
    expect(await cache.get()).toBe('t2');
    cache.invalidate('t2');
    expect(await cache.get()).toBe('t3');
  });

  it('shares a failure with every waiter and tries again on the next call', async () => {
    let fetches = 0;
    const cache = new TokenCache(async () => {
      fetches++;
      if (fetches === 1) throw new Error('boom');
      return { accessToken: 'ok', expiresInSeconds: 300 };
    });
    const results = await Promise.allSettled([cache.get(), cache.get(), cache.get()]);
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(await cache.get()).toBe('ok');
    expect(fetches).toBe(2);
  });

  it('lets one waiter give up without cancelling the shared fetch', async () => {
    const { gate, open } = gated();
    const cache = new TokenCache(async () => {
      await gate;
      return { accessToken: 'shared', expiresInSeconds: 300 };
    });
    const ac = new AbortController();
    const a = cache.get(ac.signal);
    const b = cache.get();
    ac.abort(new Error('gone'));
    await expect(a).rejects.toThrow('gone'); // while the fetch is still held
    open();
    expect(await b).toBe('shared');
  });
});
