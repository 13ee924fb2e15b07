/**
 * The daily quota is the organisation's: counted for all its API clients together, kept
 * across restarts and replicas, with a reserve for paid work and a per-client budget. Every
 * refusal is judged on the emulator's call log: refused here means no register call.
 */
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { PgIdempotencyStore } from '../../src/storage/idempotency/pg-store';
import { londonDate } from '../../src/register/contract/london-day';
import { createTestDatabase, postgresSuite, type TestDatabase } from '../support/pg';
import { PurchaseTitleDetailsMutation, RegisterUsageQuery, TitleQuery, TitlesQuery } from '../support/documents';
import { newKey, replicaOf, startService, type Service, type ServiceOverrides } from '../support/harness';

type Svc = Awaited<ReturnType<typeof startService>>;
const running: Svc[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()));
});
async function service(options: ServiceOverrides = {}): Promise<Svc> {
  const svc = await startService({ services: options });
  running.push(svc);
  return svc;
}

const usage = async (svc: Service, key = 'dev-key-a') => (await svc.gql(RegisterUsageQuery, {}, key)).data!.registerUsage;
const summaryCalls = (svc: Service) => svc.emulator.calls.count({ route: 'titleSummary' });

/** The register answers client-a's next title read 429 (Retry-After 30 s), which holds ORG-A on every replica. */
async function registerRefusesOrgA(svc: Service, titleNumber: string): Promise<void> {
  svc.emulator.faults.inject('titleSummary', { kind: 'status', status: 429, retryAfterSeconds: 30 }, 1);
  const limited = await svc.gql(TitleQuery, { titleNumber }, 'dev-key-a');
  expect(limited.errors![0]!.extensions!.code).toBe('RATE_LIMITED');
}

describe("the organisation's count", () => {
  test('client-a and client-a2 draw on ORG-A’s one count; ORG-B has its own; it matches the emulator and survives a restart', async () => {
    const svc = await service();
    await svc.gql(TitleQuery, { titleNumber: 'MID15313' }, 'dev-key-a');
    await svc.gql(TitleQuery, { titleNumber: 'MID1234' }, 'dev-key-a2');
    await svc.gql(TitleQuery, { titleNumber: 'GLA5001' }, 'dev-key-a2');
    await svc.gql(TitleQuery, { titleNumber: 'MID1234' }, 'dev-key-b');
    const day = londonDate(svc.emulator.clock.now());
    expect(await usage(svc, 'dev-key-a')).toEqual({ day, calls: 3, blockedUntil: null });
    expect(await usage(svc, 'dev-key-a2')).toEqual({ day, calls: 3, blockedUntil: null });
    expect((await usage(svc, 'dev-key-b')).calls).toBe(1);
    expect(svc.emulator.state.quotaUsed('ORG-A')).toBe(3);

    const restarted = await svc.restart();
    expect((await usage(restarted, 'dev-key-a')).calls).toBe(3);
  });

  test('past the day’s calls everything is refused here, paid work included, until midnight', async () => {
    const svc = await service({ quota: { dailyQuota: 3, freeShare: 1 } });
    for (const titleNumber of ['MID15313', 'MID1234', 'GLA5001']) await svc.gql(TitleQuery, { titleNumber });
    const calls = svc.emulator.calls.list().length;
    const read = await svc.gql(TitleQuery, { titleNumber: 'EDN42' });
    expect(read.errors![0]!.extensions).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: expect.any(Number) });
    expect(read.errors![0]!.message).toMatch(/used its 3 register calls for today/);
    const paid = await svc.gql(PurchaseTitleDetailsMutation, {
      fas: '0877',
      input: { titleNumber: 'MID1234', idempotencyKey: newKey('day') },
    });
    expect(paid.data!.purchaseTitleDetails.userErrors[0]!.code).toBe('RATE_LIMITED');
    expect(svc.emulator.calls.list().length).toBe(calls);
  });
});

