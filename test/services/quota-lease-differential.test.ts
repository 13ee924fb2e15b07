/**
 * Leased admission against per-call admission (#49), on random traces of admissions, 429s,
 * replicas dropped with a lease in hand, clock steps across London midnight and limits met
 * early: each trace runs through a per-call guard on one SQLite ledger and through leasing
 * replicas on another. The replicas share the ledger's file but not its store, so no replica
 * hears another's 429 before its own lease ends: the worst case (PostgreSQL with NOTIFY cut).
 *
 * Whatever the trace: the leased count is never below the calls admitted; no call is admitted
 * past the day's limit, nor more free reads than their share; once the day's calls reach the
 * share, each replica admits at most one lease's free reads (a lease taken before another
 * replica's calls got there); after a 429 on one replica, each other replica admits at most one
 * lease's calls, and the one that heard it none. With one replica that never crashes, leasing
 * admits and refuses exactly what per-call admission does.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, expect, test } from 'vitest';
import { londonDate } from '../../src/register/contract/london-day';
import { ROUTES } from '../../src/register/contract/routes';
import { msToLondonMidnight, QuotaGuard, QuotaRefusal, type QuotaPolicy } from '../../src/services/quota';
import { SqliteQuotaStore } from '../../src/storage/quota/sqlite-store';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** 20 s before London midnight (GMT): traces of a few seconds' steps cross it or not. */
const START = Date.parse('2026-03-10T23:59:40.000Z');
const CLIENTS = [
  { id: 'client-a', organisation: 'ORG-A' },
  { id: 'client-a2', organisation: 'ORG-A' },
  { id: 'client-b', organisation: 'ORG-B' },
];
/** No lease expires within a trace: leases end by use, by a 429 heard, by the day, or never (a crash). */
const LONG_LEASE_MS = 600_000;

type Op =
  | { kind: 'admit'; replica: number; client: number; free: boolean }
  | { kind: 'rateLimited'; replica: number; client: number; seconds: number }
  | { kind: 'crash'; replica: number }
  | { kind: 'tick'; ms: number };

const op = (replicas: number): fc.Arbitrary<Op> =>
  fc.oneof(
    {
      weight: 12,
      arbitrary: fc.record({ kind: fc.constant('admit' as const), replica: fc.nat(replicas - 1), client: fc.nat(2), free: fc.boolean() }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('rateLimited' as const),
        replica: fc.nat(replicas - 1),
        client: fc.nat(2),
        seconds: fc.integer({ min: 1, max: 8 }),
      }),
    },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('crash' as const), replica: fc.nat(replicas - 1) }) },
    { weight: 3, arbitrary: fc.record({ kind: fc.constant('tick' as const), ms: fc.integer({ min: 0, max: 6_000 }) }) },
  );

