/**
 * Errors a person can act on: the field path is the GraphQL input's, one error per field, in
 * our own words (no zod defaults, no wire names), the caller's own FAS shown to them, and a
 * document with several operations asks for operationName by name.
 */
import { describe, expect, test } from 'vitest';
import { AddDeedToCaseMutation, CreateCaseMutation, PurchaseTitleDetailsMutation, TitleQuery } from '../support/documents';
import { graphQLErrorFromRegister } from '../../src/graphql/errors';
import { CLIENT_ERROR_CODES, RegisterError } from '../../src/register/client';
import { FAULT_TEST_TRANSPORT } from '../support/fault-transport';
import { newKey, serviceForTest, type Service } from '../support/harness';
import { postRaw } from '../support/post-raw';

const caseInput = (more: Record<string, unknown> = {}) => ({
  reference: 'Smith to Jones',
  contactEmail: 'cases@macdonald.example',
  contactTelephone: '0131 496 0000',
  titleNumbers: ['MID15313'],
  idempotencyKey: newKey('case'),
  ...more,
});
const WIRE_WORDS = /agent\.|subjects|\bapplicants\b|\[redacted\]|\[fas\]|Too small|Too big|Invalid input|expected string/;

async function raw(svc: Service, body: Record<string, unknown>) {
  return (await postRaw(svc.yoga, body, { authorization: null })).body;
}

describe('field paths of register refusals', () => {
  test.each([
    ['ZZZ999', 'TITLE_NOT_FOUND', /^The register has no title ZZZ999\.$/],
    ['EDN42', 'TITLE_STATUS_NOT_SUPPORTED', /EDN42/],
  ])('createCase over %s: %s on ["input","titleNumbers","0"]', async (titleNumber, code, message) => {
    const svc = await serviceForTest();
    const { data } = await svc.gql(CreateCaseMutation, { fas: '1877', input: caseInput({ titleNumbers: [titleNumber] }) });
    const [error] = data!.createCase.userErrors;
    expect(error).toEqual({ code, message: expect.stringMatching(message), field: ['input', 'titleNumbers', '0'] });
    expect(error!.message).not.toMatch(WIRE_WORDS);
  });

  test('an unknown creditor code points at input.creditorApplicant.creditorCode, in GraphQL words', async () => {
    const svc = await serviceForTest();
    const { data } = await svc.gql(AddDeedToCaseMutation, {
      input: {
        caseId: 'RLP06ORGACASE',
        subjectExtent: 'REGISTERED_WHOLE',
        deedType: 'STANDARD_SECURITY',
        creditorApplicant: { creditorCode: 'NOPE1' },
        idempotencyKey: newKey('deed'),
      },
    });
    const [error] = data!.addDeedToCase.userErrors;
    expect(error).toEqual({
      code: 'DEED_RULE_VIOLATION',
      message: expect.stringContaining('NOPE1'),
      field: ['input', 'creditorApplicant', 'creditorCode'],
    });
    expect(error!.message).toMatch(/^input\.creditorApplicant\.creditorCode: /);
    expect(error!.message).not.toMatch(WIRE_WORDS);
  });
});

describe("the caller's own FAS is shown to them", () => {
  test('another organisation’s account', async () => {
    const svc = await serviceForTest();
    const { data } = await svc.gql(PurchaseTitleDetailsMutation, {
      fas: '5555',
      input: { titleNumber: 'MID15313', idempotencyKey: newKey() },
    });
    const [error] = data!.purchaseTitleDetails.userErrors;
    expect(error).toEqual({
      code: 'FAS_NOT_AUTHORISED',
      message: 'fas: 5555 is not a charging account of your organisation.',
      field: ['fas'],
    });
    expect(error!.message).not.toMatch(WIRE_WORDS);
    // Refused here, from the organisation's own list of accounts: the register is never asked.
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(0);
    expect(svc.emulator.ledger.count()).toBe(0);
  });

  test('a title account given as the case account: named, as `fas`, not `agent.fas`', async () => {
    const svc = await serviceForTest();
    const { data } = await svc.gql(CreateCaseMutation, { fas: '0877', input: caseInput() });
    const [error] = data!.createCase.userErrors;
    expect(error).toEqual({ code: 'FAS_NOT_AUTHORISED', message: expect.stringMatching(/^fas: 0877 /), field: ['fas'] });
    expect(error!.message).not.toMatch(WIRE_WORDS);
  });

  test('an account at its credit limit', async () => {
    const svc = await serviceForTest();
    const { data } = await svc.gql(PurchaseTitleDetailsMutation, {
      fas: '9999',
      input: { titleNumber: 'MID15313', idempotencyKey: newKey() },
    });
    expect(data!.purchaseTitleDetails.userErrors).toEqual([
      { code: 'CREDIT_LIMIT_EXCEEDED', message: 'FAS 9999 is at its credit limit; nothing was charged.', field: ['fas'] },
    ]);
  });
});