describe('a client not yet signed in, while the organisation may not call', () => {
  const signIns = (svc: Service, clientId: string) => svc.emulator.calls.count({ route: 'token', clientId });

  test("after another client's 429: refused with the register's wait, and not even its sign-in is sent", async () => {
    const svc = await service();
    await registerRefusesOrgA(svc, 'MID15313');
    const calls = svc.emulator.calls.list().length;
    // client-a2 has never signed in: the read and the purchase it would need a token for are refused first.
    const read = await svc.gql(TitleQuery, { titleNumber: 'MID1234' }, 'dev-key-a2');
    expect(read.errors![0]!.extensions).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: expect.any(Number) });
    expect(read.errors![0]!.extensions!.retryAfterSeconds as number).toBeLessThanOrEqual(30);
    expect(read.errors![0]!.message).toContain("The register refused this organisation's calls (429)");
    const paid = await svc.gql(
      PurchaseTitleDetailsMutation,
      { fas: '0877', input: { titleNumber: 'MID1234', idempotencyKey: newKey('held') } },
      'dev-key-a2',
    );
    expect(paid.data!.purchaseTitleDetails.userErrors[0]!.code).toBe('RATE_LIMITED');
    // Two callers of the one register client at once: both refused, neither signs in.
    const together = await Promise.all(['GLA5001', 'EDN42'].map((titleNumber) => svc.gql(TitleQuery, { titleNumber }, 'dev-key-a2')));
    expect(together.map((r) => r.errors![0]!.extensions!.code)).toEqual(['RATE_LIMITED', 'RATE_LIMITED']);
    expect(signIns(svc, 'client-a2')).toBe(0);
    expect(svc.emulator.calls.list().length).toBe(calls);
    expect(svc.emulator.ledger.count()).toBe(0);
    // Another organisation signs in and reads as ever.
    const orgB = await svc.gql(TitleQuery, { titleNumber: 'MID1234' }, 'dev-key-b');
    expect(orgB.data!.title!.titleNumber).toBe('MID1234');
    expect(signIns(svc, 'client-b')).toBe(1);
  });

  test("a client whose token is due for renewal, during another client's 429: refused without renewing it", async () => {
    // Tokens that live 1 s are renewed once half their life has passed.
    const svc = await startService({ emulator: { tokenTtlSeconds: 1 } });
    running.push(svc);
    const halfLife = () => new Promise((resolve) => setTimeout(resolve, 600));
    for (const titleNumber of ['MID1234', 'GLA5001']) {
      expect((await svc.gql(TitleQuery, { titleNumber }, 'dev-key-a2')).data!.title!.titleNumber).toBe(titleNumber);
      await halfLife();
    }
    expect(signIns(svc, 'client-a2')).toBe(2);
    await registerRefusesOrgA(svc, 'MID15313');
    const read = await svc.gql(TitleQuery, { titleNumber: 'EDN42' }, 'dev-key-a2');
    expect(read.errors![0]!.message).toContain("The register refused this organisation's calls (429)");
    expect(signIns(svc, 'client-a2')).toBe(2);
    expect(svc.emulator.calls.count({ route: 'titleSummary', clientId: 'client-a2' })).toBe(2);
  });

  test("with the free reads' share used up: a free read is refused unsent, a purchase signs in and buys", async () => {
    const svc = await service({ quota: { dailyQuota: 10, freeShare: 0.3 } });
    await svc.gql(TitlesQuery, { titleNumbers: ['BLK1', 'BLK2', 'BLK3'] }, 'dev-key-a');
    const refused = await svc.gql(TitleQuery, { titleNumber: 'MID15313' }, 'dev-key-a2');
    expect(refused.errors![0]!.message).toMatch(/kept for purchases, orders, cases and deeds/);
    expect(signIns(svc, 'client-a2')).toBe(0);
    const bought = await svc.gql(
      PurchaseTitleDetailsMutation,
      { fas: '0877', input: { titleNumber: 'MID1234', idempotencyKey: newKey('reserve-sign-in') } },
      'dev-key-a2',
    );
    expect(bought.data!.purchaseTitleDetails.userErrors).toEqual([]);
    expect(bought.data!.purchaseTitleDetails.charges).toHaveLength(1);
    expect(signIns(svc, 'client-a2')).toBe(1);
  });

  test('with the day used up: refused unsent until midnight', async () => {
    const svc = await service({ quota: { dailyQuota: 2, freeShare: 1 } });
    await svc.gql(TitlesQuery, { titleNumbers: ['BLK1', 'BLK2'] }, 'dev-key-a');
    const read = await svc.gql(TitleQuery, { titleNumber: 'MID15313' }, 'dev-key-a2');
    expect(read.errors![0]!.message).toMatch(/used its 2 register calls for today/);
    expect(signIns(svc, 'client-a2')).toBe(0);
  });
});

