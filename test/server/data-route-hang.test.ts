/**
 * The register's sign-in answers while its data routes hang (a real outage shape: the gateway and
 * the token service are up, the title service behind them is not), and a load balancer polls
 * `/ready` every 0.5 s. The breaker opens on the first three callers' attempts alone, none of them
 * answered yet; its trial goes to the route that failed, never to the token route that answers
 * all along, so `/ready` cannot close it while the hang lasts; callers are refused, in words that
 * say truthfully whether their request reached the register; once the routes answer again, the
 * trial closes it. Judged on the emulator's call log.
 */
import { describe, expect, test, vi } from 'vitest';
import { PurchaseTitleDetailsMutation, TitleQuery } from '../support/documents';
import { newKey, serviceForTest, type Service } from '../support/harness';

/**
 * The breaker as it ships, but for its clock: an attempt is slow after 0.5 s (5 s shipped) and the
 * breaker stays open 3 s (1 s shipped), longer than a poll of /ready, so that each half-open period
 * ends in one trial before the next callers come. The threshold of consecutive failures is the
 * shipped one (5): three slow attempts open it, not five.
 */
const DATA_ROUTES_HANG = {
  transport: {
    timeouts: { headersMs: 5_000, bodyMs: 5_000, deadlineMs: 15_000 },
    breaker: { failureThreshold: 5, slowMs: 500, openMs: 3_000 },
  },
};

const ask = (svc: Service, titleNumber: string) => svc.gql(TitleQuery, { titleNumber });

/** The calls that reached the register's title summary route, for one title or all. */
const summaryCalls = (svc: Service, titleNumber?: string) =>
  svc.emulator.calls
    .list()
    .filter((call) => call.route === 'titleSummary' && (titleNumber === undefined || call.path.includes(`/titles/${titleNumber}/`))).length;

interface Asked {
  titleNumber: string;
  answer?: Awaited<ReturnType<typeof ask>>;
  done: Promise<void>;
}

function caller(svc: Service, titleNumber: string): Asked {
  const asked: Asked = { titleNumber, done: Promise.resolve() };
  asked.done = ask(svc, titleNumber).then((answer) => {
    asked.answer = answer;
  });
  return asked;
}

/** /ready every 0.5 s, as a load balancer does, until stopped; every answer kept. */
function pollReady(svc: Service) {
  const seen: { status: number; body: { ready: boolean; register: { breaker: string; failedRoutes?: string[] } } }[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const response = await svc.get('/ready', null);
      seen.push({ status: response.status, body: (await response.json()) as (typeof seen)[number]['body'] });
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  })();
  return {
    seen,
    stop: async () => {
      running = false;
      await loop;
    },
  };
}

/** Whether the words of a refusal say that the request was sent, or that nothing was. */
function words(answer: Asked['answer']): 'nothing sent' | 'sent' {
  const message = answer?.errors?.[0]?.message ?? '';
  expect(answer?.errors).toEqual([
    expect.objectContaining({ extensions: expect.objectContaining({ code: expect.stringMatching(/^REGISTER_(UNAVAILABLE|TIMEOUT)$/) }) }),
  ]);
  return /nothing was sent/.test(message) ? 'nothing sent' : 'sent';
}

async function warmAndHang(svc: Service) {
  expect((await ask(svc, 'MID15313')).errors).toBeUndefined(); // a token in hand, pools ready
  svc.emulator.faults.inject('titleSummary', { kind: 'hang' }, 10_000);
  svc.emulator.calls.reset();
}

