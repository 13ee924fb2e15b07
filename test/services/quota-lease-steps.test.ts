/**
 * The lease's steps one at a time, on the SQLite ledger with a clock the test moves: the look
 * before a sign-in answers from the lease in hand, a call never sent goes back to its lease, a
 * lease's size doubles with what the last one used (up to its bound), a lease ends exactly at its
 * end, and a 429 ends one organisation's leases, not another's.
 */
import { expect, test, vi } from 'vitest';
import { ROUTES } from '../../src/register/contract/routes';
import { QuotaGuard } from '../../src/services/quota';
import { MAX_ADAPTIVE_LEASE_CALLS, QuotaLeases } from '../../src/services/quota-leases';
import { DEFAULT_QUOTA_POLICY } from '../../src/services/settings';
import type { SqliteQuotaStore } from '../../src/storage/quota/sqlite-store';
import type { AdmitRequest } from '../../src/storage/quota/store';
import { quotaLedgerForTest } from '../support/quota-ledger';

const DAY = '2026-03-10';
const START = Date.parse('2026-03-10T10:00:00Z');

const ledger = quotaLedgerForTest;

const request = (now: number, organisation = 'ORG-A', client = 'client-a'): AdmitRequest => ({
  organisation,
  client,
  day: DAY,
  now,
  free: true,
  freeLimit: 10_000,
  dailyLimit: 10_000,
  burst: 0,
  perMs: 0,
});
const counted = async (store: SqliteQuotaStore, organisation = 'ORG-A') => (await store.usage(organisation, DAY, START)).calls;
const settle = () => new Promise((resolve) => setImmediate(resolve));

test('the look before a sign-in is the lease’s: yes while it has calls and time, no before it, after its last call and at its end', async () => {
  const store = ledger();
  const leases = new QuotaLeases(store, { leaseMs: 1_000, leaseCalls: 3 });
  expect(leases.admits('ORG-A', 'client-a', START)).toBe(false);
  expect(await leases.admit(request(START))).toBeUndefined();
  expect(leases.admits('ORG-A', 'client-a', START)).toBe(true);
  expect(leases.admits('ORG-A', 'client-b', START)).toBe(false);
  expect(leases.admits('ORG-A', 'client-a', START + 999)).toBe(true);
  expect(leases.admits('ORG-A', 'client-a', START + 1_000)).toBe(false); // ends exactly at its end
  await settle();
  expect(await counted(store)).toBe(1); // its two unused calls given back

  await leases.admit(request(START + 2_000));
  await leases.admit(request(START + 2_000));
  await leases.admit(request(START + 2_000));
  expect(leases.admits('ORG-A', 'client-a', START + 2_000)).toBe(false); // all three used
  await leases.close();
});

test('what a replica holds unused: calls left in its leases of that organisation, none once they are used', async () => {
  const store = ledger();
  const leases = new QuotaLeases(store, { leaseMs: 1_000, leaseCalls: 3 });
  expect(leases.holds('ORG-A')).toBe(false);
  await leases.admit(request(START)); // a lease of three, one used
  expect(leases.holds('ORG-A')).toBe(true);
  expect(leases.holds('ORG-B')).toBe(false);
  await leases.admit(request(START));
  expect(leases.holds('ORG-A')).toBe(true);
  await leases.admit(request(START)); // its last call: the lease ends
  expect(leases.holds('ORG-A')).toBe(false);
  await leases.close();
});

test('a call never sent goes back to its lease, and from there to the ledger when the lease ends; without a lease, nothing to take back', async () => {
  const store = ledger();
  const leases = new QuotaLeases(store, { leaseMs: 1_000, leaseCalls: 4 });
  expect(leases.giveBack('ORG-A', 'client-a', START)).toBe(false);
  await leases.admit(request(START));
  await leases.admit(request(START));
  expect(await counted(store)).toBe(4);
  expect(leases.giveBack('ORG-A', 'client-a', START)).toBe(true);
  expect(leases.giveBack('ORG-A', 'client-a', START)).toBe(true);
  expect(leases.giveBack('ORG-A', 'client-a', START)).toBe(false); // none used any more
  await leases.admit(request(START));
  await leases.close();
  expect(await counted(store)).toBe(1);
});

test('adaptive: each lease asks twice what the last one used, from one call up to the bound', async () => {
  const store = ledger();
  const leases = new QuotaLeases(store, { leaseMs: 10_000 });
  const sizes: number[] = [];
  let before = 0;
  for (let lease = 0; lease < 8; lease++) {
    const now = START + lease * 20_000;
    await leases.admit(request(now));
    const after = await counted(store);
    sizes.push(after - before);
    // use it all: the next lease asks twice as many
    while (leases.admits('ORG-A', 'client-a', now)) await leases.admit(request(now));
    await settle();
    before = await counted(store);
  }
  expect(sizes).toEqual([1, 2, 4, 8, 16, 32, MAX_ADAPTIVE_LEASE_CALLS, MAX_ADAPTIVE_LEASE_CALLS]);
  await leases.close();
});

