/**
 * The quota guard: what it admits and refuses, and the words and wait it gives, on a real
 * SQLite ledger with a fixed register clock; then, over HTTP against the emulator, which calls
 * it takes back (never sent, refused by our breaker, 401, 429) and which it keeps, judged on
 * `registerUsage` and the emulator's call log.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { RegisterCallEvent } from '../../src/register/client';
import { londonDate } from '../../src/register/contract/london-day';
import { ROUTES } from '../../src/register/contract/routes';
import { DEFAULT_QUOTA_POLICY, msToLondonMidnight, QuotaGuard, QuotaRefusal, type QuotaPolicy } from '../../src/services/quota';
import type { QuotaStore } from '../../src/storage/quota/store';
import { SqliteQuotaStore } from '../../src/storage/quota/sqlite-store';
import { DatabaseUnavailableError } from '../../src/storage/database-unavailable';
import { RegisterError } from '../../src/register/client';
import { connectionsTo } from '../support/connections';
import { RegisterUsageQuery, TitleQuery } from '../support/documents';
import { serviceForTest, type Service, type ServiceOverrides } from '../support/harness';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** 1.5 s before London midnight (GMT in early March). */
const LATE = Date.parse('2026-03-10T23:59:58.500Z');
const ORGANISATIONS: Record<string, string> = { 'client-a': 'ORG-A', 'client-a2': 'ORG-A', 'client-b': 'ORG-B' };

