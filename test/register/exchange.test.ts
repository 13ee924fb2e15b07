/**
 * The exchange over real HTTP to the emulator, for behaviour the fault matrix does not pin:
 * every way a half-open trial can end settles the breaker (so it never sticks open), a call
 * that never left is retried whatever its effect, a 429 without Retry-After is not waited on,
 * and error bodies that are not the register's `{code, message}` still give a typed error.
 */
import { afterEach, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import type { RegisterClient, RegisterTransport } from '../../src/register/client';
import { connectionsTo } from '../support/connections';
import { type Rig, registerError, rig } from '../support/register-rig';

let r: Rig;
beforeEach(async () => {
  r = await rig();
});
afterEach(() => r.close());

const CASE = {
  reference: 'strength test',
  agent: { fas: '1877', contactEmail: 'a@example.com', contactTelephone: '1' },
  subjects: [{ type: 'REGISTERED' as const, titleNumber: 'MID1234' }],
};
const calls = (route: string) => r.emu.calls.count({ route });

/** A transport whose breaker opens on the first failure and half-opens 50 ms later. */
async function halfOpen(): Promise<{ transport: RegisterTransport; client: RegisterClient }> {
  const transport = r.transport({ retry: { attempts: 1 }, breaker: { failureThreshold: 1, openMs: 50 } });
  const client = r.client(transport);
  await client.titleSummary('MID1234'); // token fetched while closed
  r.emu.faults.inject('titleSummary', { kind: 'status', status: 503 }, 1);
  await registerError(client.titleSummary('MID1234'));
  expect(transport.breakerState()).toBe('open');
  await vi.waitFor(() => expect(transport.breakerState()).toBe('half_open'));
  return { transport, client };
}

describe('a half-open trial always settles the breaker', () => {
  it('a 4xx refusal is an answer: the breaker closes', async () => {
    const { transport, client } = await halfOpen();
    expect((await registerError(client.titleSummary('ZZZ999'))).code).toBe('TITLE_NOT_FOUND');
    expect(transport.breakerState()).toBe('closed');
    expect((await client.titleSummary('MID1234')).data.titleNumber).toBe('MID1234');
  });

  it('a 401 to the token is an answer: the breaker closes, and the refreshed call goes through', async () => {
    const { transport, client } = await halfOpen();
    r.emu.faults.inject('titleSummary', { kind: 'status', status: 401 }, 1);
    expect((await client.titleSummary('MID1234')).data.titleNumber).toBe('MID1234');
    expect(transport.breakerState()).toBe('closed');
    expect(
      r.events
        .filter((e) => e.route === 'titleSummary')
        .slice(-2)
        .map((e) => e.status),
    ).toEqual([401, 200]);
  });

  it('a body that breaks the contract is an answer: the breaker closes', async () => {
    const { transport, client } = await halfOpen();
    r.emu.faults.inject('titleSummary', { kind: 'malformed' }, 1);
    expect((await registerError(client.titleSummary('MID1234'))).code).toBe('REGISTER_CONTRACT_ERROR');
    expect(transport.breakerState()).toBe('closed');
  });

  it('a 429 is an answer: the breaker closes', async () => {
    const { transport, client } = await halfOpen();
    r.emu.faults.inject('titleSummary', { kind: 'status', status: 429 }, 1);
    expect((await registerError(client.titleSummary('MID1234'))).code).toBe('TOO_MANY_REQUESTS');
    expect(transport.breakerState()).toBe('closed');
  });

  it("a caller's abort says nothing of the register: the trial slot is freed and the next call is the trial", async () => {
    const { transport, client } = await halfOpen();
    r.emu.faults.inject('titleSummary', { kind: 'hang' }, 1);
    const gaveUp = new AbortController();
    const before = calls('titleSummary');
    const trial = client.titleSummary('MID1234', { signal: gaveUp.signal });
    await vi.waitFor(() => expect(calls('titleSummary')).toBe(before + 1)); // the trial is at the register, unanswered
    gaveUp.abort(new Error('caller gave up'));
    await expect(trial).rejects.toThrow('caller gave up');
    expect(transport.breakerState()).toBe('half_open');
    expect((await client.titleSummary('MID1234')).data.titleNumber).toBe('MID1234');
    expect(transport.breakerState()).toBe('closed');
  });

  it('a failed trial opens it again, and calls fail fast without reaching the register', async () => {
    const { transport, client } = await halfOpen();
    r.emu.faults.inject('titleSummary', { kind: 'status', status: 500 }, 1);
    await registerError(client.titleSummary('MID1234'));
    expect(transport.breakerState()).toBe('open');
    const sent = calls('titleSummary');
    expect((await registerError(client.titleSummary('MID1234'))).code).toBe('CIRCUIT_OPEN');
    expect(calls('titleSummary')).toBe(sent);
  });
});

describe('a call that never left is retried, whatever its effect', () => {
  it('a POST whose connection is refused is tried again and ends not-sent, never OUTCOME_UNKNOWN', async () => {
    const attempts: string[] = [];
    const transport = r.transport({
      retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 2 },
      breaker: { failureThreshold: 100 },
      onCall: (e) => attempts.push(`${e.route}:${e.outcome}`),
    });
    const client = r.client(transport);
    const kept = connectionsTo(r.emu.port);
    await client.titleSummary('MID1234'); // credentials in hand
    // The register goes away: every connection is now refused, once the client has seen its kept-alive ones close.
    const emulator = r.emu;
    await emulator.close();
    r.emu = { ...emulator, close: async () => undefined };
    expect(kept.opened).toBeGreaterThan(0);
    await kept.allClosed();
    const error = await registerError(client.createCase(CASE));
    expect(error).toMatchObject({ code: 'REGISTER_UNAVAILABLE', status: 0, outcomeUnknown: false });
    expect(error.sentAt).toBeUndefined();
    expect(attempts.filter((a) => a === 'createCase:not_sent')).toHaveLength(3);
  });

  it('a POST the register answers 429 without Retry-After is refused once, not waited on, not unknown', async () => {
    const client = r.client(r.transport());
    r.emu.faults.inject('createCase', { kind: 'status', status: 429 }, 5);
    const error = await registerError(client.createCase(CASE));
    expect(error).toMatchObject({ code: 'TOO_MANY_REQUESTS', status: 429, outcomeUnknown: false });
    expect(error.retryAfterSeconds).toBeUndefined();
    expect(calls('createCase')).toBe(1);
  });

  it('a POST answered 429 with a short Retry-After is sent again after it, and succeeds once', async () => {
    const client = r.client(r.transport());
    const before = r.emu.state.cases.size;
    r.emu.faults.inject('createCase', { kind: 'status', status: 429, retryAfterSeconds: 0 }, 1);
    const created = await client.createCase(CASE);
    expect(created.id).toBeTruthy();
    expect(calls('createCase')).toBe(2);
    expect(r.emu.state.cases.size).toBe(before + 1);
  });
});