describe('input rules in our own words, one error per field', () => {
  test('an empty telephone says so, in words a person uses', async () => {
    const svc = await serviceForTest();
    const { data } = await svc.gql(CreateCaseMutation, { fas: '1877', input: caseInput({ contactTelephone: '' }) });
    expect(data!.createCase.userErrors).toEqual([
      { code: 'INVALID_INPUT', message: 'input.contactTelephone must not be empty.', field: ['input', 'contactTelephone'] },
    ]);
  });

  test('a field that breaks two rules gets one error', async () => {
    const svc = await serviceForTest();
    const { data } = await svc.gql(CreateCaseMutation, { fas: '1877', input: caseInput({ contactEmail: '€uro' }) });
    const errors = data!.createCase.userErrors.filter((e) => e.field?.join('.') === 'input.contactEmail');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).not.toMatch(WIRE_WORDS);
    expect(svc.emulator.calls.count({ route: 'createCase' })).toBe(0);
  });

  test('every broken field is still reported at once', async () => {
    const svc = await serviceForTest();
    const { data } = await svc.gql(CreateCaseMutation, {
      fas: '1877',
      input: caseInput({ contactTelephone: '', reference: 'x'.repeat(51) }),
    });
    expect(data!.createCase.userErrors.map((e) => e.field)).toEqual([
      ['input', 'reference'],
      ['input', 'contactTelephone'],
    ]);
    for (const e of data!.createCase.userErrors) expect(e.message).not.toMatch(WIRE_WORDS);
  });
});

describe('which operation to run', () => {
  test('several operations and no operationName: it is asked for, naming them', async () => {
    const svc = await serviceForTest();
    const body = await raw(svc, { query: 'query A { __typename } query B { __typename }' });
    expect(body.errors).toEqual([
      expect.objectContaining({
        message: 'operationName is required: the document has 2 operations (A, B); send the name of the one to run as operationName.',
        extensions: expect.objectContaining({ code: 'OPERATION_RESOLUTION_FAILURE' }),
      }),
    ]);
  });

  test('an operationName the document does not have', async () => {
    const svc = await serviceForTest();
    const body = await raw(svc, { query: 'query A { __typename } query B { __typename }', operationName: 'C' });
    expect(body.errors![0]!.message).toBe('The document has no operation named "C"; it has A, B.');
  });

  test('the named one runs', async () => {
    const svc = await serviceForTest();
    const body = await raw(svc, { query: 'query A { __typename } query B { __typename }', operationName: 'B' });
    expect(body.errors).toBeUndefined();
  });
});

