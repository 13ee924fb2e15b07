/**
 * In production (no hints, no introspection, masked errors, refusals reworded) a document that
 * keeps coming back is compiled by graphql-jit after GRAPHQL_JIT_AFTER runs, and its answers
 * must not change: HTTP status, data, and each error's message, path, locations and extensions.
 * Each document is sent three times to a service that compiles after one run, and each answer
 * must equal the first (interpreted) one. Faults are injected in both services alike.
 */
import { DEFAULT_LIMITS } from '../../src/security/settings';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { serviceForTest, startService, type Service } from '../support/harness';
import { FAULT_TEST_TRANSPORT } from '../support/fault-transport';
import { postRaw } from '../support/post-raw';

const PRODUCTION = { hardening: { limits: DEFAULT_LIMITS, introspection: false, fieldSuggestions: false } };

type Running = Service & { stop(): Promise<void> };
let svc: Running;
beforeAll(async () => {
  svc = await startService({ services: { transport: FAULT_TEST_TRANSPORT }, app: { ...PRODUCTION, jit: { compileAfter: 1 } } });
});
afterAll(() => svc?.stop());

interface Answer {
  status: number;
  body: { data?: unknown; errors?: { message: string; locations?: unknown; path?: unknown; extensions?: Record<string, unknown> }[] };
}

async function send(query: string, variables?: Record<string, unknown>, accept = 'application/graphql-response+json'): Promise<Answer> {
  const answer = await postRaw(svc.yoga, { query, variables }, { accept });
  return { status: answer.status, body: answer.body as Answer['body'] };
}

/** Three runs (interpreted, then compiled twice): the same answer each time. */
async function sameEachTime(query: string, variables?: Record<string, unknown>, before?: () => void): Promise<Answer> {
  const answers: Answer[] = [];
  for (let i = 0; i < 3; i++) {
    before?.();
    const answer = await send(query, variables);
    // Items of a list fail in the order their register calls do: the order of errors is not part of the answer.
    answer.body.errors?.sort((a, b) => JSON.stringify(a.path).localeCompare(JSON.stringify(b.path)));
    answers.push(answer);
    svc.emulator.faults.clear();
  }
  expect(answers[1]).toEqual(answers[0]);
  expect(answers[2]).toEqual(answers[0]);
  return answers[0]!;
}

describe('production: answers are the same before and after a document is compiled', () => {
  test('BAD_USER_INPUT from a resolver (creditors "ab"), with its path and locations', async () => {
    const answer = await sameEachTime('query C($q: String!) { creditors(query: $q) { creditorCode } }', { q: 'ab' });
    expect(answer.status).toBe(200);
    expect(answer.body.errors).toEqual([
      {
        message: expect.stringMatching(/query must be at least 3 characters/),
        locations: [{ line: 1, column: 24 }],
        path: ['creditors'],
        extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }),
      },
    ]);
  });

  test('a variable that breaks its scalar rule: BAD_USER_INPUT in our words, nothing sent, whether graphql-js or graphql-jit meets it first', async () => {
    svc.emulator.calls.reset();
    const answer = await sameEachTime('query V($t: TitleNumber!) { title(titleNumber: $t) { titleNumber } }', { t: 'not a title' });
    expect(answer.status).toBe(400);
    expect(answer.body.data).toBeUndefined();
    expect(answer.body.errors).toEqual([
      {
        message: expect.stringMatching(/^Variable "\$t" got invalid value "not a title": TitleNumber /),
        locations: [{ line: 1, column: 9 }],
        extensions: expect.objectContaining({ code: 'BAD_USER_INPUT' }),
      },
    ]);
    expect(svc.emulator.calls.count({ route: 'titleSummary' })).toBe(0);
  });

  test('REGISTER_UNAVAILABLE during a register outage, with the partial data and each path', async () => {
    const answer = await sameEachTime(
      'query T($ts: [TitleNumber!]!) { titles(titleNumbers: $ts) { titleNumber } }',
      { ts: ['MID15313', 'MID1234'] },
      () => svc.emulator.faults.inject('titleSummary', { kind: 'status', status: 500 }, 50),
    );
    expect(answer.status).toBe(200);
    expect(answer.body.data).toEqual({ titles: [null, null] });
    expect(answer.body.errors).toEqual([
      // The register answered 500 without Retry-After: the default wait.
      ...[0, 1].map((i) =>
        expect.objectContaining({
          path: ['titles', i],
          locations: [{ line: 1, column: 33 }],
          extensions: { code: 'REGISTER_UNAVAILABLE', retryAfterSeconds: 2 },
        }),
      ),
    ]);
  });

  test('RATE_LIMITED keeps retryAfterSeconds', async () => {
    const answers: Answer[] = [];
    for (let i = 0; i < 3; i++) {
      svc.emulator.faults.inject('creditors', { kind: 'status', status: 429, retryAfterSeconds: 30 }, 5);
      answers.push(await send('query R { creditors(query: "bank") { creditorCode } }'));
    }
    svc.emulator.faults.clear();
    for (const answer of answers) {
      expect(answer.status).toBe(200);
      expect(answer.body.errors).toEqual([
        expect.objectContaining({
          path: ['creditors'],
          locations: [{ line: 1, column: 11 }],
          extensions: expect.objectContaining({ code: 'RATE_LIMITED', retryAfterSeconds: expect.any(Number) }),
        }),
      ]);
    }
  });

  test('a mutation never sent (the register gone) is REGISTER_UNAVAILABLE, the same each time, and nothing is charged', async () => {
    const lone = await serviceForTest({ services: { transport: FAULT_TEST_TRANSPORT }, app: { ...PRODUCTION, jit: { compileAfter: 1 } } });
    await lone.emulator.close();
    const answers: Answer[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await postRaw(lone.yoga, {
        query:
          'mutation B($k: String!) { purchaseTitleDetails(fas: "0877", input: { titleNumber: "MID1234", idempotencyKey: $k }) { charges { fee } } }',
        variables: { k: `never-sent-${process.pid}-${Date.now()}` },
      });
      answers.push({ status: response.status, body: response.body as Answer['body'] });
    }
    for (const answer of answers) {
      expect(answer.body.errors).toEqual([
        expect.objectContaining({
          message: expect.stringContaining('so nothing was sent to it'),
          path: ['purchaseTitleDetails'],
          locations: [{ line: 1, column: 27 }],
          extensions: { code: 'REGISTER_UNAVAILABLE', retryAfterSeconds: 2 },
        }),
      ]);
    }
    expect(answers[1]).toEqual(answers[0]);
    expect(lone.emulator.ledger.count()).toBe(0);
  });
});
