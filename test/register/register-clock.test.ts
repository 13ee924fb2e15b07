/**
 * The register's clock as the transport knows it from one answer's `Date` header: the header's
 * whole second, the round trip of the attempt, and the drift since, on this machine's monotonic
 * clock (mocked here), never its wall clock. Whether a London midnight falls in that span decides
 * whether the register's day is known.
 */
import { afterEach, describe, expect, test, vi } from 'vitest';
import { RegisterTransport } from '../../src/register/client/http';

const M = Date.parse('2026-01-16T00:00:00Z');
const header = (ms: number) => new Date(ms).toUTCString();

function transport(deadlineMs = 30_000) {
  let monotonic = 1_000_000;
  vi.spyOn(performance, 'now').mockImplementation(() => monotonic);
  const t = new RegisterTransport({ baseUrl: 'http://127.0.0.1:9/v1', timeouts: { deadlineMs } });
  return {
    t,
    now: () => monotonic,
    passes: (ms: number) => {
      monotonic += ms;
    },
  };
}

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe("the register's day from its latest Date header", () => {
  test("before any answer, it is this machine's clock, and says so", () => {
    const { t } = transport();
    expect(t.registerDay()).toMatchObject({ certainty: 'MACHINE_CLOCK' });
  });

  test('the round trip of the answer widens the span: 0.9 s two seconds before midnight is known, 1.1 s is not', () => {
    const { t, now } = transport();
    t.observeRegisterDate(header(M - 2_000), now() - 900);
    expect(t.registerDay()).toEqual({ day: '2026-01-15', certainty: 'EXACT', latestDay: '2026-01-15', at: new Date(M - 1_500) });
    t.observeRegisterDate(header(M - 2_000), now() - 1_100);
    expect(t.registerDay()).toMatchObject({ day: '2026-01-15', certainty: 'NEAR_MIDNIGHT', latestDay: '2026-01-16' });
  });

  test('the header drops its fraction: a header of the last second before midnight leaves the day open until a second has passed', () => {
    const { t, now, passes } = transport();
    t.observeRegisterDate(header(M - 1_000), now());
    expect(t.registerDay()).toMatchObject({ day: '2026-01-15', certainty: 'EXACT' }); // as it answered, it was within 23:59:59
    passes(1);
    expect(t.registerDay().certainty).toBe('NEAR_MIDNIGHT');
    passes(998);
    expect(t.registerDay().certainty).toBe('NEAR_MIDNIGHT');
    passes(2);
    expect(t.registerDay()).toMatchObject({ day: '2026-01-16', certainty: 'EXACT' });
    // A header of midnight itself: the new day, known at once.
    t.observeRegisterDate(header(M), now());
    expect(t.registerDay()).toMatchObject({ day: '2026-01-16', certainty: 'EXACT' });
  });

  test('after a quiet hour the clocks may have drifted 0.36 s apart (100 ppm), and that counts', () => {
    const { t, now, passes } = transport();
    t.observeRegisterDate(header(M - 3_602_000), now());
    passes(3_600_000);
    expect(t.registerDay().certainty).toBe('EXACT'); // at the latest 0.64 s before midnight
    passes(700);
    expect(t.registerDay().certainty).toBe('NEAR_MIDNIGHT'); // without the drift, 0.3 s before it
  });

  test('for a purchase, the span reaches on by the call deadline: a call sent now may reach the register that much later', () => {
    const { t, now, passes } = transport(5_000);
    t.observeRegisterDate(header(M - 10_000), now());
    expect(t.registerDay(true).certainty).toBe('EXACT');
    passes(5_000);
    expect(t.registerDay(true)).toMatchObject({ day: '2026-01-15', certainty: 'NEAR_MIDNIGHT', latestDay: '2026-01-16' });
    expect(t.registerDay().certainty).toBe('EXACT');
  });

  test("this machine's wall clock stepped after the answer moves neither the estimate nor the day", () => {
    const { t, now } = transport();
    vi.useFakeTimers({ toFake: ['Date'], now: M - 5_000 });
    t.observeRegisterDate(header(M - 5_000), now());
    const before = t.registerNow().getTime();
    for (const step of [3_600_000, -3_600_000, 5_000, -5_000]) {
      vi.setSystemTime(M - 5_000 + step);
      expect(t.registerNow().getTime()).toBe(before);
      expect(t.registerDay()).toMatchObject({ day: '2026-01-15', certainty: 'EXACT' });
    }
  });
});
