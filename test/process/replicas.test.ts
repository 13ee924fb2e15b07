/**
 * Two service processes on one PostgreSQL database, in front of one emulator (in this
 * process): the same idempotency key sent to both at once makes exactly one register call and
 * one charge (or one case); records outlive a replica and replay on a new one.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startEmulator, type Emulator } from '../../src/emulator';
import { createTestDatabase, postgresSuite, type TestDatabase } from '../support/pg';
import { londonDate } from '../../src/register/contract/london-day';
import { CHARGE_RECORDS, CREATE_CASE, PURCHASE_DETAILS, spawnTs, type Child } from '../support/processes';
import { postRaw, type RawAnswer } from '../support/post-raw';

interface Replica {
  child: Child;
  url: string;
}

const pgSuite = await postgresSuite();
let runId = 0;
const key = (label: string) => `${label}-${process.pid}-${Date.now()}-${++runId}`;

describe.skipIf(!pgSuite.run)(pgSuite.title('two service processes on one PostgreSQL database'), () => {
  let database: TestDatabase;
  let emulator: Emulator;
  const replicas: Replica[] = [];

  async function startReplica(): Promise<Replica> {
    const child = spawnTs('test/support/replica.ts', [JSON.stringify({ registerBaseUrl: emulator.url, databaseUrl: database.url })]);
    const [, port] = await child.waitFor(/^replica listening on (\d+)$/, 60_000);
    const replica = { child, url: `http://127.0.0.1:${port}/graphql` };
    replicas.push(replica);
    return replica;
  }

  beforeAll(async () => {
    database = await createTestDatabase('replicas');
    // Slow enough that every request arrives while the first one is still at the register.
    emulator = await startEmulator({ port: 0, latencyMs: 300 });
    await Promise.all([startReplica(), startReplica()]); // both create the table at once
  }, 120_000);

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.child.stop()));
    await emulator?.close();
    await database?.drop();
  });

  /** 10 requests to each of the first two replicas, interleaved A, B, A, B, …, all at once. */
  const interleaved = (send: (url: string) => Promise<RawAnswer>) =>
    Promise.all(Array.from({ length: 20 }, (_, i) => send(replicas[i % 2]!.url)));

  test('purchaseTitleDetails: 20 requests with one key across two replicas → one register call, one charge', async () => {
    const calls = emulator.calls.count({ route: 'titleDetails' });
    const charges = emulator.ledger.count();
    const variables = { fas: '0877', input: { titleNumber: 'MID15313', reference: 'replicas', idempotencyKey: key('details') } };
    const results = await interleaved((url) => postRaw(url, { query: PURCHASE_DETAILS, variables: variables }));

    for (const r of results) {
      expect(r.status).toBe(200);
      expect(r.body.errors).toBeUndefined();
      expect(r.body.data.purchaseTitleDetails.userErrors).toEqual([]);
      expect(r.body.data).toEqual(results[0]!.body.data); // every caller gets the one result, charge included
    }
    expect(results[0]!.body.data.purchaseTitleDetails.charges).toHaveLength(1);
    expect(emulator.calls.count({ route: 'titleDetails' }) - calls).toBe(1);
    expect(emulator.ledger.count() - charges).toBe(1);
    expect(emulator.ledger.count({ fas: '0877', titleNumber: 'MID15313' })).toBe(1);
  });

  test('createCase: 20 requests with one key across two replicas → one register call, one case', async () => {
    const calls = emulator.calls.count({ route: 'createCase' });
    const cases = emulator.state.cases.size;
    const variables = {
      fas: '1877',
      input: {
        reference: 'Replicas',
        contactEmail: 'cases@macdonald.example',
        contactTelephone: '0131 496 0000',
        titleNumbers: ['MID15313'],
        idempotencyKey: key('case'),
      },
    };
    const results = await interleaved((url) => postRaw(url, { query: CREATE_CASE, variables: variables }));
    for (const r of results) {
      expect(r.body.errors).toBeUndefined();
      expect(r.body.data.createCase.userErrors).toEqual([]);
    }
    const ids = new Set(results.map((r) => r.body.data.createCase.case.id));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toMatch(/^RLP/);
    expect(emulator.calls.count({ route: 'createCase' }) - calls).toBe(1);
    expect(emulator.state.cases.size - cases).toBe(1);
  });

  test('several keys at once across replicas: one call per key', async () => {
    const calls = emulator.calls.count({ route: 'createCase' });
    const keys = Array.from({ length: 4 }, (_, i) => key(`many-${i}`));
    const results = await Promise.all(
      keys.flatMap((k, i) =>
        Array.from({ length: 6 }, (_, j) =>
          postRaw(replicas[j % 2]!.url, {
            query: CREATE_CASE,
            variables: {
              fas: '1877',
              input: {
                reference: `Many ${i}`,
                contactEmail: 'cases@macdonald.example',
                contactTelephone: '0131',
                titleNumbers: ['MID15313'],
                idempotencyKey: k,
              },
            },
          }),
        ),
      ),
    );
    const byKey = new Map<string, Set<string>>();
    results.forEach((r, n) => {
      expect(r.body.data.createCase.userErrors).toEqual([]);
      const k = keys[Math.floor(n / 6)]!;
      byKey.set(k, (byKey.get(k) ?? new Set()).add(r.body.data.createCase.case.id));
    });
    for (const ids of byKey.values()) expect(ids.size).toBe(1);
    expect(new Set([...byKey.values()].map((s) => [...s][0])).size).toBe(keys.length);
    expect(emulator.calls.count({ route: 'createCase' }) - calls).toBe(keys.length);
  });

  test('the same key with other input on the other replica is IDEMPOTENCY_KEY_REUSED', async () => {
    const idempotencyKey = key('reuse');
    const first = await postRaw(replicas[0]!.url, {
      query: PURCHASE_DETAILS,
      variables: { fas: '0877', input: { titleNumber: 'MID1234', idempotencyKey } },
    });
    expect(first.body.data.purchaseTitleDetails.userErrors).toEqual([]);
    const calls = emulator.calls.count({ route: 'titleDetails' });
    const other = await postRaw(replicas[1]!.url, {
      query: PURCHASE_DETAILS,
      variables: { fas: '1234', input: { titleNumber: 'MID1234', idempotencyKey } },
    });
    expect(other.body.data.purchaseTitleDetails.userErrors).toEqual([expect.objectContaining({ code: 'IDEMPOTENCY_KEY_REUSED' })]);
    expect(emulator.calls.count({ route: 'titleDetails' })).toBe(calls);
  });

  test.each([
    ['a 500', { kind: 'status', status: 500, phase: 'after' }, 'BLK4001'],
    ['a reset', { kind: 'reset', phase: 'after' }, 'BLK4002'],
    ['a malformed body', { kind: 'malformed', phase: 'after' }, 'BLK4003'],
  ] as const)(
    '%s after the charge on one replica: OUTCOME_UNKNOWN, replayed by the other with no call, journalled once for both',
    async (_label, fault, titleNumber) => {
      const idempotencyKey = key('unknown');
      const variables = { fas: '0877', input: { titleNumber, reference: 'lost answer', idempotencyKey } };
      emulator.faults.inject('titleDetails', fault, 1);
      const calls = emulator.calls.count({ route: 'titleDetails' });
      const charges = emulator.ledger.count();

      const first = await postRaw(replicas[0]!.url, { query: PURCHASE_DETAILS, variables: variables });
      expect(first.body.data.purchaseTitleDetails.userErrors.map((e: { code: string }) => e.code)).toEqual(['OUTCOME_UNKNOWN']);
      const replays = await Promise.all(
        [replicas[1]!.url, replicas[0]!.url, replicas[1]!.url].map((url) =>
          postRaw(url, { query: PURCHASE_DETAILS, variables: variables }),
        ),
      );
      for (const replay of replays) expect(replay.body.data).toEqual(first.body.data);
      expect(emulator.calls.count({ route: 'titleDetails' }) - calls).toBe(1);
      expect(emulator.ledger.count() - charges).toBe(1);

      const day = londonDate(emulator.clock.now());
      const journals = await Promise.all(replicas.slice(0, 2).map((r) => postRaw(r.url, { query: CHARGE_RECORDS, variables: { day } })));
      for (const journal of journals) {
        expect(journal.body.data.chargeRecords.filter((r: { idempotencyKey: string }) => r.idempotencyKey === idempotencyKey)).toEqual([
          expect.objectContaining({ status: 'OUTCOME_UNKNOWN', titleNumber, fas: '0877', charge: null }),
        ]);
      }
    },
  );

  test('a replica restarted on the same database replays the key with no register call', async () => {
    const idempotencyKey = key('restart');
    const variables = { fas: '0877', input: { titleNumber: 'LAN50', reference: 'before restart', idempotencyKey } };
    const first = await postRaw(replicas[0]!.url, { query: PURCHASE_DETAILS, variables: variables });
    expect(first.body.data.purchaseTitleDetails.userErrors).toEqual([]);
    expect(first.body.data.purchaseTitleDetails.charges).toHaveLength(1);
    const calls = emulator.calls.count({ route: 'titleDetails' });
    const charges = emulator.ledger.count();

    // Stop both replicas: nothing of the key is left in any process's memory.
    const stopped = await Promise.all(replicas.splice(0).map((r) => r.child.stop()));
    expect(stopped.map((s) => s.code)).toEqual([0, 0]);
    const restarted = await startReplica();

    const replay = await postRaw(restarted.url, { query: PURCHASE_DETAILS, variables: variables });
    expect(replay.body.data).toEqual(first.body.data);
    expect(emulator.calls.count({ route: 'titleDetails' })).toBe(calls);
    expect(emulator.ledger.count()).toBe(charges);
  }, 120_000);
});