describe("the register refusing this service's own sign-in", () => {
  // What a misconfigured API client gets from the register's token route: its words are about
  // the service's credentials, not anything the caller sent.
  const signInRefused = (status: number) => ({
    kind: 'status' as const,
    status,
    body: { code: 'INVALID_REQUEST', message: 'grant_type must be client_credentials', field: 'grant_type' },
  });
  const AUTH_FAILED = {
    message: expect.stringMatching(
      /^The register refused this service's sign-in .*nothing was sent to it \(REGISTER_AUTH_FAILED\)\. This is the service's configuration, not your request: its operator needs to check the register's address and the API client's credentials\./,
    ),
    extensions: expect.objectContaining({ code: 'REGISTER_AUTH_FAILED' }),
  };

  test.each([400, 403, 404])(
    'a query whose sign-in is refused %i: REGISTER_AUTH_FAILED in our words, not BAD_USER_INPUT; nothing sent',
    async (status) => {
      const svc = await serviceForTest();
      svc.emulator.faults.inject('token', signInRefused(status), 5);
      const { data, errors } = await svc.gql(TitleQuery, { titleNumber: 'MID15313' });
      expect(data?.title ?? null).toBeNull();
      expect(errors).toEqual([expect.objectContaining(AUTH_FAILED)]);
      expect(JSON.stringify(errors)).not.toMatch(/grant_type|client_credentials|INVALID_REQUEST|BAD_USER_INPUT/);
      expect(svc.emulator.calls.count({ route: 'token' })).toBeGreaterThan(0);
      expect(svc.emulator.calls.count({ route: 'titleSummary' })).toBe(0);
    },
  );

  test("a fresh process's first purchase: REGISTER_AUTH_FAILED, nothing charged or sent, and the same key buys once afterwards", async () => {
    const svc = await serviceForTest();
    svc.emulator.faults.inject('token', signInRefused(400), 5);
    const variables = { fas: '0877', input: { titleNumber: 'MID15313', idempotencyKey: newKey('sign-in') } };
    const refused = await svc.gql(PurchaseTitleDetailsMutation, variables);
    expect(refused.data).toBeNull();
    expect(refused.errors).toEqual([expect.objectContaining({ ...AUTH_FAILED, path: ['purchaseTitleDetails'] })]);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(0);
    expect(svc.emulator.ledger.count()).toBe(0);
    svc.emulator.faults.clear();
    const bought = await svc.gql(PurchaseTitleDetailsMutation, variables);
    expect(bought.data!.purchaseTitleDetails.charges).toHaveLength(1);
    expect(svc.emulator.ledger.count()).toBe(1);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(1);
  });

  test('a purchase whose expired token cannot be renewed: REGISTER_AUTH_FAILED, nothing charged or sent again, the key free', async () => {
    const svc = await serviceForTest();
    // The process knows the register's clock and holds a token; the register then forgets it.
    await svc.gql(TitleQuery, { titleNumber: 'MID15313' });
    svc.emulator.clock.advance(301_000);
    svc.emulator.faults.inject('token', signInRefused(400), 5);
    const variables = { fas: '0877', input: { titleNumber: 'MID15313', idempotencyKey: newKey('renewal') } };
    const refused = await svc.gql(PurchaseTitleDetailsMutation, variables);
    expect(refused.errors).toEqual([expect.objectContaining({ ...AUTH_FAILED, path: ['purchaseTitleDetails'] })]);
    expect(svc.emulator.ledger.count()).toBe(0);
    svc.emulator.faults.clear();
    const bought = await svc.gql(PurchaseTitleDetailsMutation, variables);
    expect(bought.data!.purchaseTitleDetails.charges).toHaveLength(1);
    expect(svc.emulator.ledger.count()).toBe(1);
  });
});

