import { describe, expect, test } from 'vitest';
import { CreateCaseMutation, PurchaseTitleDetailsMutation, TitleQuery } from '../support/documents';
import { newKey, serviceForTest } from '../support/harness';
import { postRaw } from '../support/post-raw';
import { TitleNumberScalar } from '../../src/graphql/schema/scalars';

describe('callers', () => {
  test('a request without credentials acts as dev-key-a with the embedded emulator', async () => {
    const svc = await serviceForTest();
    const { status, data } = await svc.gql(TitleQuery, { titleNumber: 'MID1234' }, null);
    expect(status).toBe(200);
    expect(data!.title!.titleNumber).toBe('MID1234');
    expect(svc.emulator.calls.list().find((c) => c.route === 'titleSummary')!.clientId).toBe('client-a');
  });

  test('an unknown key always gets 401', async () => {
    const svc = await serviceForTest();
    const { status, errors } = await svc.gql(TitleQuery, { titleNumber: 'MID1234' }, 'no-such-key');
    expect(status).toBe(401);
    expect(errors![0]!.extensions!.code).toBe('UNAUTHENTICATED');
    expect(svc.emulator.calls.count({ route: 'titleSummary' })).toBe(0);
  });

  test('a key sent without the Bearer scheme is told the scheme is missing, not that the key is unknown; nothing is sent', async () => {
    const svc = await serviceForTest();
    for (const authorization of ['dev-key-a', 'Basic dev-key-a', 'Bearer dev-key-a extra']) {
      const response = await postRaw(
        svc.yoga,
        { query: '{ title(titleNumber: "MID1234") { titleNumber } }' },
        { authorization, accept: null },
      );
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Bearer');
      const body = response.body as { errors: { message: string; extensions: { code: string } }[] };
      expect(body.errors[0]).toMatchObject({
        extensions: { code: 'UNAUTHENTICATED' },
        message: expect.stringContaining('must use the Bearer scheme'),
      });
      expect(body.errors[0]!.message).not.toContain('Unknown API key');
    }
    expect(svc.emulator.calls.count()).toBe(0);
  });

  test('against a real register, a request without credentials gets 401', async () => {
    const svc = await serviceForTest({ services: { anonymousKey: undefined } });
    const { status } = await svc.gql(TitleQuery, { titleNumber: 'MID1234' }, null);
    expect(status).toBe(401);
  });

  test('each key acts as its own register client', async () => {
    const svc = await serviceForTest();
    await svc.gql(TitleQuery, { titleNumber: 'MID1234' }, 'dev-key-b');
    await svc.gql(TitleQuery, { titleNumber: 'MID1234' }, 'dev-key-a2');
    const clients = svc.emulator.calls
      .list()
      .filter((c) => c.route === 'titleSummary')
      .map((c) => c.clientId);
    expect(clients).toEqual(['client-b', 'client-a2']);
  });
});

describe('scalars', () => {
  test('TitleNumber refuses malformed numbers at parse time, with no register call', async () => {
    const svc = await serviceForTest();
    for (const titleNumber of ['mid15313', 'MI15313', 'MID', 'MID123456789', 'MID 1']) {
      const { errors } = await svc.gql(TitleQuery, { titleNumber });
      expect(errors![0]!.message).toMatch(/TitleNumber must be 3 uppercase letters then 1 to 8 digits/);
    }
    expect(svc.emulator.calls.count()).toBe(0);
  });

  test('FasNumber refuses malformed accounts naming the rule, with no register call (the caller sees their own value)', async () => {
    const svc = await serviceForTest();
    for (const fas of ['087', '1234567', '12a4']) {
      const { errors } = await svc.gql(PurchaseTitleDetailsMutation, { fas, input: { titleNumber: 'MID15313', idempotencyKey: newKey() } });
      expect(errors![0]!.message).toBe(`Variable "$fas" got invalid value "${fas}": FasNumber must be 4 to 6 digits.`);
    }
    expect(svc.emulator.calls.count()).toBe(0);
  });

  test('a TitleNumber that is not a string is refused', () => {
    expect(() => TitleNumberScalar.parseValue(15313)).toThrow(/TitleNumber/);
  });

  test('CaseId refuses malformed ids', async () => {
    const svc = await serviceForTest();
    const { AddDeedToCaseMutation } = await import('../support/documents');
    const { errors } = await svc.gql(AddDeedToCaseMutation, {
      input: { caseId: 'RLP1ABC', deedType: 'DISPOSITION', subjectExtent: 'REGISTERED_WHOLE', idempotencyKey: newKey() },
    });
    expect(errors![0]!.message).toMatch(/CaseId must be RLP, 2 digits and 8 uppercase letters/);
  });
});

describe('register failures', () => {
  test('a register 5xx on a query is a top-level REGISTER_UNAVAILABLE error that leaks nothing', async () => {
    const svc = await serviceForTest();
    svc.emulator.faults.inject('titleSummary', { kind: 'status', status: 503 }, 10);
    const { data, errors } = await svc.gql(TitleQuery, { titleNumber: 'MID15313' });
    expect(data?.title ?? null).toBeNull();
    expect(errors![0]!.extensions!.code).toBe('REGISTER_UNAVAILABLE');
    const text = JSON.stringify(errors);
    expect(text).not.toMatch(/127\.0\.0\.1|http:|Bearer|secret-a|stack/i);
  });

  test('a POST that got no answer is OUTCOME_UNKNOWN, never re-sent, and replays as such', async () => {
    const svc = await serviceForTest();
    svc.emulator.faults.inject('createCase', { kind: 'reset', phase: 'after' }, 1);
    const variables = {
      fas: '1877',
      input: {
        reference: 'Lost answer',
        contactEmail: 'a@b.example',
        contactTelephone: '0131',
        titleNumbers: ['MID15313'],
        idempotencyKey: newKey(),
      },
    };
    const first = await svc.gql(CreateCaseMutation, variables);
    expect(first.data!.createCase.userErrors[0]!.code).toBe('OUTCOME_UNKNOWN');
    expect(svc.emulator.calls.count({ route: 'createCase' })).toBe(1);
    const replay = await svc.gql(CreateCaseMutation, variables);
    expect(replay.data!.createCase.userErrors[0]!.code).toBe('OUTCOME_UNKNOWN');
    expect(svc.emulator.calls.count({ route: 'createCase' })).toBe(1);
  });
});
