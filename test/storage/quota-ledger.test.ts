/**
 * The SQLite quota ledger at its edges: a register block ends at the very instant it names, and
 * an admission that fails half-way leaves the ledger as it was and usable, and admissions asked
 * for in one turn of the event loop (committed together) are each decided as if alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { SqliteQuotaStore } from '../../src/storage/quota/sqlite-store';
import { admitRequest as request } from '../support/admit-request';

const dirs: string[] = [];
const stores: SqliteQuotaStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function ledger(msToMidnight: (now: number) => number = () => 3_600_000) {
  const dir = mkdtempSync(join(tmpdir(), 'titlegraph-quota-ledger-'));
  dirs.push(dir);
  const store = new SqliteQuotaStore(dir, msToMidnight);
  stores.push(store);
  return store;
}

test('a block holds until the instant it names, not at it: admitted then, and usage no longer reports it', async () => {
  const store = ledger();
  await store.block('ORG-A', 1_030_000);
  expect(await store.admit(request({ now: 1_029_999 }))).toEqual({ admitted: false, reason: 'blocked', retryAfterMs: 1 });
  expect(await store.usage('ORG-A', '2026-03-10', 1_029_999)).toEqual({ calls: 0, blockedUntil: 1_030_000 });
  expect(await store.usage('ORG-A', '2026-03-10', 1_030_000)).toStrictEqual({ calls: 0 });
  expect(await store.admit(request({ now: 1_030_000 }))).toEqual({ admitted: true, calls: 1 });
});

test('an admission that fails half-way counts nothing, and the ledger goes on admitting', async () => {
  let fail = true;
  const store = ledger(() => {
    if (fail) throw new Error('clock unavailable');
    return 3_600_000;
  });
  await expect(store.admit(request({ burst: 5, perMs: 0.001 }))).rejects.toThrow('clock unavailable');
  fail = false;
  expect(await store.usage('ORG-A', '2026-03-10', 1_000_000)).toEqual({ calls: 0 });
  expect(await store.admit(request({ burst: 5, perMs: 0.001 }))).toEqual({ admitted: true, calls: 1 });
});

test('admissions asked for together: one whose decision fails is refused alone; the others are admitted and counted in order', async () => {
  const store = ledger((now) => {
    if (now === 2_000_000) throw new Error('clock unavailable');
    return 3_600_000;
  });
  const answers = await Promise.allSettled([
    store.admit(request()),
    store.admit(request({ now: 2_000_000 })),
    store.admit(request({ client: 'client-a2' })),
  ]);
  expect(answers).toEqual([
    { status: 'fulfilled', value: { admitted: true, calls: 1 } },
    { status: 'rejected', reason: new Error('clock unavailable') },
    { status: 'fulfilled', value: { admitted: true, calls: 2 } },
  ]);
  expect(await store.usage('ORG-A', '2026-03-10', 1_000_000)).toEqual({ calls: 2 });
});

test('admissions asked for together: a write that fails undoes them all, and the ledger goes on admitting', async () => {
  const store = ledger();
  await store.admit(request({ burst: 5, perMs: 0.001 }));
  // A refill rate that is not a number leaves the bucket's tokens NaN, which its NOT NULL column
  // refuses: the write fails after the first admission of the group was counted.
  const answers = await Promise.allSettled([
    store.admit(request({ burst: 5, perMs: 0.001 })),
    store.admit(request({ burst: 5, perMs: Number.NaN, client: 'client-a2' })),
  ]);
  expect(answers.map((a) => a.status)).toEqual(['rejected', 'rejected']);
  expect(await store.usage('ORG-A', '2026-03-10', 1_000_000)).toEqual({ calls: 1 });
  expect(await store.admit(request({ burst: 5, perMs: 0.001 }))).toEqual({ admitted: true, calls: 2 });
});

test('admissions asked for together decide and count exactly as the same admissions one at a time', async () => {
  // A group that crosses every rule: two clients of one organisation sharing its day, a bucket
  // that empties and refills inside the group, the free reads' share and then the day's limit
  // reached part-way, another organisation and another day, and a client with no bucket.
  const bucket = { burst: 3, perMs: 0.001, freeLimit: 6, dailyLimit: 8 };
  const asked = [
    ...Array.from({ length: 4 }, (_, i) => request({ ...bucket, now: 1_000_000 + i })),
    request({ ...bucket, client: 'client-a2' }),
    request({ ...bucket, now: 1_002_000 }),
    request({ ...bucket, client: 'client-a2', free: false }),
    request({ ...bucket, client: 'client-a2', free: true, now: 1_000_010 }),
    request({ ...bucket, client: 'client-a3', free: false, burst: 0 }),
    request({ ...bucket, client: 'client-a3', free: false, burst: 0 }),
    request({ ...bucket, client: 'client-a3', free: false, burst: 0 }),
    request({ ...bucket, organisation: 'ORG-B', client: 'client-b' }),
    request({ ...bucket, day: '2026-03-11', now: 90_000_000 }),
  ];
  const together = ledger();
  const alone = ledger();
  const answersTogether = await Promise.all(asked.map((r) => together.admit(r)));
  const answersAlone: unknown[] = [];
  for (const r of asked) answersAlone.push(await alone.admit(r));
  expect(answersTogether).toEqual(answersAlone);
  expect(answersTogether.map((a) => (a.admitted ? 'admitted' : a.reason))).toEqual([
    'admitted',
    'admitted',
    'admitted',
    'budget',
    'admitted',
    'admitted',
    'admitted',
    'reserve',
    'admitted',
    'admitted',
    'daily',
    'admitted',
    'admitted',
  ]);
  // What each left behind is the same too: the next admission of every client sees one ledger.
  for (const [organisation, day] of [
    ['ORG-A', '2026-03-10'],
    ['ORG-B', '2026-03-10'],
    ['ORG-A', '2026-03-11'],
  ] as const) {
    expect(await together.usage(organisation, day, 1_000_000)).toEqual(await alone.usage(organisation, day, 1_000_000));
  }
  for (const client of ['client-a', 'client-a2']) {
    const next = request({ ...bucket, client, now: 1_001_500, dailyLimit: 100, freeLimit: 100 });
    expect(await together.admit(next)).toEqual(await alone.admit(next));
  }
});

test('close() answers the admissions already asked for before it closes', async () => {
  const store = ledger();
  const pending = store.admit(request());
  await store.close();
  expect(await pending).toEqual({ admitted: true, calls: 1 });
  await expect(store.admit(request())).rejects.toThrow();
});