test('a bearer token refused again after one renewal: REGISTER_AUTH_FAILED, saying it was signed in again', async () => {
  const svc = await serviceForTest();
  svc.emulator.faults.inject('titleSummary', { kind: 'status', status: 401 }, 2);
  const { errors } = await svc.gql(TitleQuery, { titleNumber: 'MID15313' });
  expect(errors).toEqual([
    expect.objectContaining({
      message: expect.stringMatching(/^The register refused this service's access .*even after signing in again \(REGISTER_AUTH_FAILED\)/),
      extensions: expect.objectContaining({ code: 'REGISTER_AUTH_FAILED' }),
    }),
  ]);
  expect(svc.emulator.calls.count({ route: 'titleSummary', status: 401 })).toBe(2);
  expect(svc.emulator.calls.count({ route: 'token' })).toBe(2);
});

describe('a purchase that failed before it was carried out says so, and that its key can be sent again', () => {
  const NOT_CARRIED_OUT =
    /This request was not carried out, so nothing was charged or created: send it again with the same idempotencyKey\.$/;

  test.each([
    ['the sign-in reset', 'token', { kind: 'reset' }, 'REGISTER_UNAVAILABLE', /^The register could not answer \(REGISTER_UNAVAILABLE\)/],
    ['the sign-in answered 500', 'token', { kind: 'status', status: 500 }, 'REGISTER_UNAVAILABLE', /^The register could not answer/],
    ['the sign-in hung', 'token', { kind: 'hang' }, 'REGISTER_TIMEOUT', /^The register could not answer \(REGISTER_TIMEOUT\)/],
    [
      'the sign-in answered malformed JSON',
      'token',
      { kind: 'malformed' },
      'REGISTER_CONTRACT_ERROR',
      /^The register answered in a form its contract does not allow, so this service could not read the answer \(REGISTER_CONTRACT_ERROR\)\./,
    ],
    [
      'the purchase refused with a code the contract does not name',
      'titleDetails',
      { kind: 'status', status: 409, body: { code: 'NO_SUCH_CODE', message: 'conflict' } },
      'REGISTER_ERROR',
      /^The register refused the request, for a reason its contract does not name \(REGISTER_ERROR\)\./,
    ],
  ] as const)(
    '%s: a top-level error naming it, nothing charged, and the same key buys once',
    async (_name, route, fault, code, opening) => {
      const svc = await serviceForTest({ services: { transport: FAULT_TEST_TRANSPORT } });
      svc.emulator.faults.inject(route, fault, 10);
      const variables = { fas: '0877', input: { titleNumber: 'MID15313', idempotencyKey: newKey('not-carried-out') } };
      const failed = await svc.gql(PurchaseTitleDetailsMutation, variables);
      expect(failed.data).toBeNull();
      expect(failed.errors).toEqual([
        expect.objectContaining({
          path: ['purchaseTitleDetails'],
          message: expect.stringMatching(NOT_CARRIED_OUT),
          extensions: expect.objectContaining({ code }),
        }),
      ]);
      expect(failed.errors![0]!.message).toMatch(opening);
      expect(failed.errors![0]!.message).not.toMatch(/conflict|NO_SUCH_CODE/);
      expect(svc.emulator.ledger.count()).toBe(0);
      svc.emulator.faults.clear();
      const bought = await svc.gql(PurchaseTitleDetailsMutation, variables);
      expect(bought.data!.purchaseTitleDetails.charges).toHaveLength(1);
      expect(svc.emulator.ledger.count()).toBe(1);
      expect(svc.emulator.calls.count({ route: 'titleDetails', status: 200 })).toBe(1);
    },
  );

  test("a refusal by this service's database is not told twice: its own words already say so", () => {
    const error = new RegisterError({ status: 0, route: 'titleDetails', code: CLIENT_ERROR_CODES.serviceUnavailable });
    expect(graphQLErrorFromRegister(error, { notCarriedOut: true }).message).toBe(graphQLErrorFromRegister(error).message);
    expect(graphQLErrorFromRegister(error).message).toMatch(/nothing was sent to the register.*same idempotencyKey/);
  });

  test('a query that fails the same way says nothing of charges or keys', async () => {
    const svc = await serviceForTest({ services: { transport: FAULT_TEST_TRANSPORT } });
    svc.emulator.faults.inject('token', { kind: 'reset' }, 10);
    const { errors } = await svc.gql(TitleQuery, { titleNumber: 'MID15313' });
    expect(errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: 'REGISTER_UNAVAILABLE' }) })]);
    expect(errors![0]!.message).not.toMatch(/charged|idempotencyKey/);
  });
});

test('a purchase the register answers 429 without a Retry-After: RATE_LIMITED with the minute it is now held to, and the next refused here unsent', async () => {
  const svc = await serviceForTest();
  await svc.gql(TitleQuery, { titleNumber: 'MID15313' });
  svc.emulator.faults.inject('titleDetails', { kind: 'status', status: 429 }, 1);
  const limited = await svc.gql(PurchaseTitleDetailsMutation, {
    fas: '0877',
    input: { titleNumber: 'MID15313', idempotencyKey: newKey('429') },
  });
  expect(limited.data!.purchaseTitleDetails.userErrors).toEqual([
    { code: 'RATE_LIMITED', message: "The register's quota or rate limit was reached; retry after 60 s.", field: null },
  ]);
  const next = await svc.gql(PurchaseTitleDetailsMutation, {
    fas: '0877',
    input: { titleNumber: 'MID15313', idempotencyKey: newKey('429') },
  });
  expect(next.data!.purchaseTitleDetails.userErrors[0]!.message).toMatch(
    /^The register refused this organisation's calls \(429\); they are refused here until it allows them again, in (59|60) s/,
  );
  expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(1);
  expect(svc.emulator.ledger.count()).toBe(0);
});
