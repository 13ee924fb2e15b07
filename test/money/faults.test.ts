/**
 * Fault injection through the whole stack: the emulator misbehaves on one route, and the
 * GraphQL caller gets a typed error; reads are retried, a call that charges or creates is sent
 * once (its effect, not its HTTP method, decides).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CreateCaseMutation, PurchaseTitlePlansMutation, TitleQuery } from '../support/documents';
import { newKey, startService } from '../support/harness';

type Svc = Awaited<ReturnType<typeof startService>>;
let svc: Svc;

beforeEach(async () => {
  svc = await startService({
    services: {
      transport: {
        timeouts: { connectMs: 500, headersMs: 300, bodyMs: 300, deadlineMs: 2_000 },
        retry: { attempts: 3, baseDelayMs: 5, maxDelayMs: 20 },
        breaker: { failureThreshold: 4, openMs: 300 },
      },
    },
  });
});
afterEach(() => svc.stop());

const caseVariables = () => ({
  fas: '1877',
  input: {
    reference: 'Fault',
    contactEmail: 'a@b.example',
    contactTelephone: '0131',
    titleNumbers: ['MID15313'],
    idempotencyKey: newKey('fault'),
  },
});
const createdCases = () => [...svc.emulator.state.cases.values()].filter((c) => c.reference === 'Fault').length;

describe('GET faults (title summary): retried, then typed', () => {
  it.each([
    ['a 503', { kind: 'status', status: 503 }],
    ['a hang', { kind: 'hang' }],
    ['a connection reset', { kind: 'reset' }],
  ] as const)('recovers from one %s by retrying', async (_label, fault) => {
    svc.emulator.faults.inject('titleSummary', fault, 1);
    const { data, errors } = await svc.gql(TitleQuery, { titleNumber: 'MID15313' });
    expect(errors).toBeUndefined();
    expect(data!.title!.titleNumber).toBe('MID15313');
    expect(svc.emulator.calls.count({ route: 'titleSummary' })).toBe(2);
  });

  it.each([
    ['503s', { kind: 'status', status: 503 }, 'REGISTER_UNAVAILABLE'],
    ['hangs', { kind: 'hang' }, 'REGISTER_TIMEOUT'],
    ['resets', { kind: 'reset' }, 'REGISTER_UNAVAILABLE'],
    // undici's body timer is coarse (about half a second), so the drip is slower than that.
    ['dripping bodies', { kind: 'drip', chunkBytes: 1, intervalMs: 1_200 }, 'REGISTER_TIMEOUT'],
    ['malformed JSON', { kind: 'malformed' }, 'REGISTER_CONTRACT_ERROR'],
  ] as const)('persistent %s (%j) give %s', async (_label, fault, code) => {
    svc.emulator.faults.inject('titleSummary', fault, 10);
    const { data, errors } = await svc.gql(TitleQuery, { titleNumber: 'MID15313' });
    expect(data?.title ?? null).toBeNull();
    expect(errors![0]!.extensions!.code).toBe(code);
    expect(JSON.stringify(errors)).not.toMatch(/127\.0\.0\.1|Bearer|secret|stack/i);
    const calls = svc.emulator.calls.count({ route: 'titleSummary' });
    if (code === 'REGISTER_CONTRACT_ERROR')
      expect(calls).toBe(1); // a broken contract is not transient
    else expect(calls).toBeGreaterThanOrEqual(2);
  });
});

describe('POST faults (create case, purchase plans): called exactly once', () => {
  it('a 503 is OUTCOME_UNKNOWN even before the effect (the service cannot tell), and never re-sent for that key', async () => {
    svc.emulator.faults.inject('createCase', { kind: 'status', status: 503 }, 1);
    const variables = caseVariables();
    const first = await svc.gql(CreateCaseMutation, variables);
    expect(first.data!.createCase.userErrors[0]!.code).toBe('OUTCOME_UNKNOWN');
    expect(svc.emulator.calls.count({ route: 'createCase' })).toBe(1);
    expect(createdCases()).toBe(0);
    const replay = await svc.gql(CreateCaseMutation, variables);
    expect(replay.data!.createCase.userErrors).toEqual(first.data!.createCase.userErrors);
    expect(svc.emulator.calls.count({ route: 'createCase' })).toBe(1);
    expect(createdCases()).toBe(0);
  });

  it.each([
    ['a reset after the effect', { kind: 'reset', phase: 'after' }],
    ['a hang after the effect', { kind: 'hang', phase: 'after' }],
    ['a dripping body', { kind: 'drip', chunkBytes: 1, intervalMs: 400 }],
    ['malformed JSON after the effect', { kind: 'malformed', phase: 'after' }],
  ] as const)('%s is OUTCOME_UNKNOWN, sent once, never re-sent for that key', async (_label, fault) => {
    svc.emulator.faults.inject('createCase', fault, 1);
    const variables = caseVariables();
    const first = await svc.gql(CreateCaseMutation, variables);
    expect(first.data!.createCase.userErrors[0]!.code).toBe('OUTCOME_UNKNOWN');
    expect(svc.emulator.calls.count({ route: 'createCase' })).toBe(1);
    expect(createdCases()).toBe(1); // it did happen: exactly why it must not be re-sent
    const replay = await svc.gql(CreateCaseMutation, variables);
    expect(replay.data!.createCase.userErrors[0]!.code).toBe('OUTCOME_UNKNOWN');
    expect(svc.emulator.calls.count({ route: 'createCase' })).toBe(1);
    expect(createdCases()).toBe(1);
  });

  it('a chargeable POST whose answer is lost is charged once and never re-sent', async () => {
    svc.emulator.faults.inject('purchasePlans', { kind: 'reset', phase: 'after' }, 1);
    const variables = { fas: '0877', input: { titleNumber: 'MID15313', idempotencyKey: newKey('plans') } };
    const first = await svc.gql(PurchaseTitlePlansMutation, variables);
    expect(first.data!.purchaseTitlePlans.userErrors[0]!.code).toBe('OUTCOME_UNKNOWN');
    await svc.gql(PurchaseTitlePlansMutation, variables);
    expect(svc.emulator.calls.count({ route: 'purchasePlans' })).toBe(1);
    expect(svc.emulator.ledger.count()).toBe(1);
  });
});

describe('circuit breaker', () => {
  it('opens after consecutive failures, fails fast while open, and recovers', async () => {
    svc.emulator.faults.inject('titleSummary', { kind: 'status', status: 503 }, 100);
    for (let i = 0; i < 3; i++) await svc.gql(TitleQuery, { titleNumber: 'MID15313' });
    const before = svc.emulator.calls.count({ route: 'titleSummary' });
    const fast = await svc.gql(TitleQuery, { titleNumber: 'MID15313' });
    expect(fast.errors![0]!.extensions!.code).toBe('REGISTER_UNAVAILABLE');
    expect(svc.emulator.calls.count({ route: 'titleSummary' })).toBe(before); // failed fast: no call
    expect(svc.services.transport.breakerState()).toBe('open');

    svc.emulator.faults.clear();
    // Once it has been open for openMs it lets one trial through, which closes it.
    await vi.waitFor(() => expect(svc.services.transport.breakerState()).toBe('half_open'));
    const recovered = await svc.gql(TitleQuery, { titleNumber: 'MID15313' });
    expect(recovered.errors).toBeUndefined();
    expect(svc.emulator.calls.count({ route: 'titleSummary' })).toBe(before + 1);
    expect(svc.services.transport.breakerState()).toBe('closed');
  });

  it('is not tripped by 4xx answers', async () => {
    for (let i = 0; i < 8; i++) {
      const { data } = await svc.gql(TitleQuery, { titleNumber: 'ZZZ999' });
      expect(data!.title).toBeNull();
    }
    expect(svc.services.transport.breakerState()).toBe('closed');
  });
});