describe('error bodies that are not the register’s', () => {
  it.each([
    ['a JSON string', 'upstream exploded'],
    ['an object without a code', { error: 'nope' }],
    ['an unknown code', { code: 'SOMETHING_NEW', message: 'a newer register' }],
  ])('a 400 with %s is REGISTER_ERROR, not retried', async (_label, body) => {
    const client = r.client(r.transport());
    r.emu.faults.inject('titleSummary', { kind: 'status', status: 400, body }, 5);
    const error = await registerError(client.titleSummary('MID1234'));
    expect(error).toMatchObject({ status: 400, code: 'REGISTER_ERROR', outcomeUnknown: false });
    expect(calls('titleSummary')).toBe(1);
  });

  it('a 500 with a body that is not JSON keeps no detail and is retried for a read', async () => {
    const client = r.client(r.transport());
    r.emu.faults.inject('titleSummary', { kind: 'status', status: 500, body: 'x'.repeat(70_000) }, 1);
    expect((await client.titleSummary('MID1234')).data.titleNumber).toBe('MID1234');
    expect(calls('titleSummary')).toBe(2);
  });

  it("the register's message reaches the error without the caller's secrets", async () => {
    const client = r.client(r.transport());
    r.emu.faults.inject(
      'titleSummary',
      { kind: 'status', status: 400, body: { code: 'INVALID_REQUEST', message: 'secret-a is wrong', field: 'q' } },
      1,
    );
    const error = await registerError(client.titleSummary('MID1234'));
    expect(error).toMatchObject({ code: 'INVALID_REQUEST', field: 'q' });
    expect(error.detail).not.toContain('secret-a');
  });
});

describe('defaults', () => {
  it('a transport given no retry policy tries a read three times, then gives up', async () => {
    const { RegisterTransport: Transport } = await import('../../src/register/client');
    const transport = new Transport({ baseUrl: r.emu.url });
    onTestFinished(() => transport.close());
    const client = r.client(transport);
    await client.titleSummary('MID1234');
    const before = calls('titleSummary');
    r.emu.faults.inject('titleSummary', { kind: 'status', status: 503 }, 2);
    expect((await client.titleSummary('MID1234')).data.titleNumber).toBe('MID1234');
    expect(calls('titleSummary') - before).toBe(3);
    r.emu.faults.inject('titleSummary', { kind: 'status', status: 503 }, 3);
    expect((await registerError(client.titleSummary('MID1234'))).status).toBe(503);
    expect(calls('titleSummary') - before).toBe(6);
  });
});
