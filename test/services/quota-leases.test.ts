/**
 * Quota leases (services/quota-leases.ts) against admission call by call: random traces of free
 * reads and paid calls on several replicas of one ledger, the register's 429s, replicas dropped
 * with a lease in hand, the clock moving past leases, blocks and London midnight, and limits in
 * reach, run both ways. Whatever the trace: the ledger's count is never below the calls made, no
 * call is admitted past a limit, and after a 429 another replica sends at most one lease's calls.
 * Away from limits and 429s, leases admit exactly what admission call by call does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { londonDate } from '../../src/register/contract/london-day';
import { ROUTES } from '../../src/register/contract/routes';
import { msToLondonMidnight, QuotaGuard } from '../../src/services/quota';
import type { QuotaPolicy } from '../../src/services/settings';
import { SqliteQuotaStore } from '../../src/storage/quota/sqlite-store';
import { quotaLedgerForTest } from '../support/quota-ledger';

type Op =
  | { kind: 'call'; replica: number; client: number; free: boolean }
  | { kind: '429'; replica: number }
  | { kind: 'advance'; ms: number }
  | { kind: 'drop'; replica: number };

const REPLICAS = 3;
const ORG = 'ORG-A';
const clientOf = (n: number) => `client-${n}`;

const op: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 12,
    arbitrary: fc.record({ kind: fc.constant('call' as const), replica: fc.nat(REPLICAS - 1), client: fc.nat(1), free: fc.boolean() }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('429' as const), replica: fc.nat(REPLICAS - 1) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('advance' as const),
      // Mostly within a lease's life; now and then past a block's, or to the next day.
      ms: fc.oneof(
        { weight: 6, arbitrary: fc.integer({ min: 1, max: 150 }) },
        { weight: 1, arbitrary: fc.integer({ min: 1, max: 3_600_000 }) },
      ),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('drop' as const), replica: fc.nat(REPLICAS - 1) }) },
);

interface Outcome {
  /** Calls admitted (and so made), per register day. */
  made: Map<string, number>;
  madeFree: Map<string, number>;
  /** The ledger's count per register day, after each step. */
  counted: (day: string) => Promise<number>;
  /** The most calls a replica admitted while another replica's 429 held. */
  mostAfterBlockElsewhere: number;
  admitted: number;
}

/** Runs a trace through replicas of one SQLite ledger, each with its own connection (a dropped one is closed, never given back). */
async function run(ops: readonly Op[], policy: QuotaPolicy): Promise<Outcome> {
  const dir = mkdtempSync(join(tmpdir(), 'titlegraph-leases-'));
  const opened: SqliteQuotaStore[] = [];
  const open = () => {
    const store = new SqliteQuotaStore(dir, msToLondonMidnight);
    opened.push(store);
    return store;
  };
  // Mid-morning: a trace reaches the next day only through its long steps.
  let now = Date.parse('2026-03-10T10:00:00Z');
  const clock = () => new Date(now);
  const replicas = Array.from({ length: REPLICAS }, () => new QuotaGuard(open(), policy, clock));
  const ledger = open();
  const outcome: Outcome = {
    made: new Map(),
    madeFree: new Map(),
    counted: async (day) => (await ledger.usage(ORG, day, now)).calls,
    mostAfterBlockElsewhere: 0,
    admitted: 0,
  };
  let block: { by: number; until: number; after: number[] } | undefined;
  try {
    for (const step of ops) {
      if (step.kind === 'advance') now += step.ms;
      else if (step.kind === 'drop') {
        // Its connection goes with it: the leases it held are never given back.
        const dropped = opened[step.replica]!;
        await dropped.close();
        const store = open();
        opened[step.replica] = store;
        replicas[step.replica] = new QuotaGuard(store, policy, clock);
      } else if (step.kind === '429') {
        await replicas[step.replica]!.forClient({ id: clientOf(0), organisation: ORG }).rateLimited(1);
        block = { by: step.replica, until: now + 1_000, after: Array(REPLICAS).fill(0) };
      } else {
        const route = step.free ? ROUTES.titleSummary : ROUTES.titleDetails;
        const admitted = await replicas[step.replica]!.forClient({ id: clientOf(step.client), organisation: ORG })
          .admit(route)
          .then(
            () => true,
            () => false,
          );
        if (!admitted) continue;
        const day = londonDate(new Date(now));
        outcome.admitted++;
        outcome.made.set(day, (outcome.made.get(day) ?? 0) + 1);
        if (step.free) outcome.madeFree.set(day, (outcome.madeFree.get(day) ?? 0) + 1);
        if (block && now < block.until && step.replica !== block.by) {
          block.after[step.replica]!++;
          outcome.mostAfterBlockElsewhere = Math.max(outcome.mostAfterBlockElsewhere, block.after[step.replica]!);
        }
      }
      for (const [day, made] of outcome.made) {
        expect(await outcome.counted(day)).toBeGreaterThanOrEqual(made);
        expect(made).toBeLessThanOrEqual(policy.dailyQuota);
        expect(outcome.madeFree.get(day) ?? 0).toBeLessThanOrEqual(Math.floor(policy.dailyQuota * policy.freeShare));
      }
    }
    return outcome;
  } finally {
    for (const replica of replicas) await replica.close().catch(() => undefined);
    for (const store of opened) await store.close().catch(() => undefined);
    await ledger.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const policy = (more: Partial<QuotaPolicy> = {}): QuotaPolicy => ({
  dailyQuota: 24,
  freeShare: 0.5,
  clientBurst: 20,
  clientPerMinute: 600,
  leaseMs: 250,
  leaseCalls: 4,
  ...more,
});

describe('leases against admission call by call, on random traces', () => {
  test('the count is never below the calls made, no call passes a limit, and after a 429 elsewhere at most one lease goes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 40, maxLength: 150 }), async (ops) => {
        const leased = await run(ops, policy());
        expect(leased.mostAfterBlockElsewhere).toBeLessThanOrEqual(4);
        const perCall = await run(ops, policy({ leaseMs: 0 }));
        expect(perCall.mostAfterBlockElsewhere).toBe(0);
      }),
      { numRuns: 60 },
    );
  }, 120_000);

  test('adaptive leases (QUOTA_LEASE_CALLS unset) hold the same promises', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 40, maxLength: 150 }), async (ops) => {
        const leased = await run(ops, policy({ leaseCalls: undefined }));
        expect(leased.mostAfterBlockElsewhere).toBeLessThanOrEqual(50);
      }),
      { numRuns: 30 },
    );
  }, 120_000);

  test('away from limits and 429s, leases admit exactly what admission call by call does', async () => {
    const calm = op.filter((o) => o.kind !== '429');
    await fc.assert(
      fc.asyncProperty(fc.array(calm, { minLength: 40, maxLength: 150 }), async (ops) => {
        const roomy = { dailyQuota: 100_000, clientBurst: 0 };
        const leased = await run(ops, policy({ ...roomy, leaseCalls: undefined }));
        const perCall = await run(ops, policy({ ...roomy, leaseMs: 0 }));
        expect(leased.admitted).toBe(perCall.admitted);
      }),
      { numRuns: 30 },
    );
  }, 120_000);
});

