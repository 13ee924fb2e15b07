/**
 * A replica killed (SIGKILL) with a quota lease in hand, on PostgreSQL, in front of the emulator:
 * its unused calls stay counted, so the ledger's count stays at or above the register's own
 * (the emulator's) by at most that lease; the dead lease stops showing as leased at its expiry,
 * the next register day starts from nothing, and a new replica goes on counting from there.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator';
import { londonDate } from '../../src/register/contract/london-day';
import { msToLondonMidnight } from '../../src/services/quota';
import { PgQuotaStore } from '../../src/storage/quota/pg-store';
import { createTestDatabase, postgresSuite, type TestDatabase } from '../support/pg';
import { postRaw } from '../support/post-raw';
import { spawnTs, type Child } from '../support/processes';

const pgSuite = await postgresSuite();
const LEASE_MS = 600_000;
const LEASE_CALLS = 10;
const TITLE = '{ title(titleNumber: "MID15313") { titleNumber } }';

describe.skipIf(!pgSuite.run)(pgSuite.title('a replica killed with a quota lease in hand'), () => {
  let database: TestDatabase;
  let emulator: Emulator;
  let ledger: PgQuotaStore;
  const children: Child[] = [];

  async function startReplica(): Promise<string> {
    const quota = { leaseMs: LEASE_MS, leaseCalls: LEASE_CALLS, clientBurst: 0 };
    const child = spawnTs('test/support/lease-replica.ts', [
      JSON.stringify({ registerBaseUrl: emulator.url, databaseUrl: database.url, quota }),
    ]);
    children.push(child);
    const [, port] = await child.waitFor(/^replica listening on (\d+)$/, 60_000);
    return `http://127.0.0.1:${port}/graphql`;
  }

  beforeAll(async () => {
    database = await createTestDatabase('quota_lease_kill');
    emulator = await startEmulator({ port: 0 });
    ledger = new PgQuotaStore({ connectionString: database.url, msToMidnight: msToLondonMidnight });
  }, 120_000);

  afterAll(async () => {
    await Promise.all(children.map((child) => child.stop('SIGKILL')));
    await ledger?.close();
    await emulator?.close();
    await database?.drop();
  });

  test('the count stays at or above the register’s by at most the lease; the next day starts clean', async () => {
    const url = await startReplica();
    const answer = await postRaw(url, { query: TITLE });
    expect(answer.body.errors).toBeUndefined();
    const day = londonDate(new Date());
    const made = emulator.state.quotaUsed('ORG-A');
    expect(made).toBeGreaterThan(0);
    expect(made).toBeLessThan(LEASE_CALLS);

    await children[0]!.stop('SIGKILL');
    const now = Date.now();
    const counted = await ledger.usage('ORG-A', day, now);
    expect(counted.calls).toBeGreaterThanOrEqual(made);
    expect(counted.calls - made).toBeLessThanOrEqual(LEASE_CALLS);
    expect(counted.calls).toBe(LEASE_CALLS); // nothing was given back: the lease, whole
    expect(counted.leased).toBe(LEASE_CALLS);
    // Past its expiry (by the register's clock, which the replica read to the second) the dead lease is counted, no longer leased; the next day owes it nothing.
    expect(await ledger.usage('ORG-A', day, now + LEASE_MS + 60_000)).toEqual({ calls: LEASE_CALLS });
    const tomorrow = londonDate(new Date(now + msToLondonMidnight(now) + 1_000));
    expect(await ledger.usage('ORG-A', tomorrow, now)).toEqual({ calls: 0 });

    // A new replica takes its own lease on top: the count still covers every call made.
    const next = await startReplica();
    expect((await postRaw(next, { query: TITLE })).body.errors).toBeUndefined();
    const after = await ledger.usage('ORG-A', day, Date.now());
    expect(after.calls).toBeGreaterThanOrEqual(emulator.state.quotaUsed('ORG-A'));
    expect(after.calls).toBe(2 * LEASE_CALLS);
  }, 120_000);
});
