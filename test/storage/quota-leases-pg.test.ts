/**
 * Two replicas on one PostgreSQL ledger, each with a lease of free reads in hand: the register's
 * 429 heard by one stops the other before its lease ends (NOTIFY); with the notice cut, at the
 * lease's end, and never more than its lease in between. A purchase that finds the day's calls at
 * the free reads' share recalls the other's lease the same way. A dropped replica's lease stays counted.
 */
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { ROUTES } from '../../src/register/contract/routes';
import { msToLondonMidnight, QuotaGuard } from '../../src/services/quota';
import type { QuotaPolicy } from '../../src/services/settings';
import { londonDate } from '../../src/register/contract/london-day';
import { PgQuotaStore } from '../../src/storage/quota/pg-store';
import { createTestDatabase, postgresSuite, type TestDatabase } from '../support/pg';

const pgSuite = await postgresSuite();
const ORG = 'ORG-A';

describe.skipIf(!pgSuite.run)(pgSuite.title('quota leases on PostgreSQL, two replicas'), () => {
  let database: TestDatabase;
  const stores: PgQuotaStore[] = [];
  beforeAll(async () => {
    database = await createTestDatabase('quota_leases');
  }, 60_000);
  afterAll(async () => {
    for (const store of stores) await store.close().catch(() => undefined);
    await database?.drop();
  });

  const replica = async (leaseMs: number, notices = true, organisation = ORG) => {
    const store = new PgQuotaStore({ connectionString: database.url, msToMidnight: msToLondonMidnight, notices });
    stores.push(store);
    await store.ready();
    const policy: QuotaPolicy = { dailyQuota: 2_000, freeShare: 0.9, clientBurst: 0, clientPerMinute: 120, leaseMs, leaseCalls: 20 };
    const guard = new QuotaGuard(store, policy);
    return { store, guard, hooks: guard.forClient({ id: `client-${stores.length}`, organisation }) };
  };
  const admits = (hooks: Awaited<ReturnType<typeof replica>>['hooks']) =>
    hooks.admit(ROUTES.titleSummary).then(
      () => true,
      () => false,
    );
  const counted = async (store: PgQuotaStore, organisation = ORG) =>
    (await store.usage(organisation, londonDate(new Date()), Date.now())).calls;

  test('a 429 on one replica ends the other’s lease through NOTIFY, long before the lease would end', async () => {
    const a = await replica(60_000);
    const b = await replica(60_000);
    expect(await admits(b.hooks)).toBe(true); // b holds a lease of 20, one used
    await new Promise((resolve) => setTimeout(resolve, 200)); // its LISTEN is in place
    const before = await counted(a.store);
    await a.guard.forClient({ id: 'client-1', organisation: ORG }).rateLimited(30);
    await vi.waitFor(async () => expect(await counted(a.store)).toBe(before - 19), { timeout: 3_000, interval: 20 }); // b gave back its unused 19
    expect(await admits(b.hooks)).toBe(false);
    await a.guard.close();
    await b.guard.close();
  });

  test('with the notice cut, the other replica goes on at most to its lease’s end, then stops', async () => {
    const database2 = await createTestDatabase('quota_leases_cut');
    try {
      const make = async (notices: boolean) => {
        const store = new PgQuotaStore({ connectionString: database2.url, msToMidnight: msToLondonMidnight, notices });
        stores.push(store);
        await store.ready();
        const guard = new QuotaGuard(store, {
          dailyQuota: 2_000,
          freeShare: 0.9,
          clientBurst: 0,
          clientPerMinute: 120,
          leaseMs: 1_000,
          leaseCalls: 20,
        });
        return { store, guard, hooks: guard.forClient({ id: `cut-${stores.length}`, organisation: ORG }) };
      };
      const a = await make(true);
      const b = await make(false);
      expect(await admits(b.hooks)).toBe(true);
      await a.guard.forClient({ id: 'cut-a', organisation: ORG }).rateLimited(30);
      let afterBlock = 0;
      while (await admits(b.hooks)) afterBlock++;
      // At most the rest of the one lease it held; then refused, at the latest when the lease ended.
      expect(afterBlock).toBeLessThanOrEqual(19);
      expect(afterBlock).toBeGreaterThan(0);
      await a.guard.close();
      await b.guard.close();
    } finally {
      await database2.drop();
    }
  });

  test('a purchase that brings the day’s calls to the free reads’ share recalls the other replica’s lease through NOTIFY', async () => {
    // A share of 20 calls: a first lease of free reads gets a quarter of it, 5.
    const policy: QuotaPolicy = { dailyQuota: 40, freeShare: 0.5, clientBurst: 0, clientPerMinute: 120, leaseMs: 60_000, leaseCalls: 20 };
    const make = async (organisation: string, notices: boolean) => {
      const store = new PgQuotaStore({ connectionString: database.url, msToMidnight: msToLondonMidnight, notices });
      stores.push(store);
      await store.ready();
      const guard = new QuotaGuard(store, policy);
      return { store, guard, hooks: guard.forClient({ id: `share-${stores.length}`, organisation }) };
    };
    const purchasesToShare = async (buyer: Awaited<ReturnType<typeof make>>, organisation: string) => {
      while ((await counted(buyer.store, organisation)) < 20) await buyer.hooks.admit(ROUTES.titleDetails);
    };
    for (const [organisation, notices] of [
      ['ORG-SHARE', true],
      ['ORG-SHARE-CUT', false],
    ] as const) {
      const reader = await make(organisation, notices);
      const buyer = await make(organisation, true);
      expect(await admits(reader.hooks)).toBe(true); // a lease of 5 free reads, one used
      expect(await counted(buyer.store, organisation)).toBe(5);
      await new Promise((resolve) => setTimeout(resolve, 200)); // its LISTEN is in place
      await purchasesToShare(buyer, organisation); // 15 purchases: 20 calls counted, 4 of them unused in the lease
      if (notices) {
        // The reader gave back its 4 unused calls long before its lease's minute: the share's
        // last calls are there for whoever asks first, one at a time, as without leases.
        await vi.waitFor(async () => expect(await counted(buyer.store, organisation)).toBe(16), { timeout: 3_000, interval: 20 });
      } else {
        // Without the notice the lease stays out, its unused calls counted, and it still admits
        // free reads with the day's calls at the share: what the notice is for.
        await new Promise((resolve) => setTimeout(resolve, 500));
        expect(await counted(buyer.store, organisation)).toBe(20);
        for (let i = 0; i < 4; i++) expect(await admits(reader.hooks)).toBe(true);
      }
      await reader.guard.close();
      await buyer.guard.close();
    }
  });

  test('a replica dropped with a lease in hand leaves it counted: above the calls made, never below', async () => {
    const c = await replica(60_000, true, 'ORG-C');
    const before = await counted(c.store, 'ORG-C');
    expect(await admits(c.hooks)).toBe(true);
    await c.store.close(); // gone, without giving anything back
    const survivor = await replica(60_000, true, 'ORG-C');
    expect(await counted(survivor.store, 'ORG-C')).toBe(before + 20);
    await survivor.guard.close();
  });
});
