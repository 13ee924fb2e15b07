/**
 * The retry machinery's small parts, by behaviour: waits that end early when the call is given
 * up, races that release their listener, the back-off cap, and Retry-After edge cases.
 */
import { getEventListeners } from 'node:events';
import { describe, expect, test, vi } from 'vitest';
import { backoffDelayMs, parseRetryAfter, raceSignal, sleep } from '../../src/register/client/retry';

const listeners = (signal: AbortSignal) => () => getEventListeners(signal, 'abort').length;

describe('sleep', () => {
  test('resolves after the time, and leaves no listener on the signal', async () => {
    const controller = new AbortController();
    const open = listeners(controller.signal);
    const started = performance.now();
    await sleep(30, controller.signal);
    expect(performance.now() - started).toBeGreaterThanOrEqual(25);
    expect(open()).toBe(0);
  });

  test('rejects with the reason as soon as the signal aborts', async () => {
    const controller = new AbortController();
    const sleeping = sleep(600_000, controller.signal); // ten minutes: only the abort can end it within this test
    controller.abort(new Error('gave up'));
    await expect(sleeping).rejects.toThrow('gave up');
  });

  test('an abort clears the timer and the listener', async () => {
    vi.useFakeTimers();
    try {
      const controller = new AbortController();
      const open = listeners(controller.signal);
      const sleeping = sleep(5_000, controller.signal);
      expect(vi.getTimerCount()).toBe(1);
      expect(open()).toBe(1);
      controller.abort(new Error('gave up'));
      await expect(sleeping).rejects.toThrow('gave up');
      expect(vi.getTimerCount()).toBe(0);
      expect(open()).toBe(0);
    } finally {
      vi.useRealTimers();
    }
  });

  test('rejects at once when the signal has already aborted', async () => {
    const reason = new Error('already');
    await expect(sleep(5_000, AbortSignal.abort(reason))).rejects.toBe(reason);
  });

  test('works without a signal', async () => {
    await expect(sleep(1)).resolves.toBeUndefined();
  });
});

describe('raceSignal', () => {
  test('passes a value or a rejection through, and removes its listener either way', async () => {
    const controller = new AbortController();
    const open = listeners(controller.signal);
    await expect(raceSignal(Promise.resolve(7), controller.signal)).resolves.toBe(7);
    await expect(raceSignal(Promise.reject(new Error('no')), controller.signal)).rejects.toThrow('no');
    expect(open()).toBe(0);
  });

  test("rejects with the signal's reason when it aborts first, and keeps no listener after", async () => {
    const controller = new AbortController();
    const open = listeners(controller.signal);
    const never = new Promise<number>(() => undefined);
    const racing = raceSignal(never, controller.signal);
    expect(open()).toBe(1);
    controller.abort(new Error('deadline'));
    await expect(racing).rejects.toThrow('deadline');
    expect(open()).toBe(0);
  });

  test('rejects at once on an aborted signal, and is the promise itself without one', async () => {
    const reason = new Error('aborted');
    await expect(raceSignal(new Promise(() => undefined), AbortSignal.abort(reason))).rejects.toBe(reason);
    const promise = Promise.resolve(1);
    expect(raceSignal(promise)).toBe(promise);
  });
});

describe('backoffDelayMs', () => {
  const policy = { attempts: 5, baseDelayMs: 100, maxDelayMs: 1_000 };
  test('doubles from the base per failure, capped at the maximum, jitter scaling the whole range', () => {
    expect([1, 2, 3, 4, 5, 6].map((n) => backoffDelayMs(policy, n, () => 0.5))).toEqual([50, 100, 200, 400, 500, 500]);
    expect(backoffDelayMs(policy, 0, () => 0.5)).toBe(50);
    expect(backoffDelayMs(policy, 2, () => 0.999_9)).toBe(199);
  });

  test('full jitter: from 0 up to just under the doubled base, and just under the cap past it', () => {
    expect(backoffDelayMs(policy, 1, () => 0.999)).toBe(99);
    expect(backoffDelayMs(policy, 3, () => 0.999)).toBe(399);
    expect(backoffDelayMs(policy, 10, () => 0.999)).toBe(999);
    expect(backoffDelayMs(policy, 3, () => 0)).toBe(0);
  });

  test('uses Math.random by default, within the range', () => {
    for (let i = 0; i < 50; i++) {
      const delay = backoffDelayMs(policy, 2);
      expect(delay).toBeGreaterThanOrEqual(0);
      expect(delay).toBeLessThan(200);
      expect(Number.isInteger(delay)).toBe(true);
    }
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-03-01T12:00:00Z');
  test.each<[string | string[] | undefined, number | undefined]>([
    [undefined, undefined],
    ['', undefined],
    ['   ', undefined],
    ['soon', undefined],
    ['1.5', undefined],
    ['-3', undefined],
    ['12', 12],
    [' 0 ', 0],
    [['3', '9'], 3], // a repeated header: the first value counts
    ['Sun, 01 Mar 2026 12:00:00 GMT', 0],
    ['Sun, 01 Mar 2026 12:00:00 GMT ', 0],
    ['Sun, 01 Mar 2026 12:00:01 GMT', 1],
    ['Sun, 01 Mar 2026 12:00:30 GMT', 30],
    ['Sun, 01 Mar 2026 11:00:00 GMT', 0], // a date already past: no wait, never a negative one
    ['2026-03-01T12:00:05Z', undefined],
  ])('%j → %s', (value, seconds) => {
    expect(parseRetryAfter(value, now)).toBe(seconds);
  });

  test('a date 0.2 s ahead rounds up to 1 s, never down to 0', () => {
    expect(parseRetryAfter(new Date(now + 200).toUTCString(), now - 800)).toBe(1);
  });

  test('uses the current time by default', () => {
    expect(parseRetryAfter(new Date(Date.now() + 60_000).toUTCString())).toBeGreaterThanOrEqual(59);
  });
});
