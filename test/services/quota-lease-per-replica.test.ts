/**
 * "At most one lease per replica" (#49) when an organisation has several API clients on one
 * replica: the replica's leases of that organisation hold one lease's calls between them, so
 * after a 429 heard elsewhere (here: not heard at all before the leases end, as on PostgreSQL
 * with NOTIFY cut) it sends at most one lease's calls, and a replica dropped with its leases in
 * hand leaves at most one lease's calls counted but unmade.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { londonDate } from '../../src/register/contract/london-day';
import { ROUTES } from '../../src/register/contract/routes';
import { DEFAULT_QUOTA_POLICY, msToLondonMidnight, QuotaGuard, QuotaRefusal } from '../../src/services/quota';
import { SqliteQuotaStore } from '../../src/storage/quota/sqlite-store';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const LEASE_CALLS = 5;
const CLIENTS = ['client-a', 'client-a2', 'client-a3'];

/** Replicas on one SQLite file, each with its own store: none hears another's 429 before its leases end. */
function replicas() {
  const dir = mkdtempSync(join(tmpdir(), 'titlegraph-lease-per-replica-'));
  const stores: SqliteQuotaStore[] = [];
  cleanups.push(async () => {
    for (const store of stores) await store.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const replica = () => {
    const store = new SqliteQuotaStore(dir, msToLondonMidnight);
    stores.push(store);
    const policy = { ...DEFAULT_QUOTA_POLICY, clientBurst: 0, leaseMs: 600_000, leaseCalls: LEASE_CALLS };
    return { guard: new QuotaGuard(store, policy) };
  };
  const ledger = () => stores[0]!.usage('ORG-A', londonDate(new Date()), Date.now());
  return { replica, ledger };
}

const read = (guard: QuotaGuard, id: string) => guard.forClient({ id, organisation: 'ORG-A' }).admit(ROUTES.titleSummary);

test('after a 429 elsewhere, a replica with several clients of the organisation sends at most one lease’s calls', async () => {
  const { replica } = replicas();
  const a = replica();
  const b = replica();
  for (const id of CLIENTS) await read(b.guard, id);
  await a.guard.forClient({ id: 'client-a', organisation: 'ORG-A' }).rateLimited(30);
  let sent = 0;
  for (const id of CLIENTS) {
    for (;;) {
      const refused = await read(b.guard, id).then(
        () => false,
        (error: unknown) => error instanceof QuotaRefusal,
      );
      if (refused) break;
      sent++;
    }
  }
  expect(sent).toBeLessThanOrEqual(LEASE_CALLS);
});

test('a replica dropped with its leases in hand leaves at most one lease’s calls counted but unmade', async () => {
  const { replica, ledger } = replicas();
  const dropped = replica();
  for (const id of CLIENTS) await read(dropped.guard, id);
  const made = CLIENTS.length;
  const counted = (await ledger()).calls;
  expect(counted).toBeGreaterThanOrEqual(made);
  expect(counted - made).toBeLessThanOrEqual(LEASE_CALLS);
});
