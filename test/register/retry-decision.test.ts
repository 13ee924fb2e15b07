/**
 * `shouldRetry`, the one rule for what may be sent again, over every register route × every
 * failure kind. The expected table is written out by hand from the money-safety rule (effect,
 * not HTTP method, decides), not derived from the code under test.
 */
import { describe, expect, test } from 'vitest';
import { ROUTE_LIST, ROUTES, type RouteEffect } from '../../src/register/contract/routes';
import { FAILURE_KINDS, shouldRetry, type FailureKind, type RetryDecision } from '../../src/register/client/retry';

/** [a read (effect none), a call that charges or creates] */
const EXPECTED: Record<FailureKind, [RetryDecision, RetryDecision]> = {
  not_sent: ['retry', 'retry'], // connection refused, or the pool wait ran out: no byte left
  circuit_open: ['fail', 'fail'], // refused here, fast
  token_failed: ['fail', 'fail'], // (a non-transient token failure; transient ones below)
  unauthorised: ['fail', 'fail'], // the one refresh happens before this rule is asked
  rate_limited: ['fail', 'fail'], // (without Retry-After; with it below)
  rejected: ['fail', 'fail'], // a 4xx: the register refused the input
  server_error: ['retry', 'unknown'],
  timeout: ['retry', 'unknown'],
  reset: ['retry', 'unknown'],
  body_cut: ['retry', 'unknown'],
  contract: ['fail', 'unknown'],
};

const EFFECTS: Record<string, RouteEffect> = {
  token: 'none',
  titleSummary: 'none',
  titleDetails: 'charges',
  pendingApplications: 'charges',
  orderDocument: 'charges',
  downloadDocument: 'none',
  purchasePlans: 'charges',
  downloadPlan: 'none',
  securities: 'none',
  creditors: 'none',
  createCase: 'creates',
  addDeed: 'creates',
  listPaths: 'none',
  referenceList: 'none',
  openapi: 'none',
};

describe('route effects', () => {
  test('every route declares its effect; the chargeable GETs are not reads', () => {
    expect(Object.fromEntries(ROUTE_LIST.map((r) => [r.name, r.effect]))).toEqual(EFFECTS);
    expect(ROUTES.titleDetails.method).toBe('GET');
    expect(ROUTES.pendingApplications.method).toBe('GET');
  });
});

describe('shouldRetry: every route × every failure kind', () => {
  const cases = ROUTE_LIST.flatMap((route) =>
    FAILURE_KINDS.map((kind) => ({ route: route.name, method: route.method, effect: route.effect, kind })),
  );
  test.each(cases)('$route ($method, $effect) after $kind', ({ effect, kind }) => {
    const [read, effectful] = EXPECTED[kind];
    expect(shouldRetry(effect, { kind })).toBe(effect === 'none' ? read : effectful);
  });

  test.each(ROUTE_LIST.map((r) => ({ route: r.name, effect: r.effect })))(
    '$route: a 429 with a Retry-After, or a transient token failure, may be retried',
    ({ effect }) => {
      expect(shouldRetry(effect, { kind: 'rate_limited', retryAfterKnown: true })).toBe('retry');
      expect(shouldRetry(effect, { kind: 'token_failed', tokenTransient: true })).toBe('retry');
      expect(shouldRetry(effect, { kind: 'token_failed', tokenTransient: false })).toBe('fail');
    },
  );

  test('the table covers every failure kind', () => {
    expect(Object.keys(EXPECTED).sort()).toEqual([...FAILURE_KINDS].sort());
  });
});
