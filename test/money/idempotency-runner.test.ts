/**
 * The idempotency runner's decisions, through GraphQL over the emulator, with a second store on
 * the same database standing in for another replica: waiting on a call in progress elsewhere,
 * IDEMPOTENCY_KEY_IN_USE, the exact staleness boundary, key reuse, the key rule, and events
 * (a charges event only when the register was called, never on a replay), an answer held in
 * memory only until the journal takes it, and a fresh process's first purchase when the register
 * cannot tell it its day (nothing claimed, the key free again).
 */
import { describe, expect, onTestFinished, test, vi } from 'vitest';
import { createHash } from 'node:crypto';
import { inputHash } from '../../src/services/idempotency/key';
import { SqliteIdempotencyStore } from '../../src/storage/idempotency/sqlite-store';
import { londonDate } from '../../src/register/contract/london-day';
import { FAULT_TEST_TRANSPORT } from '../support/fault-transport';
import { ChargeRecordsQuery, CreateCaseMutation, PurchaseTitleDetailsMutation, TitleQuery } from '../support/documents';
import { newKey, type Service, serviceForTest } from '../support/harness';

/** A service for this test, with the runner's waits shortened. */
function service(timing: { waitMs?: number; staleMs?: number } = {}, transport?: typeof FAULT_TEST_TRANSPORT) {
  return serviceForTest({ services: { idempotencyTiming: timing, ...(transport ? { transport } : {}) } });
}
/** Another replica on the same database, whose clock is `ageMs` behind; closed when the test ends, before the service. */
function otherReplica(svc: Service, ageMs = 0): SqliteIdempotencyStore {
  const store = new SqliteIdempotencyStore(svc.dataDir, () => Date.now() - ageMs);
  onTestFinished(() => store.close());
  return store;
}
/** Resolves once the runner has found the key in progress elsewhere and asked the store again: it is waiting. */
function waitingOn(svc: Service) {
  const claims = vi.spyOn(svc.services.idempotency, 'claim');
  onTestFinished(() => claims.mockRestore());
  return () => vi.waitFor(() => expect(claims.mock.calls.length).toBeGreaterThanOrEqual(2));
}

const INPUT = { fas: '0877', titleNumber: 'MID15313', reference: 'strength' };
const details = (key: string, reference = INPUT.reference) => ({
  fas: INPUT.fas,
  input: { titleNumber: INPUT.titleNumber, reference, idempotencyKey: key },
});
const claimElsewhere = (store: SqliteIdempotencyStore, key: string, input: object = INPUT) =>
  store.claim('client-a', key, 'purchaseTitleDetails', inputHash('purchaseTitleDetails', input));
const codes = (result: { data?: { purchaseTitleDetails: { userErrors: { code: string }[] } } | null }) =>
  result.data!.purchaseTitleDetails.userErrors.map((e) => e.code);

describe('a key whose call is in progress on another replica', () => {
  test('answers IDEMPOTENCY_KEY_IN_USE after the wait, on the key field, with no register call', async () => {
    const svc = await service({ waitMs: 150 });
    const key = newKey('in-use');
    await claimElsewhere(otherReplica(svc), key);
    const claims = vi.spyOn(svc.services.idempotency, 'claim');
    onTestFinished(() => claims.mockRestore());
    const started = Date.now();
    const result = await svc.gql(PurchaseTitleDetailsMutation, details(key));
    // It waited out waitMs, asking the store again meanwhile, before giving up.
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(claims.mock.calls.length).toBeGreaterThan(1);
    expect(result.data!.purchaseTitleDetails.userErrors).toEqual([
      { code: 'IDEMPOTENCY_KEY_IN_USE', message: expect.stringContaining('still in progress'), field: ['input', 'idempotencyKey'] },
    ]);
    expect(result.data!.purchaseTitleDetails.charges).toEqual([]);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(0);
  });

  test('waits for it and answers with its outcome when it finishes in time, still with no call', async () => {
    const svc = await service({ waitMs: 5_000 });
    const key = newKey('waits');
    const other = otherReplica(svc);
    await claimElsewhere(other, key);
    const stored = {
      ok: false,
      userErrors: [{ code: 'CREDIT_LIMIT_EXCEEDED', message: 'FAS 0877 is at its credit limit; nothing was charged.', field: ['fas'] }],
    };
    const waiting = waitingOn(svc);
    const answer = svc.gql(PurchaseTitleDetailsMutation, details(key));
    await waiting();
    await other.finish('client-a', key, 'failed_final', JSON.stringify(stored));
    const result = await answer;
    expect(result.data!.purchaseTitleDetails.userErrors).toEqual(stored.userErrors);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(0);
  });

  test('a key it gave back as retryable is claimed and run here, once', async () => {
    const svc = await service({ waitMs: 5_000 });
    const key = newKey('given-back');
    const other = otherReplica(svc);
    await claimElsewhere(other, key);
    const waiting = waitingOn(svc);
    const answer = svc.gql(PurchaseTitleDetailsMutation, details(key));
    await waiting();
    await other.finish('client-a', key, 'failed_retryable');
    const result = await answer;
    expect(codes(result)).toEqual([]);
    expect(result.data!.purchaseTitleDetails.charges).toHaveLength(1);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(1);
  });
});