describe('the reserve for paid work', () => {
  test('free reads stop at their share; purchases still go through', async () => {
    const svc = await service({ quota: { dailyQuota: 10, freeShare: 0.5 } });
    await svc.gql(TitlesQuery, { titleNumbers: ['BLK1', 'BLK2', 'BLK3', 'BLK4', 'BLK5'] });
    const before = summaryCalls(svc);
    const refused = await svc.gql(TitleQuery, { titleNumber: 'MID15313' });
    expect(refused.errors![0]!.extensions!.code).toBe('RATE_LIMITED');
    expect(refused.errors![0]!.message).toMatch(/kept for purchases, orders, cases and deeds/);
    expect(summaryCalls(svc)).toBe(before);

    const bought = await svc.gql(PurchaseTitleDetailsMutation, {
      fas: '0877',
      input: { titleNumber: 'MID1234', idempotencyKey: newKey('reserve') },
    });
    expect(bought.data!.purchaseTitleDetails.userErrors).toEqual([]);
    expect(bought.data!.purchaseTitleDetails.charges).toHaveLength(1);
    expect((await usage(svc)).calls).toBe(6);
  });
});

describe('the per-client budget', () => {
  test('a burst past the bucket is refused with retryAfterSeconds and no call; another client of the organisation keeps its own bucket', async () => {
    const svc = await service({ quota: { clientBurst: 3, clientPerMinute: 6 } });
    await svc.gql(TitlesQuery, { titleNumbers: ['BLK1', 'BLK2', 'BLK3'] }, 'dev-key-a');
    const before = summaryCalls(svc);
    const refused = await svc.gql(TitleQuery, { titleNumber: 'MID15313' }, 'dev-key-a');
    expect(refused.errors![0]!.extensions).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: expect.any(Number) });
    expect(refused.errors![0]!.extensions!.retryAfterSeconds as number).toBeLessThanOrEqual(10);
    expect(refused.errors![0]!.message).toMatch(/too many register calls in a short time/);
    expect(summaryCalls(svc)).toBe(before);

    const other = await svc.gql(TitleQuery, { titleNumber: 'MID15313' }, 'dev-key-a2');
    expect(other.data!.title!.titleNumber).toBe('MID15313');
  });

  test('with the defaults, a titles(100) page with securities fits', async () => {
    const svc = await service();
    const titleNumbers = Array.from({ length: 100 }, (_, i) => `BLK${i + 1}`);
    const { data, errors } = await svc.gql(TitlesQuery, { titleNumbers });
    expect(errors).toBeUndefined();
    expect(data!.titles).toHaveLength(100);
  });
});

const pgSuite = await postgresSuite();

describe.skipIf(!pgSuite.run)(pgSuite.title('two replicas on one PostgreSQL database'), () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('quota');
  }, 60_000);
  afterAll(async () => {
    await database?.drop();
  });

  const onDatabase = (): ServiceOverrides => ({
    idempotency: new PgIdempotencyStore({ connectionString: database.url }),
    databaseUrl: database.url,
  });

  test('the same registerUsage on every replica; a 429 seen by one blocks the other until its Retry-After', async () => {
    const first = await service(onDatabase());
    const second = replicaOf(first, onDatabase());
    running.push(second as Svc);
    await first.gql(TitleQuery, { titleNumber: 'MID15313' }, 'dev-key-a');
    await second.gql(TitleQuery, { titleNumber: 'MID1234' }, 'dev-key-a2');
    await second.gql(TitleQuery, { titleNumber: 'GLA5001' }, 'dev-key-a');
    const a = await usage(first);
    const b = await usage(second, 'dev-key-a2');
    expect(a).toEqual(b);
    expect(a.calls).toBe(first.emulator.state.quotaUsed('ORG-A'));

    await registerRefusesOrgA(first, 'EDN42');
    const calls = first.emulator.calls.list().length;
    const blocked = await second.gql(TitleQuery, { titleNumber: 'ABN7' }, 'dev-key-a2');
    expect(blocked.errors![0]!.extensions).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: expect.any(Number) });
    expect(first.emulator.calls.list().length).toBe(calls);
    expect((await usage(second, 'dev-key-a2')).blockedUntil).not.toBeNull();
    // ORG-B is not blocked by ORG-A's 429.
    const orgB = await second.gql(TitleQuery, { titleNumber: 'MID1234' }, 'dev-key-b');
    expect(orgB.data!.title!.titleNumber).toBe('MID1234');
  });

  test("a replica that has not signed in yet, during another replica's 429: refused without its sign-in", async () => {
    const first = await service(onDatabase());
    await registerRefusesOrgA(first, 'EDN42');
    const second = replicaOf(first, onDatabase());
    running.push(second as Svc);
    const calls = first.emulator.calls.list().length;
    const read = await second.gql(TitleQuery, { titleNumber: 'ABN7' }, 'dev-key-a');
    expect(read.errors![0]!.message).toContain("The register refused this organisation's calls (429)");
    expect(first.emulator.calls.list().length).toBe(calls);
  });
});
