import { describe, expect, test } from 'vitest';
import { CreateCaseMutation, PurchaseTitleDetailsMutation, PurchaseTitlePlansMutation } from '../support/documents';
import { newKey, serviceForTest } from '../support/harness';

describe('idempotency', () => {
  test('the same key with the same input returns the first result without a register call', async () => {
    const svc = await serviceForTest();
    const variables = { fas: '0877', input: { titleNumber: 'MID15313', reference: 'ref-1', idempotencyKey: newKey() } };
    const first = await svc.gql(PurchaseTitleDetailsMutation, variables);
    const calls = svc.emulator.calls.count({ route: 'titleDetails' });
    const replay = await svc.gql(PurchaseTitleDetailsMutation, variables);
    expect(replay.data).toEqual(first.data);
    expect(replay.data!.purchaseTitleDetails.charges).toHaveLength(1); // the first result, charge included
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(calls);
    expect(svc.emulator.ledger.count()).toBe(1);
  });

  test('the same key with different input is IDEMPOTENCY_KEY_REUSED and makes no call', async () => {
    const svc = await serviceForTest();
    const idempotencyKey = newKey();
    await svc.gql(PurchaseTitleDetailsMutation, { fas: '0877', input: { titleNumber: 'MID15313', idempotencyKey } });
    const other = await svc.gql(PurchaseTitleDetailsMutation, { fas: '1234', input: { titleNumber: 'MID15313', idempotencyKey } });
    expect(other.data!.purchaseTitleDetails.userErrors).toEqual([
      expect.objectContaining({ code: 'IDEMPOTENCY_KEY_REUSED', field: ['input', 'idempotencyKey'] }),
    ]);
    const otherOperation = await svc.gql(PurchaseTitlePlansMutation, { fas: '0877', input: { titleNumber: 'MID15313', idempotencyKey } });
    expect(otherOperation.data!.purchaseTitlePlans.userErrors[0]!.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(1);
    expect(svc.emulator.calls.count({ route: 'purchasePlans' })).toBe(0);
  });

  test('20 concurrent requests with one key make one register call and one case', async () => {
    const svc = await serviceForTest();
    const variables = {
      fas: '1877',
      input: {
        reference: 'Concurrent',
        contactEmail: 'a@b.example',
        contactTelephone: '0131',
        titleNumbers: ['MID15313'],
        idempotencyKey: newKey(),
      },
    };
    const results = await Promise.all(Array.from({ length: 20 }, () => svc.gql(CreateCaseMutation, variables)));
    const ids = new Set(results.map((r) => r.data!.createCase.case?.id));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toMatch(/^RLP/);
    expect(svc.emulator.calls.count({ route: 'createCase' })).toBe(1);
  });

  test('records survive a restart', async () => {
    const svc = await serviceForTest();
    const variables = { fas: '0877', input: { titleNumber: 'MID15313', idempotencyKey: newKey() } };
    const first = await svc.gql(PurchaseTitleDetailsMutation, variables);
    const restarted = await svc.restart();
    const replay = await restarted.gql(PurchaseTitleDetailsMutation, variables);
    expect(replay.data).toEqual(first.data);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(1);
  });

  test('keys are scoped per tenant', async () => {
    const svc = await serviceForTest();
    const idempotencyKey = newKey();
    const a = await svc.gql(PurchaseTitleDetailsMutation, { fas: '0877', input: { titleNumber: 'MID15313', idempotencyKey } }, 'dev-key-a');
    const b = await svc.gql(PurchaseTitleDetailsMutation, { fas: '5555', input: { titleNumber: 'MID15313', idempotencyKey } }, 'dev-key-b');
    expect(a.data!.purchaseTitleDetails.userErrors).toEqual([]);
    expect(b.data!.purchaseTitleDetails.userErrors).toEqual([]);
    expect(b.data!.purchaseTitleDetails.charges[0]!.fas).toBe('5555');
    expect(svc.emulator.ledger.count()).toBe(2);
  });

  test('a business failure is final for its key; invalid input claims nothing', async () => {
    const svc = await serviceForTest();
    const idempotencyKey = newKey();
    const limited = { fas: '9999', input: { titleNumber: 'MID15313', idempotencyKey } };
    const first = await svc.gql(PurchaseTitleDetailsMutation, limited);
    expect(first.data!.purchaseTitleDetails.userErrors[0]!.code).toBe('CREDIT_LIMIT_EXCEEDED');
    const replay = await svc.gql(PurchaseTitleDetailsMutation, limited);
    expect(replay.data).toEqual(first.data);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(1);

    const key2 = newKey();
    const invalid = await svc.gql(PurchaseTitleDetailsMutation, {
      fas: '0877',
      input: { titleNumber: 'MID15313', reference: 'r'.repeat(80), idempotencyKey: key2 },
    });
    expect(invalid.data!.purchaseTitleDetails.userErrors[0]!.code).toBe('INVALID_INPUT');
    const fixed = await svc.gql(PurchaseTitleDetailsMutation, {
      fas: '0877',
      input: { titleNumber: 'MID15313', reference: 'ok', idempotencyKey: key2 },
    });
    expect(fixed.data!.purchaseTitleDetails.userErrors).toEqual([]);
  });

  test('an idempotency key must be 1 to 255 printable characters', async () => {
    const svc = await serviceForTest();
    for (const idempotencyKey of ['', 'has space', 'k'.repeat(256)]) {
      const { data } = await svc.gql(PurchaseTitleDetailsMutation, { fas: '0877', input: { titleNumber: 'MID15313', idempotencyKey } });
      expect(data!.purchaseTitleDetails.userErrors[0]).toMatchObject({ code: 'INVALID_INPUT', field: ['input', 'idempotencyKey'] });
    }
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(0);
  });
});