describe('staleness: when an unfinished call counts as crashed', () => {
  test('older than staleMs: OUTCOME_UNKNOWN at once, no call', async () => {
    const svc = await service({ staleMs: 1_000, waitMs: 100 });
    const key = newKey('stale');
    await claimElsewhere(otherReplica(svc, 1_500), key);
    const result = await svc.gql(PurchaseTitleDetailsMutation, details(key));
    // The day it went out died with that process: only what is certain is said, no day is guessed.
    expect(result.data!.purchaseTitleDetails.userErrors).toEqual([
      {
        code: 'OUTCOME_UNKNOWN',
        message:
          'The request may have reached the register, but its answer was lost, so it may have been charged. It is never sent again with ' +
          'this idempotencyKey, and chargeRecords lists it for the day.',
        field: null,
      },
    ]);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(0);
    // Settled once for every replica: the next request of the key gets the same answer.
    expect(await svc.gql(PurchaseTitleDetailsMutation, details(key))).toEqual(result);
  });

  test('younger than staleMs: still in progress, so IN_USE and not OUTCOME_UNKNOWN', async () => {
    const svc = await service({ staleMs: 60_000, waitMs: 100 });
    const key = newKey('fresh');
    await claimElsewhere(otherReplica(svc, 30_000), key);
    const result = await svc.gql(PurchaseTitleDetailsMutation, details(key));
    expect(codes(result)).toEqual(['IDEMPOTENCY_KEY_IN_USE']);
  });
});

describe('reuse of a key', () => {
  test('with other input: IDEMPOTENCY_KEY_REUSED on the key field; the first answer stays', async () => {
    const svc = await service();
    const key = newKey('reuse');
    const first = await svc.gql(PurchaseTitleDetailsMutation, details(key));
    expect(codes(first)).toEqual([]);
    const reused = await svc.gql(PurchaseTitleDetailsMutation, details(key, 'another reference'));
    expect(reused.data!.purchaseTitleDetails.userErrors).toEqual([
      { code: 'IDEMPOTENCY_KEY_REUSED', message: expect.stringContaining('different input'), field: ['input', 'idempotencyKey'] },
    ]);
    expect(await svc.gql(PurchaseTitleDetailsMutation, details(key))).toEqual(first);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(1);
  });

  test('for another operation with the same input hash source: REUSED, no call', async () => {
    const svc = await service();
    const key = newKey('other-op');
    await otherReplica(svc).claim('client-a', key, 'purchasePendingApplications', inputHash('purchaseTitleDetails', INPUT));
    const result = await svc.gql(PurchaseTitleDetailsMutation, details(key));
    expect(codes(result)).toEqual(['IDEMPOTENCY_KEY_REUSED']);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(0);
  });
});

describe('the answer held in memory', () => {
  test('is held only while the journal cannot take it: a purchase whose outcome is written at once leaves nothing held', async () => {
    const svc = await service();
    const key = newKey('written');
    const first = await svc.gql(PurchaseTitleDetailsMutation, details(key));
    expect(first.data!.purchaseTitleDetails.charges).toHaveLength(1);
    expect(svc.services.unsettled.size).toBe(0);
    // The replay comes from the journal, the same answer, and the register is not called again.
    expect(await svc.gql(PurchaseTitleDetailsMutation, details(key))).toEqual(first);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(1);
  });
});