test('a 429 ends the leases of that organisation only; every lease ends at shutdown, its unused calls given back', async () => {
  const store = ledger();
  const leases = new QuotaLeases(store, { leaseMs: 10_000, leaseCalls: 5 });
  await leases.admit(request(START, 'ORG-A'));
  await leases.admit(request(START, 'ORG-B', 'client-b'));
  await leases.endAll('ORG-A');
  expect(await counted(store, 'ORG-A')).toBe(1);
  expect(await counted(store, 'ORG-B')).toBe(5);
  expect(leases.admits('ORG-B', 'client-b', START)).toBe(true);
  await leases.close();
  expect(await counted(store, 'ORG-B')).toBe(1);
});

test('a replica holds one lease’s calls of an organisation between its clients: another client’s lease takes only what is left', async () => {
  const store = ledger();
  const leases = new QuotaLeases(store, { leaseMs: 10_000, leaseCalls: 5 });
  await leases.admit(request(START, 'ORG-A', 'client-a')); // 5 counted, 4 unused
  await leases.admit(request(START, 'ORG-A', 'client-b')); // 1 more: 5 - 4
  await leases.admit(request(START, 'ORG-A', 'client-c')); // 1 more
  expect(await counted(store)).toBe(7);
  expect(leases.admits('ORG-A', 'client-a', START)).toBe(true);
  expect(leases.admits('ORG-A', 'client-b', START)).toBe(false);
  await leases.admit(request(START, 'ORG-B', 'client-z')); // another organisation's bound is its own
  expect(await counted(store, 'ORG-B')).toBe(5);
  await leases.close();
  expect(await counted(store)).toBe(3);
});

test('callers that need a lease at once wait for one take; two clients taking at once share the bound', async () => {
  const store = ledger();
  let takes = 0;
  const admit = store.admit.bind(store);
  store.admit = (r: AdmitRequest) => {
    takes++;
    return admit(r);
  };
  const leases = new QuotaLeases(store, { leaseMs: 10_000, leaseCalls: 5 });
  expect(await Promise.all([1, 2, 3].map(() => leases.admit(request(START))))).toEqual([undefined, undefined, undefined]);
  expect(takes).toBe(1);
  expect(await counted(store)).toBe(5);
  await leases.close();

  const both = new QuotaLeases(store, { leaseMs: 10_000, leaseCalls: 5 });
  const before = await counted(store);
  await Promise.all([both.admit(request(START, 'ORG-A', 'client-x')), both.admit(request(START, 'ORG-A', 'client-y'))]);
  // The first take's 5 are in flight when the second asks: it takes 1, not another 5.
  expect((await counted(store)) - before).toBe(6);
  await both.close();
  expect((await counted(store)) - before).toBe(2);
});

test('a lease no call comes back to is given back by itself at its end', async () => {
  const store = ledger();
  const leases = new QuotaLeases(store, { leaseMs: 30, leaseCalls: 4 });
  await leases.admit(request(Date.now()));
  expect(await counted(store)).toBe(4);
  await vi.waitFor(async () => expect(await counted(store)).toBe(1), { timeout: 5_000, interval: 10 });
  await leases.close();
});

test('a paid route is never leased: QuotaGuard admits it call by call', () => {
  expect(ROUTES.titleDetails.effect).toBe('charges');
  expect(ROUTES.titleSummary.effect).toBe('none');
});

test('admitted at once: a free read with calls left in its client’s lease; never a paid call, nor a free read without a lease (admit takes one)', async () => {
  const store = ledger();
  const now = () => new Date(START);
  const guard = new QuotaGuard(store, { ...DEFAULT_QUOTA_POLICY, clientBurst: 0, leaseMs: 1_000, leaseCalls: 2 }, now);
  const hooks = guard.forClient({ id: 'client-a', organisation: 'ORG-A' });
  const other = guard.forClient({ id: 'client-b', organisation: 'ORG-A' });
  expect(hooks.admitNow!(ROUTES.titleSummary)).toBe(false); // no lease yet: nothing taken
  expect(await counted(store)).toBe(0);
  await hooks.admit(ROUTES.titleSummary); // takes a lease of two, uses one
  expect(await counted(store)).toBe(2);
  expect(hooks.admitNow!(ROUTES.titleDetails)).toBe(false);
  expect(other.admitNow!(ROUTES.titleSummary)).toBe(false); // another client's lease is its own
  expect(hooks.admitNow!(ROUTES.titleSummary)).toBe(true); // the lease's second call
  expect(hooks.admitNow!(ROUTES.titleSummary)).toBe(false); // used up
  await guard.close();
  expect(await counted(store)).toBe(2); // both calls of the lease made, none given back
});
