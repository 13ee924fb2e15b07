/**
 * The circuit breaker's bookkeeping, by behaviour: failures count only while closed and only up
 * to the threshold, a ticket counts once however often it is settled, and a ticket from before a
 * transition never counts after it, even across several transitions.
 */
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { CircuitBreaker } from '../../src/register/client/circuit-breaker';

function breaker(failureThreshold: number, openMs = 1_000) {
  let now = 0;
  const b = new CircuitBreaker({ failureThreshold, openMs, now: () => now });
  return { b, advance: (ms: number) => (now += ms) };
}

describe('the cycle: closed, open, half-open', () => {
  test('opens after N consecutive failures, half-opens for one trial, closes on success', () => {
    const { b, advance } = breaker(3);
    b.acquire()!.failure();
    b.acquire()!.failure();
    b.acquire()!.success(); // resets the count
    b.acquire()!.failure();
    b.acquire()!.failure();
    expect(b.state()).toBe('closed');
    b.acquire()!.failure();
    expect(b.state()).toBe('open');
    expect(b.acquire()).toBeUndefined();
    advance(1_000);
    expect(b.state()).toBe('half_open');
    const trial = b.acquire()!;
    expect(trial).toBeDefined();
    expect(b.acquire()).toBeUndefined(); // one trial at a time
    trial.success();
    expect(b.state()).toBe('closed');
  });

  test('re-opens when the trial fails, and a released trial frees the trial slot', () => {
    const { b, advance } = breaker(3);
    for (let i = 0; i < 3; i++) b.acquire()!.failure();
    advance(1_000);
    b.acquire()!.release();
    expect(b.state()).toBe('half_open');
    b.acquire()!.failure();
    expect(b.state()).toBe('open');
    advance(999);
    expect(b.acquire()).toBeUndefined();
  });

  test('a success from a call admitted before it opened does not close it', () => {
    const { b, advance } = breaker(3);
    const straggler = b.acquire()!;
    for (let i = 0; i < 3; i++) b.acquire()!.failure();
    straggler.success();
    expect(b.state()).toBe('open');
    advance(1_000);
    expect(b.state()).toBe('half_open');
  });
});

describe('counting failures', () => {
  test('fewer consecutive failures than the threshold leave it closed', () => {
    const { b } = breaker(3);
    b.acquire()!.failure();
    expect(b.state()).toBe('closed');
    b.acquire()!.failure();
    expect(b.state()).toBe('closed');
    expect(b.acquire()).toBeDefined();
  });

  test('a ticket settled twice counts once', () => {
    const { b } = breaker(2);
    const ticket = b.acquire()!;
    ticket.failure();
    ticket.failure();
    ticket.success();
    expect(b.state()).toBe('closed');
    b.acquire()!.failure();
    expect(b.state()).toBe('open');
  });

  test('a released ticket neither counts as a failure nor resets the count', () => {
    const { b } = breaker(2);
    b.acquire()!.failure();
    b.acquire()!.release();
    expect(b.state()).toBe('closed');
    b.acquire()!.failure();
    expect(b.state()).toBe('open');
  });

  test('opening starts the count again: after a successful trial it takes the full threshold to open', () => {
    const { b, advance } = breaker(2);
    b.acquire()!.failure();
    b.acquire()!.failure();
    advance(1_000);
    b.acquire()!.success();
    expect(b.state()).toBe('closed');
    b.acquire()!.failure();
    expect(b.state()).toBe('closed');
  });
});

describe('tickets from an earlier phase', () => {
  test('a straggler from before opening is ignored after the breaker opened and closed again', () => {
    const { b, advance } = breaker(1);
    const straggler = b.acquire()!;
    b.acquire()!.failure(); // opens
    expect(b.state()).toBe('open');
    advance(1_000);
    b.acquire()!.success(); // the trial closes it
    expect(b.state()).toBe('closed');
    straggler.failure(); // from the first closed phase: must not count
    expect(b.state()).toBe('closed');
  });

  test('a trial ticket from an earlier half-open phase is ignored', () => {
    const { b, advance } = breaker(1);
    b.acquire()!.failure();
    advance(1_000);
    const oldTrial = b.acquire()!;
    oldTrial.failure(); // re-opens
    advance(1_000);
    b.acquire()!.success(); // closes
    oldTrial.failure();
    oldTrial.release();
    expect(b.state()).toBe('closed');
  });

  test('while open, acquiring fails fast until openMs has passed, exactly', () => {
    const { b, advance } = breaker(1, 500);
    b.acquire()!.failure();
    advance(499);
    expect(b.state()).toBe('open');
    expect(b.acquire()).toBeUndefined();
    advance(1);
    expect(b.state()).toBe('half_open');
  });

  test('a failed trial re-opens it for a full openMs from the failure', () => {
    const { b, advance } = breaker(1, 500);
    b.acquire()!.failure();
    advance(600);
    const trial = b.acquire()!;
    advance(300);
    trial.failure();
    advance(499);
    expect(b.state()).toBe('open');
    advance(1);
    expect(b.state()).toBe('half_open');
  });

  test('uses performance.now by default', async () => {
    const b = new CircuitBreaker({ failureThreshold: 1, openMs: 20 });
    b.acquire()!.failure();
    expect(b.state()).toBe('open');
    await vi.waitFor(() => expect(b.state()).toBe('half_open'));
  });
});

