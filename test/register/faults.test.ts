/**
 * Faults: reads retried, a call that creates or charges sent once (its effect decides, not its
 * method), outcome unknown, breaker, 429, contract errors, deadlines.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RegisterClient } from '../../src/register/client';
import { registerError, rig, type Rig } from '../support/register-rig';

let r: Rig;
let c: RegisterClient;
beforeAll(async () => {
  r = await rig();
  // this transport's breaker never opens: the breaker has its own tests below
  c = r.client(r.transport({ breaker: { failureThreshold: 1_000 } }));
  await c.titleSummary('MID1234'); // warm token
});
afterAll(async () => {
  await r.close();
});
beforeEach(() => {
  r.emu.faults.clear();
  r.emu.calls.reset();
  r.events.length = 0;
});

const CASE = {
  reference: 'fault test',
  agent: { fas: '1877', contactEmail: 'a@example.com', contactTelephone: '1' },
  subjects: [{ type: 'REGISTERED' as const, titleNumber: 'MID1234' }],
};
const summaryCalls = () => r.emu.calls.count({ route: 'titleSummary' });
const caseCalls = () => r.emu.calls.count({ route: 'createCase' });

describe('reads are retried', () => {
  it('retries 503 and succeeds', async () => {
    r.emu.faults.inject('titleSummary', { kind: 'status', status: 503 }, 2);
    const res = await c.titleSummary('MID15313');
    expect(res.data.titleNumber).toBe('MID15313');
    expect(summaryCalls()).toBe(3);
    expect(r.events.filter((e) => e.route === 'titleSummary').map((e) => [e.attempt, e.status, e.outcome])).toEqual([
      [1, 503, 'http_error'],
      [2, 503, 'http_error'],
      [3, 200, 'ok'],
    ]);
  });

  it('retries a connection reset and succeeds', async () => {
    r.emu.faults.inject('titleSummary', { kind: 'reset' }, 1);
    expect((await c.titleSummary('MID15313')).data.titleNumber).toBe('MID15313');
    expect(r.events.filter((e) => e.route === 'titleSummary').map((e) => e.outcome)).toEqual(['network', 'ok']);
  });

  it('retries a hang (headers timeout) and succeeds', async () => {
    r.emu.faults.inject('securities', { kind: 'hang' }, 1);
    expect((await c.securities('MID15313')).securities).toHaveLength(2);
    expect(r.events.filter((e) => e.route === 'securities').map((e) => [e.status, e.outcome])).toEqual([
      [0, 'timeout'],
      [200, 'ok'],
    ]);
  });

  it('gives up after the configured attempts with REGISTER_UNAVAILABLE', async () => {
    r.emu.faults.inject('titleSummary', { kind: 'status', status: 500 }, 10);
    const e = await registerError(c.titleSummary('MID15313'));
    expect(e).toMatchObject({ status: 500, code: 'REGISTER_UNAVAILABLE', route: 'titleSummary', outcomeUnknown: false });
    expect(summaryCalls()).toBe(3);
  });

  it('never retries a 4xx', async () => {
    await registerError(c.titleSummary('ZZZ999'));
    expect(summaryCalls()).toBe(1);
  });
});

describe('a call that creates or charges is sent once', () => {
  it('503 → REGISTER_UNAVAILABLE, not retried, outcome unknown (a 5xx proves nothing was not done)', async () => {
    r.emu.faults.inject('createCase', { kind: 'status', status: 503 }, 5);
    const e = await registerError(c.createCase(CASE));
    expect(e).toMatchObject({ status: 503, code: 'REGISTER_UNAVAILABLE', route: 'createCase', outcomeUnknown: true });
    expect(caseCalls()).toBe(1);
  });

  it('reset → outcomeUnknown, not retried', async () => {
    r.emu.faults.inject('createCase', { kind: 'reset' }, 5);
    const e = await registerError(c.createCase(CASE));
    expect(e).toMatchObject({ status: 0, code: 'REGISTER_UNAVAILABLE', outcomeUnknown: true });
    expect(caseCalls()).toBe(1);
  });

  it('hang → REGISTER_TIMEOUT, outcomeUnknown, not retried', async () => {
    r.emu.faults.inject('createCase', { kind: 'hang' }, 5);
    const e = await registerError(c.createCase(CASE));
    expect(e).toMatchObject({ status: 0, code: 'REGISTER_TIMEOUT', outcomeUnknown: true });
    expect(caseCalls()).toBe(1);
  });

  it('a reset after the effect: the case exists although the client could not know', async () => {
    const before = r.emu.state.cases.size;
    r.emu.faults.inject('createCase', { kind: 'reset', phase: 'after' }, 1);
    const e = await registerError(c.createCase(CASE));
    expect(e.outcomeUnknown).toBe(true);
    expect(r.emu.state.cases.size).toBe(before + 1);
    expect(caseCalls()).toBe(1);
  });

  it('chargeable POST (orderDocument) on 500 is not retried, outcome unknown', async () => {
    r.emu.faults.inject('orderDocument', { kind: 'status', status: 500 }, 5);
    const e = await registerError(c.orderDocument('MID15313', { fas: '0877' }, { titleSheet: { include: true } }));
    expect(e).toMatchObject({ code: 'REGISTER_UNAVAILABLE', outcomeUnknown: true });
    expect(r.emu.calls.count({ route: 'orderDocument' })).toBe(1);
  });
});

describe('429 Too Many Requests', () => {
  it('a GET honours a Retry-After within the deadline', async () => {
    r.emu.faults.inject('titleSummary', { kind: 'status', status: 429, retryAfterSeconds: 1 }, 1);
    const started = performance.now();
    expect((await c.titleSummary('MID1234')).data.titleNumber).toBe('MID1234');
    expect(performance.now() - started).toBeGreaterThanOrEqual(900); // it did wait the second asked for
    expect(summaryCalls()).toBe(2);
    expect(r.events.filter((e) => e.route === 'titleSummary').map((e) => [e.attempt, e.status, e.retryAfterSeconds])).toEqual([
      [1, 429, 1],
      [2, 200, undefined],
    ]);
  });

  it('a Retry-After beyond the deadline fails at once with retryAfterSeconds', async () => {
    // A deadline longer than this test may run: waiting for it, or for the Retry-After, would time the test out.
    const patient = r.client(r.transport({ timeouts: { deadlineMs: 120_000 }, breaker: { failureThreshold: 1_000 } }));
    await patient.titleSummary('MID1234'); // its token
    r.emu.calls.reset();
    r.events.length = 0;
    r.emu.faults.inject('titleSummary', { kind: 'status', status: 429, retryAfterSeconds: 600 }, 1);
    const e = await registerError(patient.titleSummary('MID1234'));
    expect(e).toMatchObject({ status: 429, code: 'TOO_MANY_REQUESTS', retryAfterSeconds: 600 });
    expect(summaryCalls()).toBe(1);
    expect(r.events.map((e) => [e.attempt, e.status, e.retryAfterSeconds])).toEqual([[1, 429, 600]]);
  });

  it('a POST refused with 429 and a Retry-After is sent again (a 429 proves nothing was done): one case', async () => {
    const before = r.emu.state.cases.size;
    r.emu.faults.inject('createCase', { kind: 'status', status: 429, retryAfterSeconds: 1 }, 1);
    const created = await c.createCase(CASE);
    expect(created.id).toMatch(/^RLP\d{2}[A-Z]{8}$/);
    expect(caseCalls()).toBe(2);
    expect(r.emu.state.cases.size).toBe(before + 1);
  });

  it('a POST refused with 429 and no Retry-After is not sent again', async () => {
    r.emu.faults.inject('createCase', { kind: 'status', status: 429 }, 1);
    const e = await registerError(c.createCase(CASE));
    expect(e).toMatchObject({ status: 429, code: 'TOO_MANY_REQUESTS', outcomeUnknown: false });
    expect(caseCalls()).toBe(1);
  });
});

describe('contract and deadline', () => {
  it('malformed JSON → REGISTER_CONTRACT_ERROR naming the route, not retried', async () => {
    r.emu.faults.inject('titleSummary', { kind: 'malformed' }, 1);
    const e = await registerError(c.titleSummary('MID15313'));
    expect(e.code).toBe('REGISTER_CONTRACT_ERROR');
    expect(e.route).toBe('titleSummary');
    expect(e.message).toContain('titleSummary');
    expect(summaryCalls()).toBe(1);
    expect(r.events.at(-1)?.outcome).toBe('contract');
  });

  it('a body dripping past the overall deadline → REGISTER_TIMEOUT', async () => {
    const t = r.transport({ timeouts: { deadlineMs: 600, bodyMs: 500 } });
    const slow = r.client(t);
    r.emu.faults.inject('titleDetails', { kind: 'drip', chunkBytes: 16, intervalMs: 50 }, 5);
    const e = await registerError(slow.titleDetails('MID15313', { fas: '0877' }));
    // Each chunk comes well within bodyMs: only the overall deadline ends it, once (a charge is not re-sent).
    expect(e).toMatchObject({ code: 'REGISTER_TIMEOUT', route: 'titleDetails', outcomeUnknown: true });
    expect(r.emu.calls.count({ route: 'titleDetails' })).toBe(1);
    expect(r.events.filter((ev) => ev.route === 'titleDetails').map((ev) => [ev.attempt, ev.outcome])).toEqual([[1, 'timeout']]);
  });

  it("the caller's abort signal rejects with its reason", async () => {
    r.emu.faults.inject('titleSummary', { kind: 'hang' }, 1);
    const ac = new AbortController();
    const call = c.titleSummary('MID1234', { signal: ac.signal });
    await vi.waitFor(() => expect(summaryCalls()).toBe(1)); // at the register, which does not answer
    ac.abort(new Error('caller gave up'));
    await expect(call).rejects.toThrow('caller gave up');
  });
});

describe('circuit breaker', () => {
  it('opens after consecutive 5xx, fails fast, half-opens and closes; 404s never trip it', async () => {
    const t = r.transport({ retry: { attempts: 1 }, breaker: { failureThreshold: 3, openMs: 300 } });
    const bc = r.client(t);
    await bc.titleSummary('MID1234');
    for (let i = 0; i < 6; i++) await registerError(bc.titleSummary('ZZZ999'));
    expect(t.breakerState()).toBe('closed');

    r.emu.faults.inject('titleSummary', { kind: 'status', status: 503 }, 3);
    for (let i = 0; i < 3; i++) expect((await registerError(bc.titleSummary('MID1234'))).code).toBe('REGISTER_UNAVAILABLE');
    expect(t.breakerState()).toBe('open');

    const sent = summaryCalls();
    const fast = await registerError(bc.titleSummary('MID1234'));
    expect(fast).toMatchObject({ status: 0, code: 'CIRCUIT_OPEN', route: 'titleSummary' });
    expect(summaryCalls()).toBe(sent);
    expect(r.events.at(-1)?.outcome).toBe('circuit_open');

    await vi.waitFor(() => expect(t.breakerState()).toBe('half_open'));
    expect((await bc.titleSummary('MID1234')).data.titleNumber).toBe('MID1234');
    expect(t.breakerState()).toBe('closed');
  });

  it('a failed trial re-opens it; timeouts and resets count', async () => {
    const t = r.transport({ retry: { attempts: 1 }, breaker: { failureThreshold: 2, openMs: 200 } });
    const bc = r.client(t);
    await bc.titleSummary('MID1234');
    r.emu.faults.inject('titleSummary', { kind: 'hang' }, 1);
    r.emu.faults.inject('securities', { kind: 'reset' }, 1);
    await registerError(bc.titleSummary('MID1234'));
    await registerError(bc.securities('MID1234'));
    expect(t.breakerState()).toBe('open');
    await vi.waitFor(() => expect(t.breakerState()).toBe('half_open'));
    r.emu.faults.inject('titleSummary', { kind: 'status', status: 502 }, 1);
    const calls = summaryCalls();
    await registerError(bc.titleSummary('MID1234'));
    expect(summaryCalls()).toBe(calls + 1); // the one trial
    expect(t.breakerState()).toBe('open');
  });
});
