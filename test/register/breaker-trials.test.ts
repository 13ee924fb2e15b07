/**
 * What the breaker's trial must prove, and how slowness opens it: a trial's success closes it only
 * when it went to a route whose failures opened it (the token route answering proves nothing of
 * hung data routes); three slow attempts open it before the threshold of failures; it keeps the
 * last failed call that may be sent again, and forgets it once closed.
 */
import { describe, expect, test } from 'vitest';
import { type BreakerCall, CircuitBreaker } from '../../src/register/client/circuit-breaker';

function breaker(failureThreshold = 5) {
  let now = 0;
  const b = new CircuitBreaker({ failureThreshold, openMs: 1_000, slowMs: 5_000, now: () => now });
  return { b, advance: (ms: number) => (now += ms) };
}

const call = (routeName: string, resendable = true): BreakerCall => ({ routeName, resendable, resend: async () => undefined });

describe('the trial', () => {
  test('to a route that answered all along does not close it; to the failed route it does', () => {
    const { b, advance } = breaker(3);
    for (let i = 0; i < 3; i++) b.acquire(call('titleSummary'))!.failure();
    expect(b.state()).toBe('open');
    expect(b.failedRoutes()).toEqual(['titleSummary']);
    advance(1_000);
    b.acquire(call('token'))!.success();
    expect(b.state()).toBe('half_open');
    const trial = b.acquire(call('titleSummary'))!;
    expect(b.acquire(call('titleSummary'))).toBeUndefined(); // still one trial at a time
    trial.success();
    expect(b.state()).toBe('closed');
    expect(b.failedRoutes()).toEqual([]);
  });

  test('a failed trial adds its route to what the next trial may prove', () => {
    const { b, advance } = breaker(3);
    for (let i = 0; i < 3; i++) b.acquire(call('titleSummary'))!.failure();
    advance(1_000);
    b.acquire(call('securities'))!.failure();
    expect(b.state()).toBe('open');
    expect(b.failedRoutes()).toEqual(['securities', 'titleSummary']);
    advance(1_000);
    b.acquire(call('securities'))!.success();
    expect(b.state()).toBe('closed');
  });
});

describe('slow attempts', () => {
  test('three unanswered after slowMs open it, below the threshold of five failures', async () => {
    const b = new CircuitBreaker({ failureThreshold: 5, openMs: 1_000, slowMs: 10 });
    const tickets = [1, 2].map(() => b.acquire(call('titleSummary'))!);
    for (const t of tickets) t.sent();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(b.state()).toBe('closed');
    const third = b.acquire(call('titleSummary'))!;
    third.sent();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(b.state()).toBe('open');
  });

  test('a success between them starts the count again', async () => {
    const b = new CircuitBreaker({ failureThreshold: 5, openMs: 1_000, slowMs: 10 });
    for (const t of [1, 2].map(() => b.acquire(call('titleSummary'))!)) t.sent();
    await new Promise((resolve) => setTimeout(resolve, 30));
    b.acquire(call('titleSummary'))!.success();
    for (const t of [1, 2].map(() => b.acquire(call('titleSummary'))!)) t.sent();
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(b.state()).toBe('closed');
  });
});

describe('the call kept for a trial', () => {
  test('the last failed one that may be sent again, while not closed', () => {
    const { b, advance } = breaker(3);
    const read = call('titleSummary');
    b.acquire(read)!.failure();
    b.acquire(call('titleDetails', false))!.failure();
    expect(b.trialCall()).toBeUndefined(); // closed: nothing to try
    b.acquire(call('titleDetails', false))!.failure();
    expect(b.trialCall()).toBe(read); // a purchase is never sent again
    advance(1_000);
    b.acquire(read)!.success();
    expect(b.trialCall()).toBeUndefined();
  });

  test('when only purchases failed: the last read, whose answer then closes the breaker', () => {
    const { b, advance } = breaker(3);
    const read = call('titleSummary');
    b.acquire(read)!.success();
    for (let i = 0; i < 3; i++) b.acquire(call('titleDetails', false))!.failure();
    expect(b.failedRoutes()).toEqual(['titleDetails']);
    expect(b.trialCall()).toBe(read);
    advance(1_000);
    b.acquire(read)!.success();
    expect(b.state()).toBe('closed');
  });
});

describe('the sign-in', () => {
  test('proves only itself: it closes the breaker when it alone failed, not when data routes failed too', () => {
    const { b, advance } = breaker(2);
    b.acquire(call('titleSummary'))!.failure();
    b.acquire(call('token'))!.failure();
    advance(1_000);
    b.acquire(call('token'))!.success();
    expect(b.state()).toBe('half_open');
    b.acquire(call('titleSummary'))!.success();
    expect(b.state()).toBe('closed');

    b.acquire(call('token'))!.failure();
    b.acquire(call('token'))!.failure();
    advance(1_000);
    b.acquire(call('token'))!.success();
    expect(b.state()).toBe('closed');
  });
});