function guard(policy: Partial<QuotaPolicy>, at = LATE) {
  const dir = mkdtempSync(join(tmpdir(), 'titlegraph-quota-strength-'));
  const store = new SqliteQuotaStore(dir, msToLondonMidnight);
  cleanups.push(async () => {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const clock = { now: at };
  const quota = new QuotaGuard(store, { ...DEFAULT_QUOTA_POLICY, clientBurst: 0, ...policy }, () => new Date(clock.now));
  /** The hooks the register client of this API client would call. */
  const client = (id: string) => quota.forClient({ id, organisation: ORGANISATIONS[id]! });
  return { quota, clock, client };
}

const FREE = ROUTES.titleSummary;
const PAID = ROUTES.titleDetails;

async function refusal(run: Promise<unknown>): Promise<QuotaRefusal> {
  const error = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(QuotaRefusal);
  return error as QuotaRefusal;
}

describe('admission', () => {
  test('the defaults: 2,000 calls a day, 90% for free reads, a bucket of 500 refilled at 120 a minute, leases of 250 ms', () => {
    expect(DEFAULT_QUOTA_POLICY).toEqual({ dailyQuota: 2_000, freeShare: 0.9, clientBurst: 500, clientPerMinute: 120, leaseMs: 250 });
  });

  test('past the day’s calls, a paid call is refused until London midnight, in whole seconds rounded up', async () => {
    const { client } = guard({ dailyQuota: 2, freeShare: 1 });
    await client('client-a').admit(PAID);
    await client('client-a2').admit(FREE);
    const refused = await refusal(client('client-a').admit(PAID));
    expect(refused).toMatchObject({
      name: 'QuotaRefusal',
      status: 429,
      code: 'TOO_MANY_REQUESTS',
      route: 'titleDetails',
      retryAfterSeconds: 2,
      detail:
        'This organisation has used its 2 register calls for today; they start again at midnight (Europe/London), in 2 s (at 00:00:00 on 11 March, London time).',
    });
  });

  test('another organisation has its own count', async () => {
    const { client } = guard({ dailyQuota: 1, freeShare: 1 });
    await client('client-a').admit(FREE);
    await expect(client('client-b').admit(FREE)).resolves.toBeUndefined();
    await refusal(client('client-a2').admit(FREE));
  });

  test('free reads stop at their share of the day, rounded down; paid calls go on to the day’s limit', async () => {
    const { quota, client } = guard({ dailyQuota: 5, freeShare: 0.335 }); // 1.675 free reads: 1
    const midnight = new Date('2026-03-11T00:00:00.000Z');
    expect(await quota.usage('ORG-A')).toEqual({ day: '2026-03-10', calls: 0 });
    await client('client-a').admit(FREE);
    // registerUsage says so by the same rule, at exactly the share: free reads until midnight, the rest admitted.
    expect(await quota.usage('ORG-A')).toEqual({ day: '2026-03-10', calls: 1, freeReadsBlockedUntil: midnight });
    const refused = await refusal(client('client-a').admit(FREE));
    expect(refused.route).toBe('titleSummary');
    expect(refused.retryAfterSeconds).toBe(2);
    expect(refused.detail).toBe(
      "Free reads have used their share (34%) of this organisation's 5 register calls today; the rest is kept for purchases, orders, cases and deeds. Free reads start again at midnight (Europe/London), in 2 s (at 00:00:00 on 11 March, London time).",
    );
    for (let i = 0; i < 4; i++) await client('client-a').admit(PAID);
    expect((await refusal(client('client-a').admit(PAID))).detail).toMatch(/^This organisation has used its 5 register calls/);
    // At exactly the day's calls, everything is refused until midnight, and registerUsage says so.
    expect(await quota.usage('ORG-A')).toEqual({ day: '2026-03-10', calls: 5, blockedUntil: midnight, freeReadsBlockedUntil: midnight });
  });

  test('a client’s bucket: a burst, then a wait of one call’s refill, in whole seconds rounded up', async () => {
    const { clock, client } = guard({ clientBurst: 2, clientPerMinute: 40 }); // one call every 1.5 s
    await client('client-a').admit(FREE);
    await client('client-a').admit(FREE);
    const refused = await refusal(client('client-a').admit(FREE));
    expect(refused.retryAfterSeconds).toBe(2);
    expect(refused.detail).toBe(
      'This API client made too many register calls in a short time (at most 2 at once, then 40 a minute); retry in 2 s (at 00:00:00 on 11 March, London time).',
    );
    await expect(client('client-a2').admit(FREE)).resolves.toBeUndefined(); // its own bucket
    clock.now += 1_500;
    await expect(client('client-a').admit(FREE)).resolves.toBeUndefined();
    await refusal(client('client-a').admit(FREE));
  });

  test('after the register’s 429, the organisation is refused until its Retry-After, on every client, then admitted', async () => {
    const { quota, clock, client } = guard({});
    await client('client-a').rateLimited(30);
    const refused = await refusal(client('client-a2').admit(PAID));
    expect(refused.retryAfterSeconds).toBe(30);
    expect(refused.detail).toBe(
      "The register refused this organisation's calls (429); they are refused here until it allows them again, in 30 s (at 00:00:29 on 11 March, London time).",
    );
    await expect(client('client-b').admit(FREE)).resolves.toBeUndefined();
    expect(await quota.usage('ORG-A')).toEqual({
      day: '2026-03-10',
      calls: 0,
      blockedUntil: new Date(LATE + 30_000),
      freeReadsBlockedUntil: new Date(LATE + 30_000),
    });
    clock.now += 30_001;
    await expect(client('client-a').admit(FREE)).resolves.toBeUndefined();
    expect(await quota.usage('ORG-A')).toEqual({ day: '2026-03-11', calls: 1 });
  });

  test('a 429 without Retry-After blocks the organisation for a minute, and says so', async () => {
    const { quota, client } = guard({});
    await expect(client('client-a').rateLimited(undefined)).resolves.toBe(60);
    await expect(client('client-b').rateLimited(30)).resolves.toBe(30);
    expect((await refusal(client('client-a').admit(FREE))).retryAfterSeconds).toBe(60);
    expect((await quota.usage('ORG-A')).blockedUntil).toEqual(new Date(LATE + 60_000));
  });

  test('usage is of the register’s day and the caller’s organisation, with no blockedUntil when not blocked', async () => {
    const { quota, client } = guard({});
    await client('client-a').admit(FREE);
    await client('client-a2').admit(PAID);
    expect(await quota.usage('ORG-A')).toStrictEqual({ day: '2026-03-10', calls: 2 });
    expect(await quota.usage('ORG-B')).toStrictEqual({ day: '2026-03-10', calls: 0 });
  });

  test('without a clock of its own, the guard counts on today’s London date', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'titlegraph-quota-strength-'));
    const store = new SqliteQuotaStore(dir, msToLondonMidnight);
    cleanups.push(async () => {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const quota = new QuotaGuard(store, { ...DEFAULT_QUOTA_POLICY, clientBurst: 0 });
    const before = londonDate(new Date());
    await quota.forClient({ id: 'client-a', organisation: 'ORG-A' }).admit(FREE);
    const usage = await quota.usage('ORG-A');
    expect([before, londonDate(new Date())]).toContain(usage.day);
    expect(usage.calls).toBe(1);
  });

  test('an attempt the register did not count is given back to the organisation; one it answered stays counted', async () => {
    const { quota, client } = guard({});
    const attempt = (outcome: RegisterCallEvent['outcome'], status: number): RegisterCallEvent => ({
      route: 'titleSummary',
      method: 'GET',
      status,
      outcome,
      durationMs: 1,
      attempt: 1,
      tenant: 'client-a',
    });
    const uncounted = [attempt('not_sent', 0), attempt('circuit_open', 0), attempt('http_error', 401), attempt('http_error', 429)];
    for (const call of uncounted) {
      await client('client-a').admit(FREE);
      client('client-a2').settled(call); // the organisation's count, whichever of its clients
      await vi.waitFor(async () => expect((await quota.usage('ORG-A')).calls).toBe(0));
    }
    const counted = [
      attempt('ok', 200),
      attempt('http_error', 500),
      attempt('timeout', 0),
      attempt('network', 0),
      attempt('contract', 200),
    ];
    for (const call of counted) {
      await client('client-a').admit(FREE);
      client('client-a').settled(call);
    }
    expect((await quota.usage('ORG-A')).calls).toBe(counted.length);
    expect((await quota.usage('ORG-B')).calls).toBe(0);
  });

  test('a ledger that cannot be reached refuses the attempt unsent, as SERVICE_UNAVAILABLE with a short wait; any other failure is its own', async () => {
    const failingWith = (error: Error) =>
      new QuotaGuard({ admit: () => Promise.reject(error) } as unknown as QuotaStore, DEFAULT_QUOTA_POLICY).forClient({
        id: 'client-a',
        organisation: 'ORG-A',
      });
    const unreachable = new DatabaseUnavailableError(new Error('ECONNREFUSED'));
    const refused = await failingWith(unreachable)
      .admit(PAID)
      .catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RegisterError);
    expect(refused).not.toBeInstanceOf(QuotaRefusal);
    expect(refused).toMatchObject({
      status: 0,
      code: 'SERVICE_UNAVAILABLE',
      route: 'titleDetails',
      retryAfterSeconds: 5,
      cause: unreachable,
    });
    const other = new TypeError('a bug');
    await expect(failingWith(other).admit(PAID)).rejects.toBe(other);
  });

  test('before a sign-in: the refusal admission would give the organisation, in its words and wait, counting nothing', async () => {
    const { quota, clock, client } = guard({ dailyQuota: 3, freeShare: 0.34 }); // 1.02 free reads: 1
    const free = { route: 'titleSummary', free: true };
    const paid = { route: 'titleDetails', free: false };
    await expect(client('client-a2').refuseIfHeld(free)).resolves.toBeUndefined();
    await client('client-a').admit(FREE);
    // The free reads' share is used: a free read is refused as admission refuses it; paid work is not.
    const early = await refusal(client('client-a2').refuseIfHeld(free));
    const admitted = await refusal(client('client-a2').admit(FREE));
    expect(early).toMatchObject({ status: 429, code: 'TOO_MANY_REQUESTS', route: 'titleSummary', retryAfterSeconds: 2 });
    expect(early.detail).toBe(admitted.detail);
    await expect(client('client-a2').refuseIfHeld(paid)).resolves.toBeUndefined();
    await client('client-a').admit(PAID);
    await client('client-a').admit(PAID);
    // The day is used: paid work too, with the day's words.
    expect((await refusal(client('client-a2').refuseIfHeld(paid))).detail).toBe((await refusal(client('client-a2').admit(PAID))).detail);
    expect((await quota.usage('ORG-A')).calls).toBe(3);
    // Another organisation is not held by ORG-A's day.
    await expect(client('client-b').refuseIfHeld(paid)).resolves.toBeUndefined();
    // Past London midnight, a new register day: nothing holds ORG-A any more.
    clock.now += 2_000;
    await expect(client('client-a2').refuseIfHeld(free)).resolves.toBeUndefined();
    await expect(client('client-a2').refuseIfHeld(paid)).resolves.toBeUndefined();
  });

  test('before a sign-in: the register’s 429 holds every client of the organisation; a client’s own empty bucket is left to admission', async () => {
    const { clock, client } = guard({ clientBurst: 1, clientPerMinute: 1 });
    await client('client-a').admit(FREE);
    await refusal(client('client-a').admit(FREE)); // its bucket is empty…
    await expect(client('client-a').refuseIfHeld({ route: 'titleSummary', free: true })).resolves.toBeUndefined(); // …which is its own
    await client('client-b').rateLimited(30);
    await expect(client('client-a2').refuseIfHeld({ route: 'titleDetails', free: false })).resolves.toBeUndefined();
    await client('client-a').rateLimited(30);
    const held = await refusal(client('client-a2').refuseIfHeld({ route: 'titleDetails', free: false }));
    expect(held).toMatchObject({ route: 'titleDetails', retryAfterSeconds: 30 });
    expect(held.detail).toMatch(/^The register refused this organisation's calls \(429\)/);
    clock.now += 30_001;
    await expect(client('client-a2').refuseIfHeld({ route: 'titleDetails', free: false })).resolves.toBeUndefined();
  });

  test('before a sign-in: a ledger that cannot answer leaves the word to admission, which refuses unsent', async () => {
    const unreachable = new DatabaseUnavailableError(new Error('ECONNREFUSED'));
    const hooks = new QuotaGuard(
      { usage: () => Promise.reject(unreachable), admit: () => Promise.reject(unreachable) } as unknown as QuotaStore,
      DEFAULT_QUOTA_POLICY,
    ).forClient({ id: 'client-a', organisation: 'ORG-A' });
    await expect(hooks.refuseIfHeld({ route: 'titleDetails', free: false })).resolves.toBeUndefined();
    await expect(hooks.admit(PAID)).rejects.toMatchObject({ code: 'SERVICE_UNAVAILABLE' });
  });

  test('msToLondonMidnight: whole seconds to the next London midnight, in GMT and in BST', () => {
    expect(msToLondonMidnight(LATE)).toBe(2_000);
    expect(msToLondonMidnight(Date.parse('2026-06-10T22:59:59.250Z'))).toBe(1_000);
    expect(msToLondonMidnight(Date.parse('2026-06-10T23:00:00.000Z'))).toBe(86_400_000);
  });
});

describe('over HTTP: which register calls count', () => {
  const service = (options: ServiceOverrides = {}) => serviceForTest({ services: options });
  const calls = async (svc: Service, key = 'dev-key-a') => (await svc.gql(RegisterUsageQuery, {}, key)).data!.registerUsage.calls;
  const title = (svc: Service, titleNumber: string, key = 'dev-key-a') => svc.gql(TitleQuery, { titleNumber }, key);

  test('a call answered 401 is not counted: the retry with a fresh token is, and the count matches the register’s', async () => {
    const svc = await service();
    await title(svc, 'MID15313');
    svc.emulator.faults.inject('titleSummary', { kind: 'status', status: 401 }, 1);
    const answer = await title(svc, 'MID1234');
    expect(answer.data?.title?.titleNumber).toBe('MID1234');
    expect(svc.emulator.calls.count({ route: 'titleSummary' })).toBe(3);
    expect(await calls(svc)).toBe(2);
    expect(svc.emulator.state.quotaUsed('ORG-A')).toBe(2);
  });

  test('a token request refused 401 takes nothing back from the organisation’s count', async () => {
    const svc = await service();
    await title(svc, 'MID15313', 'dev-key-a');
    svc.emulator.faults.inject('token', { kind: 'status', status: 401 }, 5);
    const answer = await title(svc, 'MID1234', 'dev-key-a2'); // client-a2's first call needs its own token
    expect(answer.errors).toBeDefined();
    expect(svc.emulator.calls.count({ route: 'token' })).toBeGreaterThanOrEqual(2);
    expect(await calls(svc)).toBe(1);
  });

  test('a call answered 429 is not counted, and blocks the organisation for its Retry-After', async () => {
    const svc = await service();
    await title(svc, 'MID15313');
    svc.emulator.faults.inject('titleSummary', { kind: 'status', status: 429, retryAfterSeconds: 30 }, 1);
    const answer = await title(svc, 'MID1234');
    expect(answer.errors![0]!.extensions!.code).toBe('RATE_LIMITED');
    const usage = (await svc.gql(RegisterUsageQuery, {})).data!.registerUsage;
    expect(usage.calls).toBe(1);
    const wait = new Date(usage.blockedUntil!).getTime() - svc.services.transport.registerNow().getTime();
    expect(wait).toBeGreaterThan(27_000);
    expect(wait).toBeLessThanOrEqual(31_000);
  });

  test('a 429 without Retry-After blocks the organisation for a minute, and the caller is told that minute', async () => {
    const svc = await service();
    svc.emulator.faults.inject('titleSummary', { kind: 'status', status: 429 }, 1);
    const answer = await title(svc, 'MID1234');
    expect(answer.errors).toEqual([
      expect.objectContaining({
        message: "The register's quota or rate limit was reached; retry after 60 s.",
        extensions: expect.objectContaining({ code: 'RATE_LIMITED', retryAfterSeconds: 60 }),
      }),
    ]);
    const usage = (await svc.gql(RegisterUsageQuery, {})).data!.registerUsage;
    expect(usage.calls).toBe(0);
    const wait = new Date(usage.blockedUntil!).getTime() - svc.services.transport.registerNow().getTime();
    expect(wait).toBeGreaterThan(57_000);
    expect(wait).toBeLessThanOrEqual(61_000);
  });

  test('calls refused by our open breaker are not counted; the failure that opened it is', async () => {
    const svc = await service({
      transport: { breaker: { failureThreshold: 1, openMs: 60_000 }, retry: { baseDelayMs: 1, maxDelayMs: 1 } },
    });
    await title(svc, 'MID15313');
    svc.emulator.faults.inject('titleSummary', { kind: 'status', status: 503 }, 1);
    const failed = await title(svc, 'MID1234');
    expect(failed.errors).toBeDefined();
    const refused = await title(svc, 'GLA5001');
    expect(refused.errors).toBeDefined();
    expect(svc.emulator.calls.count({ route: 'titleSummary' })).toBe(2);
    expect(await calls(svc)).toBe(2);
  });

  test('calls that never reached the register (it is down) are not counted', async () => {
    const svc = await service({ transport: { retry: { baseDelayMs: 1, maxDelayMs: 1 } } });
    const kept = connectionsTo(new URL(svc.emulator.url).port);
    await title(svc, 'MID15313');
    expect(await calls(svc)).toBe(1);
    expect(kept.opened).toBeGreaterThan(0);
    await svc.emulator.close();
    // The client's kept-alive connections have seen the close: the next call finds no one listening.
    await kept.allClosed();
    const answer = await title(svc, 'MID1234');
    expect(answer.errors).toBeDefined();
    expect(await calls(svc)).toBe(1);
  });
});