describe('the key rule', () => {
  test.each([
    ['255 printable ASCII characters', 'k'.repeat(255), true],
    ['the lowest and highest printable characters', '!~', true],
    ['256 characters', 'k'.repeat(256), false],
    ['a space', 'a b', false],
    ['DEL', 'a\u007f', false],
    ['a non-ASCII letter', 'clé', false],
  ])('%s: %s', async (_label, key, valid) => {
    const svc = await service();
    const result = await svc.gql(PurchaseTitleDetailsMutation, details(key));
    if (valid) {
      expect(codes(result)).toEqual([]);
      expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(1);
    } else {
      expect(result.data!.purchaseTitleDetails.userErrors).toEqual([
        {
          code: 'INVALID_INPUT',
          message: 'input.idempotencyKey must be 1 to 255 printable ASCII characters without spaces.',
          field: ['input', 'idempotencyKey'],
        },
      ]);
      expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(0);
    }
  });
});

describe('events', () => {
  test('a charges event only when the register was called; idempotency events name what happened', async () => {
    const svc = await service();
    const charges: unknown[] = [];
    const outcomes: string[] = [];
    svc.services.events.on('charges', (e) => charges.push(e));
    svc.services.events.on('idempotency', (e) => outcomes.push(`${e.operation}:${e.outcome}`));
    const key = newKey('events');
    const first = await svc.gql(PurchaseTitleDetailsMutation, details(key));
    await svc.gql(PurchaseTitleDetailsMutation, details(key));
    await svc.gql(PurchaseTitleDetailsMutation, details(key, 'changed'));
    await svc.gql(PurchaseTitleDetailsMutation, details('bad key'));
    expect(charges).toEqual([
      {
        tenant: 'client-a',
        organisation: 'ORG-A',
        operation: 'purchaseTitleDetails',
        charges: [expect.objectContaining({ fee: first.data!.purchaseTitleDetails.charges[0]!.fee })],
      },
    ]);
    expect(outcomes).toEqual([
      'purchaseTitleDetails:executed',
      'purchaseTitleDetails:replayed',
      'purchaseTitleDetails:key_reused',
      'purchaseTitleDetails:invalid_input',
    ]);
  });

  test('a refusal by the register is executed, final, and emits no charges event', async () => {
    const svc = await service();
    const charges: unknown[] = [];
    svc.services.events.on('charges', (e) => charges.push(e));
    const key = newKey('refused');
    const refused = await svc.gql(PurchaseTitleDetailsMutation, { fas: '9999', input: { titleNumber: 'MID15313', idempotencyKey: key } });
    expect(codes(refused)).toEqual(['CREDIT_LIMIT_EXCEEDED']);
    expect(await svc.gql(PurchaseTitleDetailsMutation, { fas: '9999', input: { titleNumber: 'MID15313', idempotencyKey: key } })).toEqual(
      refused,
    );
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(1);
    expect(charges).toEqual([]);
  });
});