describe('one lease at a time', () => {
  test('as a limit nears, leases shrink to a quarter of what is left, then to one call: the last calls go one at a time', async () => {
    const store = quotaLedgerForTest();
    const now = Date.parse('2026-03-10T10:00:00Z');
    const guard = new QuotaGuard(store, policy({ dailyQuota: 40, freeShare: 0.5, leaseCalls: 50, clientBurst: 0 }), () => new Date(now));
    const hooks = guard.forClient({ id: 'client-a', organisation: ORG });
    const counts: number[] = [];
    let refused = 0;
    for (let i = 0; i < 25; i++) {
      await hooks.admit(ROUTES.titleSummary).catch(() => refused++);
      counts.push((await store.usage(ORG, '2026-03-10', now)).calls);
    }
    // Free reads' share: 20. Leases of 5 (20/4), then 3, 3, 2, 1, 1, 1, 1, 1, 1, 1: never past 20, and exactly 20 made.
    expect(counts.slice(0, 20)).toEqual([5, 5, 5, 5, 5, 8, 8, 8, 11, 11, 11, 13, 13, 14, 15, 16, 17, 18, 19, 20]);
    expect(refused).toBe(5);
    expect(counts.at(-1)).toBe(20);
    await guard.close();
  });

  test('a lease belongs to one day: the first call after London midnight takes a new one, and the old day keeps only its calls made', async () => {
    const store = quotaLedgerForTest();
    let now = Date.parse('2026-03-10T23:59:59.900Z');
    const guard = new QuotaGuard(
      store,
      policy({ dailyQuota: 2_000, freeShare: 0.9, leaseCalls: 10, leaseMs: 10_000 }),
      () => new Date(now),
    );
    const hooks = guard.forClient({ id: 'client-a', organisation: ORG });
    await hooks.admit(ROUTES.titleSummary);
    expect((await store.usage(ORG, '2026-03-10', now)).calls).toBe(10); // counted ahead, in full
    now += 200; // 00:00:00.100 on the 11th
    await hooks.admit(ROUTES.titleSummary);
    expect((await store.usage(ORG, '2026-03-11', now)).calls).toBe(10);
    await new Promise((resolve) => setTimeout(resolve, 20)); // the old lease's give-back
    expect((await store.usage(ORG, '2026-03-10', now)).calls).toBe(1);
    await guard.close();
    expect((await store.usage(ORG, '2026-03-11', now)).calls).toBe(1);
  });
});