describe('the data routes hang while the sign-in answers', () => {
  test.each([3, 30])(
    '%i callers open the breaker on their first attempts, all still unanswered',
    async (callers) => {
      const svc = await serviceForTest({ services: DATA_ROUTES_HANG });
      await warmAndHang(svc);
      const asked = Array.from({ length: callers }, (_, i) => caller(svc, `BLK${100 + i}`));
      await vi.waitFor(() => expect(svc.services.transport.breakerState()).toBe('open'), { timeout: 20_000, interval: 10 });
      expect(summaryCalls(svc)).toBe(callers);
      expect(asked.filter((a) => a.answer)).toEqual([]);
      expect(svc.emulator.calls.count({ route: 'token' })).toBe(0);
    },
    30_000,
  );

  test('/ready polled every 0.5 s cannot close it through the token route; refusals say what was sent; the trial closes it once the routes answer', async () => {
    const svc = await serviceForTest({ services: DATA_ROUTES_HANG });
    await warmAndHang(svc);
    const ready = pollReady(svc);
    try {
      const first = ['BLK1', 'BLK2', 'BLK3'].map((titleNumber) => caller(svc, titleNumber));
      await vi.waitFor(() => expect(svc.services.transport.breakerState()).toBe('open'), { timeout: 20_000, interval: 10 });
      expect(summaryCalls(svc)).toBe(3);
      const polledBeforeHalfOpen = ready.seen.length;

      // The open period ends; the next poll of /ready makes the trial, and it must not be the token route.
      await vi.waitFor(() => expect(svc.services.transport.breakerState()).toBe('half_open'), { timeout: 20_000, interval: 10 });
      await vi.waitFor(() => expect(svc.services.transport.breakerState()).not.toBe('half_open'), { timeout: 20_000, interval: 10 });
      expect(svc.services.transport.breakerState()).toBe('open');
      expect(ready.seen.length).toBeGreaterThan(polledBeforeHalfOpen);
      // The trial was a call to the route that failed: one more, to a title a caller asked for.
      expect(summaryCalls(svc)).toBe(4);

      // Callers who come now are refused at once: none of them reaches the hung route.
      const later = ['BLK11', 'BLK12', 'BLK13', 'BLK14', 'BLK15', 'BLK16', 'BLK17', 'BLK18'].map((t) => caller(svc, t));
      await Promise.all(later.map((a) => a.done));
      for (const a of later) {
        expect(summaryCalls(svc, a.titleNumber)).toBe(0);
        expect(words(a.answer)).toBe('nothing sent');
      }

      // The first callers' attempts reached the register and got no answer; a later attempt refused
      // by the breaker does not make it "nothing was sent".
      await Promise.all(first.map((a) => a.done));
      for (const a of first) {
        expect(summaryCalls(svc, a.titleNumber)).toBeGreaterThanOrEqual(1);
        expect(words(a.answer)).toBe('sent');
      }

      // Not ready for as long as the routes hang, and /ready says why: the breaker, and the route that failed.
      const duringHang = ready.seen.slice(polledBeforeHalfOpen);
      expect(duringHang.length).toBeGreaterThanOrEqual(4);
      for (const poll of duringHang) {
        expect(poll.status).toBe(503);
        expect(poll.body.register).toMatchObject({ breaker: expect.stringMatching(/^(open|half_open)$/), failedRoutes: ['titleSummary'] });
      }
      // /ready's own probe kept reaching the token route, which answered all along: it closed nothing.
      expect(svc.emulator.calls.count({ route: 'token' })).toBeGreaterThan(0);

      // The routes answer again: with no caller, /ready's trial (the failed read, sent again) closes the breaker.
      svc.emulator.faults.clear();
      svc.emulator.calls.reset();
      await vi.waitFor(() => expect(svc.services.transport.breakerState()).toBe('closed'), { timeout: 20_000, interval: 50 });
      expect(summaryCalls(svc)).toBe(1);
      expect((await svc.get('/ready', null)).status).toBe(200);
      expect((await ask(svc, 'BLK20')).errors).toBeUndefined();
    } finally {
      await ready.stop();
    }
  }, 60_000);

  test('only purchases hang: they are never sent again; with no caller, the trial /ready makes is the last read, and it closes the breaker', async () => {
    const svc = await serviceForTest({ services: DATA_ROUTES_HANG });
    expect((await ask(svc, 'MID15313')).errors).toBeUndefined();
    svc.emulator.faults.inject('titleDetails', { kind: 'hang' }, 3);
    svc.emulator.calls.reset();
    for (const titleNumber of ['BLK1', 'BLK2', 'BLK3'])
      void svc.gql(PurchaseTitleDetailsMutation, { fas: '0877', input: { titleNumber, idempotencyKey: newKey('hang-buy') } });
    await vi.waitFor(() => expect(svc.services.transport.breakerState()).toBe('open'), { timeout: 20_000, interval: 10 });
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(3);

    await vi.waitFor(async () => expect((await svc.get('/ready', null)).status).toBe(200), { timeout: 20_000, interval: 500 });
    expect(svc.services.transport.breakerState()).toBe('closed');
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(3);
    expect(summaryCalls(svc, 'MID15313')).toBe(1);
  }, 60_000);
});