describe('inputHash', () => {
  test('ignores key order and absent fields; tells operations, values and list order apart', () => {
    const hash = inputHash('op', { a: 1, b: [1, 2], c: { x: 'y', z: null } });
    expect(inputHash('op', { c: { z: null, x: 'y' }, b: [1, 2], a: 1, d: undefined })).toBe(hash);
    expect(inputHash('other', { a: 1, b: [1, 2], c: { x: 'y', z: null } })).not.toBe(hash);
    expect(inputHash('op', { a: 1, b: [2, 1], c: { x: 'y', z: null } })).not.toBe(hash);
    expect(inputHash('op', { a: '1', b: [1, 2], c: { x: 'y', z: null } })).not.toBe(hash);
    expect(inputHash('op', { a: 1, b: [1, 2], c: { x: 'y' } })).not.toBe(hash);
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('inputHash is stable across versions', () => {
  test('it is the SHA-256 of the canonical JSON: keys sorted at every depth, lists in order, absent fields left out', () => {
    // Records written by an earlier version are matched by this hash: changing the form would
    // turn every replay after an upgrade into IDEMPOTENCY_KEY_REUSED.
    const canonical = '{"input":{"a":"s","b":[1,{"x":1,"y":[2,"z"]}],"c":null},"operation":"op"}';
    const expected = createHash('sha256').update(canonical).digest('hex');
    expect(inputHash('op', { c: null, b: [1, { y: [2, 'z'], x: 1 }], a: 's', d: undefined })).toBe(expected);
  });
});

describe('what each decision is called in the events', () => {
  test('in use, stale, a lost answer, and that answer asked for again', async () => {
    const svc = await service({ waitMs: 80, staleMs: 1_000 }, FAULT_TEST_TRANSPORT);
    const outcomes: string[] = [];
    svc.services.events.on('idempotency', (e) => outcomes.push(e.outcome));
    const busy = newKey('busy');
    await claimElsewhere(otherReplica(svc), busy);
    await svc.gql(PurchaseTitleDetailsMutation, details(busy));
    const stale = newKey('stale');
    await claimElsewhere(otherReplica(svc, 5_000), stale);
    await svc.gql(PurchaseTitleDetailsMutation, details(stale));
    svc.emulator.faults.inject('titleDetails', { kind: 'reset', phase: 'after' }, 1);
    const lost = newKey('lost');
    await svc.gql(PurchaseTitleDetailsMutation, details(lost));
    // Asked again, a lost answer is still not known: never counted as a replay of a known answer.
    await svc.gql(PurchaseTitleDetailsMutation, details(lost));
    expect(outcomes).toEqual(['in_use', 'outcome_unknown', 'outcome_unknown', 'outcome_unknown']);
  });

  test("the register's refusal is refused, its 429 rate_limited: the two a dashboard must tell apart", async () => {
    const svc = await service();
    const outcomes: string[] = [];
    svc.services.events.on('idempotency', (e) => outcomes.push(e.outcome));
    // 9999 is at its credit limit: a final answer, kept for the key.
    const refused = await svc.gql(PurchaseTitleDetailsMutation, { ...details(newKey('refused')), fas: '9999' });
    expect(codes(refused)).toEqual(['CREDIT_LIMIT_EXCEEDED']);
    // A 429 with a wait longer than the call's deadline is not waited on: nothing was bought, and the key is not kept as a final answer.
    svc.emulator.faults.inject('titleDetails', { kind: 'status', status: 429, retryAfterSeconds: 3_600 }, 1);
    const limited = await svc.gql(PurchaseTitleDetailsMutation, details(newKey('limited')));
    expect(codes(limited)).toEqual(['RATE_LIMITED']);
    expect(outcomes).toEqual(['refused', 'rate_limited']);
    expect(svc.emulator.ledger.count({ fas: '0877' })).toBe(0);
    // Each purchase went out once: the refusal is final, and a charging call is not sent again on a 429 it will not wait for.
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(2);
    expect(svc.emulator.calls.count({ route: 'titleDetails', status: 429 })).toBe(1);
  });
});

describe('an old finished key', () => {
  test('replays its answer long after staleMs: only unfinished keys ever go stale', async () => {
    const svc = await service({ staleMs: 50, waitMs: 200 });
    const key = newKey('old');
    const first = await svc.gql(PurchaseTitleDetailsMutation, details(key));
    const finishedAt = Date.now();
    // What this test needs is time itself: the finished record older than staleMs.
    await vi.waitFor(() => expect(Date.now() - finishedAt).toBeGreaterThan(100));
    expect(await svc.gql(PurchaseTitleDetailsMutation, details(key))).toEqual(first);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(1);
  });
});

describe('the OUTCOME_UNKNOWN message says what to do next', () => {
  test('across London midnight: the day is named, and an answer lost after that day ended says buying again is charged again', async () => {
    const svc = await service({}, FAULT_TEST_TRANSPORT);
    // 23:59:54 London time in November (GMT).
    svc.emulator.clock.set(new Date('2026-11-25T23:59:54Z'));
    await svc.gql(TitleQuery, { titleNumber: 'MID1234' }); // the service hears the register's clock
    svc.emulator.faults.inject('titleDetails', { kind: 'reset', phase: 'after' }, 1);
    const lostBefore = await svc.gql(PurchaseTitleDetailsMutation, details(newKey('before-midnight')));
    expect(lostBefore.data!.purchaseTitleDetails.userErrors[0]!.message).toContain(
      'buying again with a new idempotencyKey is safe until the end of 2026-11-25 (London time)',
    );

    // Sent before midnight, its answer held past it (the register's clock moves on meanwhile).
    svc.emulator.faults.inject('titleDetails', { kind: 'hang', phase: 'after' }, 1);
    const onOtherFas = (key: string) => ({ ...details(key), fas: '1234' });
    const held = svc.gql(PurchaseTitleDetailsMutation, onOtherFas(newKey('across-midnight')));
    await vi.waitFor(() => expect(svc.emulator.ledger.count({ fas: '1234' })).toBe(1));
    svc.emulator.clock.set(new Date('2026-11-26T00:00:04Z'));
    await svc.gql(TitleQuery, { titleNumber: 'MID1234' });
    const lostAfter = (await held).data!.purchaseTitleDetails.userErrors[0]!.message;
    expect(lostAfter).toContain(
      'It went out on register day 2026-11-25 (London time), which has ended: buying again now, with a new idempotencyKey, is charged again.',
    );
    expect(lostAfter).not.toContain('is safe');
    // And so it is: the same title bought again after midnight is a second charge.
    const again = await svc.gql(PurchaseTitleDetailsMutation, onOtherFas(newKey('after-midnight')));
    expect(again.data!.purchaseTitleDetails.charges).toHaveLength(1);
    expect(svc.emulator.ledger.count({ fas: '1234' })).toBe(2);
  });

  test('a charge: chargeRecords lists it and a new key the same day is safe; a case: look for it first', async () => {
    const svc = await service({}, FAULT_TEST_TRANSPORT);
    svc.emulator.faults.inject('titleDetails', { kind: 'reset', phase: 'after' }, 1);
    const charge = await svc.gql(PurchaseTitleDetailsMutation, details(newKey('msg-charge')));
    const chargeMessage = charge.data!.purchaseTitleDetails.userErrors[0]!.message;
    expect(chargeMessage).toContain('may have been charged');
    expect(chargeMessage).toContain('chargeRecords');
    expect(chargeMessage).toContain(
      `buying again with a new idempotencyKey is safe until the end of ${londonDate(svc.services.registerNow())} (London time)`,
    );

    svc.emulator.faults.inject('createCase', { kind: 'reset', phase: 'after' }, 1);
    const created = await svc.gql(CreateCaseMutation, {
      fas: '1877',
      input: {
        reference: 'Lost case',
        contactEmail: 'a@b.example',
        contactTelephone: '0131',
        titleNumbers: ['MID15313'],
        idempotencyKey: newKey('msg-case'),
      },
    });
    const caseMessage = created.data!.createCase.userErrors[0]!.message;
    expect(caseMessage).toContain('the case may have been created');
    expect(caseMessage).toContain('check the register for the case');
  });
});

describe('charges events and the register day', () => {
  test('a purchase the register does not charge again (same day, new key) emits no charges event', async () => {
    const svc = await service();
    const events: unknown[] = [];
    svc.services.events.on('charges', (e) => events.push(e));
    await svc.gql(PurchaseTitleDetailsMutation, details(newKey('first')));
    const second = await svc.gql(PurchaseTitleDetailsMutation, details(newKey('second')));
    expect(second.data!.purchaseTitleDetails.charges).toEqual([]);
    expect(events).toHaveLength(1);
  });

  test('a lost answer is journalled on the register day the request went out, even when the day changes before the error', async () => {
    const svc = await service({}, FAULT_TEST_TRANSPORT);
    svc.emulator.clock.set(new Date('2026-01-15T23:59:58Z'));
    await svc.gql(TitleQuery, { titleNumber: 'MID1234' }); // the service learns the register's clock
    svc.emulator.faults.inject('titleDetails', { kind: 'hang', phase: 'after' }, 1);
    const key = newKey('day');
    const purchase = svc.gql(PurchaseTitleDetailsMutation, details(key));
    await vi.waitFor(() => expect(svc.emulator.ledger.count()).toBe(1)); // charged, its answer held
    svc.emulator.clock.advance(10_000); // past midnight
    await svc.gql(TitleQuery, { titleNumber: 'MID1234' }); // ...and the service hears of it while the purchase hangs
    expect(londonDate(svc.services.registerNow())).toBe('2026-01-16');
    const result = await purchase;
    expect(codes(result)).toEqual(['OUTCOME_UNKNOWN']);
    const day15 = await svc.gql(ChargeRecordsQuery, { day: '2026-01-15' });
    expect(day15.data!.chargeRecords.map((r) => [r.idempotencyKey, r.status])).toEqual([[key, 'OUTCOME_UNKNOWN']]);
    const day16 = await svc.gql(ChargeRecordsQuery, { day: '2026-01-16' });
    expect(day16.data!.chargeRecords).toEqual([]);
  });

  test('a purchase with reference null is a purchase without a reference', async () => {
    const svc = await service();
    const result = await svc.gql(PurchaseTitleDetailsMutation, {
      fas: '0877',
      input: { titleNumber: 'MID15313', reference: null, idempotencyKey: newKey('null-ref') },
    });
    expect(codes(result)).toEqual([]);
    expect(result.data!.purchaseTitleDetails.charges).toHaveLength(1);
    expect(result.data!.purchaseTitleDetails.charges[0]!.reference).toBeNull();
  });
});

describe("a fresh process's first purchase, when the register cannot tell its day", () => {
  test('the token refused 429 throughout: RATE_LIMITED, counted as rate_limited, nothing charged or sent, the key free again', async () => {
    const svc = await service();
    const outcomes: string[] = [];
    svc.services.events.on('idempotency', (e) => outcomes.push(e.outcome));
    svc.emulator.faults.inject('token', { kind: 'status', status: 429, retryAfterSeconds: 1 }, 10);
    const key = newKey();
    const refused = await svc.gql(PurchaseTitleDetailsMutation, details(key));
    expect(refused.data!.purchaseTitleDetails.userErrors).toEqual([
      { code: 'RATE_LIMITED', message: "The register's quota or rate limit was reached; retry after 1 s.", field: null },
    ]);
    expect(outcomes).toEqual(['rate_limited']);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(0);
    expect(svc.emulator.ledger.count()).toBe(0);
    // Nothing was claimed: once the register's second is over, the same key buys, once.
    svc.emulator.faults.clear();
    await vi.waitFor(
      async () => expect((await svc.gql(PurchaseTitleDetailsMutation, details(key))).data!.purchaseTitleDetails.charges).toHaveLength(1),
      { timeout: 5000, interval: 250 },
    );
    expect(svc.emulator.ledger.count()).toBe(1);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(1);
  });

  test('the token refused 429 without a Retry-After: the organisation is held for the minute it hears of, as after any 429 of the register', async () => {
    const svc = await service();
    svc.emulator.faults.inject('token', { kind: 'status', status: 429 }, 1);
    const refused = await svc.gql(PurchaseTitleDetailsMutation, details(newKey()));
    expect(refused.data!.purchaseTitleDetails.userErrors).toEqual([
      { code: 'RATE_LIMITED', message: "The register's quota or rate limit was reached; retry after 60 s.", field: null },
    ]);
    // Held here, by the same rule as a 429 to a call: a read in that minute is refused without
    // being sent, and so is another purchase; neither tries the sign-in again.
    const read = await svc.gql(TitleQuery, { titleNumber: 'MID15313' });
    expect(read.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: expect.any(Number) });
    expect(read.errors?.[0]?.message).toContain("The register refused this organisation's calls (429)");
    const again = await svc.gql(PurchaseTitleDetailsMutation, details(newKey()));
    expect(again.data!.purchaseTitleDetails.userErrors[0]!.code).toBe('RATE_LIMITED');
    expect(svc.emulator.calls.count({ route: 'token' })).toBe(1);
    expect(svc.emulator.calls.count({ route: 'titleSummary' })).toBe(0);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(0);
    expect(svc.emulator.ledger.count()).toBe(0);
  });

  test('the token unavailable throughout: REGISTER_UNAVAILABLE, nothing sent, and the same key buys once afterwards', async () => {
    const svc = await service({}, FAULT_TEST_TRANSPORT);
    svc.emulator.faults.inject('token', { kind: 'status', status: 503 }, 10);
    const key = newKey();
    const failed = await svc.gql(PurchaseTitleDetailsMutation, details(key));
    expect(failed.data).toBeNull();
    expect(failed.errors).toEqual([
      expect.objectContaining({ path: ['purchaseTitleDetails'], extensions: expect.objectContaining({ code: 'REGISTER_UNAVAILABLE' }) }),
    ]);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(0);
    svc.emulator.faults.clear();
    const bought = await svc.gql(PurchaseTitleDetailsMutation, details(key));
    expect(bought.data!.purchaseTitleDetails.charges).toHaveLength(1);
    expect(svc.emulator.ledger.count()).toBe(1);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(1);
  });
});