const ledgerDir = () => {
  const dir = mkdtempSync(join(tmpdir(), 'titlegraph-lease-diff-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
};

/** Admitted (undefined) or the refusal's words and wait. */
async function outcome(run: Promise<void>): Promise<string | undefined> {
  try {
    await run;
    return undefined;
  } catch (error) {
    if (!(error instanceof QuotaRefusal)) throw error;
    return `${error.retryAfterSeconds} ${error.detail}`;
  }
}

async function runTrace(policy: QuotaPolicy, replicaCount: number, ops: Op[]) {
  const clock = { now: START };
  const now = () => new Date(clock.now);
  const reference = new SqliteQuotaStore(ledgerDir(), msToLondonMidnight);
  const perCall = new QuotaGuard(reference, { ...policy, leaseMs: 0 }, now);
  const leasedDir = ledgerDir();
  const stores: SqliteQuotaStore[] = [];
  cleanups.push(async () => {
    await reference.close();
    for (const store of stores) await store.close();
  });
  const replica = () => {
    const store = new SqliteQuotaStore(leasedDir, msToLondonMidnight);
    stores.push(store);
    return { store, guard: new QuotaGuard(store, policy, now) };
  };
  const replicas = Array.from({ length: replicaCount }, replica);
  const ledger = stores[0]!;
  const leaseMax = policy.leaseCalls!;
  const freeLimit = Math.floor(policy.dailyQuota * policy.freeShare);

  /** Calls the leased replicas admitted, per organisation and day: what the register would see. */
  const made = new Map<string, number>();
  /** Free reads the leased replicas admitted, per organisation and day. */
  const freeMade = new Map<string, number>();
  /** Per organisation and day, per replica: free reads admitted once the day's calls had reached the share. */
  const lateFree = new Map<string, number[]>();
  /** Per organisation: the 429 in force (until, and who heard it) and what each replica admitted since. */
  const blocks = new Map<string, { until: number; heardBy: number; since: number[] }>();
  let crashed = 0;

  for (const step of ops) {
    if (step.kind === 'tick') {
      clock.now += step.ms;
      continue;
    }
    if (step.kind === 'crash') {
      // Dropped, its lease in hand: nothing is given back, its store is left as a dead process leaves it.
      replicas[step.replica] = replica();
      crashed++;
      for (const block of blocks.values()) block.since[step.replica] = 0;
      continue;
    }
    const client = CLIENTS[step.client]!;
    if (step.kind === 'rateLimited') {
      await perCall.forClient(client).rateLimited(step.seconds);
      await replicas[step.replica]!.guard.forClient(client).rateLimited(step.seconds);
      const until = clock.now + step.seconds * 1000;
      const block = blocks.get(client.organisation);
      if (!block || block.until <= clock.now)
        blocks.set(client.organisation, { until, heardBy: step.replica, since: Array(replicaCount).fill(0) });
      else block.until = Math.max(block.until, until);
      continue;
    }
    const route = step.free ? ROUTES.titleSummary : ROUTES.titleDetails;
    const day = londonDate(now());
    const key = `${client.organisation} ${day}`;
    const expected = await outcome(perCall.forClient(client).admit(route));
    const leased = await outcome(replicas[step.replica]!.guard.forClient(client).admit(route));
    if (leased === undefined) {
      const before = made.get(key) ?? 0;
      // No call past the day's limit.
      expect(before).toBeLessThan(policy.dailyQuota);
      if (step.free) {
        // Never more free reads than their share: a lease of free reads is counted within it.
        const freeBefore = freeMade.get(key) ?? 0;
        expect(freeBefore).toBeLessThan(freeLimit);
        freeMade.set(key, freeBefore + 1);
        // Once the day's calls reach the share, free reads stop, but for the rest of a lease taken
        // before another replica's calls got there: at most one lease's from each replica.
        if (before >= freeLimit) {
          const late = (lateFree.get(key) ?? Array(replicaCount).fill(0)) as number[];
          late[step.replica]!++;
          lateFree.set(key, late);
          expect(late[step.replica]).toBeLessThanOrEqual(leaseMax);
        }
      }
      made.set(key, before + 1);
      const block = blocks.get(client.organisation);
      if (block && block.until > clock.now) {
        block.since[step.replica]!++;
        // After a 429: none from the replica that heard it, at most one lease from each other.
        expect(block.since[block.heardBy]).toBe(0);
        expect(block.since[step.replica]).toBeLessThanOrEqual(leaseMax);
      }
    }
    // The count is never below the calls made.
    expect((await ledger.usage(client.organisation, day, clock.now)).calls).toBeGreaterThanOrEqual(made.get(key) ?? 0);
    if (replicaCount === 1 && crashed === 0) expect(leased).toBe(expected);
  }

  // Every lease in hand given back: what stays counted beyond the calls made is the crashed replicas' unused calls.
  for (const { guard } of replicas) await guard.close();
  for (const client of CLIENTS) {
    for (const [key, calls] of made) {
      const [organisation, day] = key.split(' ') as [string, string];
      if (organisation !== client.organisation) continue;
      const counted = (await ledger.usage(organisation, day, clock.now)).calls;
      expect(counted).toBeGreaterThanOrEqual(calls);
      expect(counted - calls).toBeLessThanOrEqual(crashed * leaseMax);
      if (crashed === 0) expect(counted).toBe(calls);
    }
  }
}

const policy = fc.record({
  // Small days reach their limits within a trace; large ones hold leases of many calls across midnight.
  dailyQuota: fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 40, max: 400 })),
  freeShare: fc.double({ min: 0, max: 1, noNaN: true }),
  clientBurst: fc.constant(0),
  clientPerMinute: fc.constant(120),
  leaseMs: fc.constant(LONG_LEASE_MS),
  leaseCalls: fc.integer({ min: 1, max: 12 }),
});

test('one replica: leasing admits and refuses exactly what per-call admission does, and gives every unused call back', async () => {
  await fc.assert(
    fc.asyncProperty(
      policy,
      fc.array(
        op(1).filter((o) => o.kind !== 'crash'),
        { minLength: 30, maxLength: 80 },
      ),
      async (p, ops) => {
        await runTrace(p, 1, ops);
        for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
      },
    ),
    { numRuns: 100 },
  );
});

test('three replicas, crashes included: the count never below the calls made, no call past a limit, at most one lease each after a 429', async () => {
  await fc.assert(
    fc.asyncProperty(policy, fc.array(op(3), { minLength: 30, maxLength: 100 }), async (p, ops) => {
      await runTrace(p, 3, ops);
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    }),
    { numRuns: 100 },
  );
});