describe('a success while closed', () => {
  test('resets the count but does not discard the failures of calls already in flight', () => {
    const { b } = breaker(2);
    const first = b.acquire()!;
    const second = b.acquire()!;
    first.success();
    second.failure();
    b.acquire()!.failure();
    expect(b.state()).toBe('open');
  });
});

describe('slow attempts (slowMs): the register hanging opens it within slowMs, not after a deadline', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });
  function slowBreaker(failureThreshold: number, slowMs = 100, openMs = 1_000) {
    let now = 0;
    const b = new CircuitBreaker({ failureThreshold, openMs, slowMs, now: () => now });
    const advance = (ms: number) => {
      now += ms;
      vi.advanceTimersByTime(ms);
    };
    return { b, advance };
  }

  test('the threshold of attempts sent and unanswered past slowMs opens it while they are all still in flight', () => {
    const { b, advance } = slowBreaker(3);
    const tickets = [b.acquire()!, b.acquire()!, b.acquire()!];
    for (const ticket of tickets) ticket.sent();
    advance(99);
    expect(b.state()).toBe('closed');
    advance(1);
    expect(b.state()).toBe('open');
    expect(b.acquire()).toBeUndefined();
    // their ends, when they come, are from before the opening: they change nothing
    for (const ticket of tickets) ticket.failure();
    expect(b.retryAfterMs()).toBe(1_000);
  });

  test('the wait for a connection is not the register being slow: only time after sending counts', () => {
    const { b, advance } = slowBreaker(1);
    const queued = b.acquire()!;
    advance(500);
    expect(b.state()).toBe('closed');
    queued.sent();
    advance(100);
    expect(b.state()).toBe('open');
  });

  test('a slow attempt counts once, and its late answer resets the count like any success', () => {
    const { b, advance } = slowBreaker(2);
    const slow = b.acquire()!;
    slow.sent();
    advance(100); // one failure
    slow.failure(); // its timeout later: not a second one
    expect(b.state()).toBe('closed');
    const late = b.acquire()!;
    late.sent();
    advance(100); // two: opens
    expect(b.state()).toBe('open');

    const { b: b2, advance: advance2 } = slowBreaker(2);
    const answeredLate = b2.acquire()!;
    answeredLate.sent();
    advance2(100);
    answeredLate.success();
    b2.acquire()!.failure();
    expect(b2.state()).toBe('closed');
  });

  test('a ticket sent twice is one attempt: when slow, it counts one failure, not two', () => {
    const { b, advance } = slowBreaker(2);
    const twice = b.acquire()!;
    twice.sent();
    advance(50);
    twice.sent(); // a second word of the same write starts no second clock
    advance(100);
    expect(b.state()).toBe('closed');
    const other = b.acquire()!;
    other.sent();
    advance(100);
    expect(b.state()).toBe('open');
  });

  test('without slowMs, an attempt sent and unanswered never counts as a failure, however long it waits', () => {
    let now = 0;
    const b = new CircuitBreaker({ failureThreshold: 1, openMs: 1_000, now: () => now });
    const waiting = b.acquire()!;
    waiting.sent();
    now += 60_000;
    vi.advanceTimersByTime(60_000);
    expect(b.state()).toBe('closed');
    waiting.success();
    expect(b.acquire()).toBeDefined();
  });

  test('half-open with no trial out (the last one failed fast): a refused call may come back at once', () => {
    const { b, advance } = slowBreaker(1, 5_000, 300);
    b.acquire()!.failure();
    advance(300);
    const trial = b.acquire()!;
    trial.sent();
    advance(10);
    trial.failure(); // reopens for openMs, well within the trial's slowMs
    advance(300);
    expect(b.state()).toBe('half_open');
    expect(b.retryAfterMs()).toBe(0);
  });

  test('a slow trial reopens it at once; the next trial comes openMs later', () => {
    const { b, advance } = slowBreaker(1, 100, 300);
    b.acquire()!.failure();
    advance(300);
    const trial = b.acquire()!;
    trial.sent();
    expect(b.retryAfterMs()).toBe(100); // the trial decides within slowMs
    advance(100);
    expect(b.state()).toBe('open');
    expect(b.retryAfterMs()).toBe(300);
    trial.success(); // from the earlier phase
    expect(b.state()).toBe('open');
    advance(300);
    b.acquire()!.success();
    expect(b.state()).toBe('closed');
    expect(b.retryAfterMs()).toBe(0);
  });
});
