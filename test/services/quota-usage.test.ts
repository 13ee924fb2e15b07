import { describe, expect, test } from 'vitest';
import { londonDate } from '../../src/register/contract/london-day';
import { RegisterUsageQuery, TitleQuery } from '../support/documents';
import { serviceForTest } from '../support/harness';

describe('register quota guard', () => {
  test('counts register calls per tenant and register day, for free', async () => {
    const svc = await serviceForTest();
    await svc.gql(TitleQuery, { titleNumber: 'MID15313' });
    await svc.gql(TitleQuery, { titleNumber: 'MID1234' });
    await svc.gql(TitleQuery, { titleNumber: 'MID1234' }, 'dev-key-b');
    const a = await svc.gql(RegisterUsageQuery, {});
    expect(a.data!.registerUsage).toEqual({ day: londonDate(new Date()), calls: 2, blockedUntil: null });
    const b = await svc.gql(RegisterUsageQuery, {}, 'dev-key-b');
    expect(b.data!.registerUsage.calls).toBe(1);
    expect(svc.emulator.calls.count({ route: 'titleSummary' })).toBe(3); // the usage query itself made none
  });

  test('after the register says 429, calls fail fast with RATE_LIMITED until its Retry-After', async () => {
    const svc = await serviceForTest({ emulator: { dailyQuota: 2 } });
    await svc.gql(TitleQuery, { titleNumber: 'MID15313' });
    await svc.gql(TitleQuery, { titleNumber: 'MID1234' });
    const limited = await svc.gql(TitleQuery, { titleNumber: 'GLA5001' });
    expect(limited.errors![0]!.extensions).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: expect.any(Number) });
    const before = svc.emulator.calls.count({ route: 'titleSummary' });
    const fast = await svc.gql(TitleQuery, { titleNumber: 'EDN42' });
    expect(fast.errors![0]!.extensions!.code).toBe('RATE_LIMITED');
    expect(svc.emulator.calls.count({ route: 'titleSummary' })).toBe(before); // refused here
    const usage = await svc.gql(RegisterUsageQuery, {});
    expect(new Date(usage.data!.registerUsage.blockedUntil!).getTime()).toBeGreaterThan(Date.now());
    // Another tenant is not blocked by this one's 429 (the register may still refuse it).
    await svc.gql(TitleQuery, { titleNumber: 'MID1234' }, 'dev-key-b');
    expect(svc.emulator.calls.count({ route: 'titleSummary', clientId: 'client-b' })).toBe(1);
  });
});
