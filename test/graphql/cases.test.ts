import { describe, expect, test } from 'vitest';
import type { AddDeedToCaseInput } from '../gql/graphql';
import { AddDeedToCaseMutation, CreateCaseMutation, TitleWithSecuritiesQuery } from '../support/documents';
import { newKey, type Service, serviceForTest } from '../support/harness';

const caseInput = (more: Record<string, unknown> = {}) => ({
  reference: 'Smith to Jones',
  contactEmail: 'conveyancing@macdonald.example',
  contactTelephone: '0131 496 0000',
  titleNumbers: ['MID15313'],
  idempotencyKey: newKey('case'),
  ...more,
});

async function newCase(svc: Service, titleNumber = 'MID15313'): Promise<string> {
  const { data } = await svc.gql(CreateCaseMutation, { fas: '1877', input: caseInput({ titleNumbers: [titleNumber] }) });
  expect(data!.createCase.userErrors).toEqual([]);
  return data!.createCase.case!.id;
}

/** A deed input; `more` may deliberately break rules, so it is typed loosely. */
const deed = (caseId: string, more: Record<string, unknown>) =>
  ({ caseId, subjectExtent: 'REGISTERED_WHOLE', idempotencyKey: newKey('deed'), ...more }) as AddDeedToCaseInput;

const buyer = {
  type: 'NATURAL',
  firstName: 'Mòrag',
  lastName: 'Macleod',
  address: { number: 12, street: 'Rose Street', town: 'Edinburgh', postcode: 'EH2 2PR' },
};

describe('createCase', () => {
  test('creates a case over one registered title', async () => {
    const svc = await serviceForTest();
    const { data } = await svc.gql(CreateCaseMutation, { fas: '1877', input: caseInput() });
    expect(data!.createCase.userErrors).toEqual([]);
    expect(data!.createCase.case).toEqual({
      id: expect.stringMatching(/^RLP\d{2}[A-Z]{8}$/),
      reference: 'Smith to Jones',
      titleNumbers: ['MID15313'],
    });
  });

  test.for<[string, Record<string, unknown>, string, string[] | undefined]>([
    ['a title-information FAS', { fas: '0877' }, 'FAS_NOT_AUTHORISED', ['fas']],
    ["another organisation's FAS", { fas: '5877' }, 'FAS_NOT_AUTHORISED', ['fas']],
    ['an unknown title', { titleNumbers: ['ZZZ999'] }, 'TITLE_NOT_FOUND', undefined],
    ['a draft title', { titleNumbers: ['GLA5001'] }, 'TITLE_STATUS_NOT_SUPPORTED', undefined],
  ])('refuses %s', async ([_label, change, code, field]) => {
    const svc = await serviceForTest();
    const { fas = '1877', ...more } = change as { fas?: string };
    const { data } = await svc.gql(CreateCaseMutation, { fas, input: caseInput(more) });
    expect(data!.createCase.case).toBeNull();
    expect(data!.createCase.userErrors[0]!.code).toBe(code);
    if (field) expect(data!.createCase.userErrors[0]!.field).toEqual(field);
  });

  test('names every broken field at once and sends nothing upstream', async () => {
    const svc = await serviceForTest();
    const { data } = await svc.gql(CreateCaseMutation, {
      fas: '1877',
      input: caseInput({
        reference: 'r'.repeat(51),
        contactEmail: 'not-an-email',
        contactTelephone: 'tel\u0100',
        titleNumbers: ['MID15313', 'MID1234'],
      }),
    });
    const fields = data!.createCase.userErrors.map((e) => e.field!.join('.'));
    expect(data!.createCase.userErrors.every((e) => e.code === 'INVALID_INPUT')).toBe(true);
    expect(fields).toEqual(
      expect.arrayContaining(['input.reference', 'input.contactEmail', 'input.contactTelephone', 'input.titleNumbers']),
    );
    expect(data!.createCase.userErrors.find((e) => e.field!.join('.') === 'input.reference')!.message).toMatch(/at most 50 characters/);
    expect(svc.emulator.calls.count({ route: 'createCase' })).toBe(0);
  });

  test.for<[string, boolean]>([
    ['\u00A0', false],
    ['\u00AD', false],
    ['\u0100', false],
    ['\u00A1', true],
    ['\u00AC', true],
    ['\u00AE', true],
    ['\u00FF', true],
  ])('the case reference with %j is accepted: %s', async ([ch, accepted]) => {
    const svc = await serviceForTest();
    const { data } = await svc.gql(CreateCaseMutation, { fas: '1877', input: caseInput({ reference: `Ref ${ch}` }) });
    if (accepted) expect(data!.createCase.userErrors).toEqual([]);
    else
      expect(data!.createCase.userErrors).toEqual([
        expect.objectContaining({
          code: 'INVALID_INPUT',
          field: ['input', 'reference'],
          message: expect.stringMatching(/input\.reference character \d+ .*is not allowed/),
        }),
      ]);
  });

  test('a reference of exactly 50 characters is accepted', async () => {
    const svc = await serviceForTest();
    const { data } = await svc.gql(CreateCaseMutation, { fas: '1877', input: caseInput({ reference: 'r'.repeat(50) }) });
    expect(data!.createCase.userErrors).toEqual([]);
  });
});

describe('addDeedToCase', () => {
  test('adds a disposition with granters and applicants', async () => {
    const svc = await serviceForTest();
    const caseId = await newCase(svc);
    const { data } = await svc.gql(AddDeedToCaseMutation, {
      input: deed(caseId, {
        deedType: 'DISPOSITION',
        applicants: [buyer],
        granters: [{ type: 'NATURAL', firstName: 'Ian', lastName: 'Smith' }],
        notificationEmails: ['a@b.example'],
      }),
    });
    expect(data!.addDeedToCase.userErrors).toEqual([]);
    expect(data!.addDeedToCase.deed).toEqual({ id: expect.any(String), caseId, deedType: 'DISPOSITION' });
  });

  test('adds a standard security with its creditor applicant', async () => {
    const svc = await serviceForTest();
    const caseId = await newCase(svc);
    const { data } = await svc.gql(AddDeedToCaseMutation, {
      input: deed(caseId, { deedType: 'STANDARD_SECURITY', creditorApplicant: { creditorCode: 'SANT4' } }),
    });
    expect(data!.addDeedToCase.userErrors).toEqual([]);
    expect(data!.addDeedToCase.deed!.deedType).toBe('STANDARD_SECURITY');
  });

  test('discharges a security listed for the title, and refuses an unknown one', async () => {
    const svc = await serviceForTest();
    const caseId = await newCase(svc);
    const { data: listing } = await svc.gql(TitleWithSecuritiesQuery, { titleNumber: 'MID15313' });
    const securityId = listing!.title!.securities![0]!.id;
    const ok = await svc.gql(AddDeedToCaseMutation, {
      input: deed(caseId, { deedType: 'DISCHARGE_OF_STANDARD_SECURITY', securityId, mortgageNumbers: ['M-1'] }),
    });
    expect(ok.data!.addDeedToCase.userErrors).toEqual([]);
    const unknown = await svc.gql(AddDeedToCaseMutation, {
      input: deed(caseId, { deedType: 'DISCHARGE_OF_STANDARD_SECURITY', securityId: 'NOSUCHSEC' }),
    });
    expect(unknown.data!.addDeedToCase.userErrors).toEqual([
      expect.objectContaining({ code: 'SECURITY_NOT_FOUND', field: ['input', 'securityId'] }),
    ]);
  });

  test.for<[string, string]>([
    ['RLP01PRIVCASE', 'a private case'],
    ['RLP02ORGBCASE', "another organisation's case"],
    ['RLP99NOSUCHCS', 'an unknown case'],
  ])('gives CASE_NOT_FOUND for %s (%s)', async ([caseId]) => {
    const svc = await serviceForTest();
    const { data } = await svc.gql(AddDeedToCaseMutation, { input: deed(caseId, { deedType: 'DISPOSITION', applicants: [buyer] }) });
    expect(data!.addDeedToCase.userErrors).toEqual([expect.objectContaining({ code: 'CASE_NOT_FOUND', field: ['input', 'caseId'] })]);
  });

  test('accepts a deed on a case created outside the API, over a draft title', async () => {
    const svc = await serviceForTest();
    const { data } = await svc.gql(AddDeedToCaseMutation, {
      input: deed('RLP03DRAFTTTL', { deedType: 'DISPOSITION', applicants: [buyer] }),
    });
    expect(data!.addDeedToCase.userErrors).toEqual([]);
  });

  test('refuses a discharge naming a security over a draft title (register rule)', async () => {
    const svc = await serviceForTest();
    const { data } = await svc.gql(AddDeedToCaseMutation, {
      input: deed('RLP03DRAFTTTL', { deedType: 'DISCHARGE_OF_STANDARD_SECURITY', securityId: 'SEC1' }),
    });
    expect(data!.addDeedToCase.userErrors[0]!.code).toBe('DEED_RULE_VIOLATION');
  });

  test.for<[string, Record<string, unknown>, string]>([
    ['securityId on a disposition', { deedType: 'DISPOSITION', securityId: 'SEC1' }, 'input.securityId'],
    [
      'mortgageNumbers on a standard security',
      { deedType: 'STANDARD_SECURITY', creditorApplicant: { creditorCode: 'SANT4' }, mortgageNumbers: ['1'] },
      'input.mortgageNumbers',
    ],
    ['a standard security without creditor', { deedType: 'STANDARD_SECURITY' }, 'input.creditorApplicant'],
    [
      'a standard security with other applicants',
      { deedType: 'STANDARD_SECURITY', creditorApplicant: { creditorCode: 'SANT4' }, applicants: [buyer] },
      'input.applicants',
    ],
    ['applicants on a discharge', { deedType: 'DISCHARGE_OF_STANDARD_SECURITY', applicants: [buyer] }, 'input.applicants'],
    ['a creditor on a disposition', { deedType: 'DISPOSITION', creditorApplicant: { creditorCode: 'SANT4' } }, 'input.creditorApplicant'],
    ['securityId of 21 characters', { deedType: 'DISCHARGE_OF_STANDARD_SECURITY', securityId: 's'.repeat(21) }, 'input.securityId'],
    ['an empty securityId', { deedType: 'DISCHARGE_OF_STANDARD_SECURITY', securityId: '' }, 'input.securityId'],
    [
      '26 mortgage numbers',
      { deedType: 'DISCHARGE_OF_STANDARD_SECURITY', mortgageNumbers: Array.from({ length: 26 }, (_, i) => `M${i}`) },
      'input.mortgageNumbers',
    ],
    [
      'a mortgage number of 51 characters',
      { deedType: 'DISCHARGE_OF_STANDARD_SECURITY', mortgageNumbers: ['m'.repeat(51)] },
      'input.mortgageNumbers.0',
    ],
    [
      '5 notification e-mails',
      { deedType: 'DISPOSITION', notificationEmails: Array.from({ length: 5 }, (_, i) => `n${i}@x.example`) },
      'input.notificationEmails',
    ],
    [
      'an e-mail of 256 characters',
      { deedType: 'DISPOSITION', notificationEmails: [`${'e'.repeat(246)}@x.example`] },
      'input.notificationEmails.0',
    ],
    [
      'a granter name outside Latin-1',
      { deedType: 'DISPOSITION', granters: [{ type: 'NATURAL', lastName: 'Ł' }] },
      'input.granters.0.lastName',
    ],
  ])('refuses %s as INVALID_INPUT without a register call', async ([_label, change, field]) => {
    const svc = await serviceForTest();
    const { data } = await svc.gql(AddDeedToCaseMutation, { input: deed('RLP03DRAFTTTL', change) });
    expect(data!.addDeedToCase.deed).toBeNull();
    expect(data!.addDeedToCase.userErrors.map((e) => e.field!.join('.'))).toContain(field);
    expect(data!.addDeedToCase.userErrors.every((e) => e.code === 'INVALID_INPUT')).toBe(true);
    expect(svc.emulator.calls.count({ route: 'addDeed' })).toBe(0);
  });

  test('accepts every list at its limit', async () => {
    const svc = await serviceForTest();
    const caseId = await newCase(svc);
    const { data: listing } = await svc.gql(TitleWithSecuritiesQuery, { titleNumber: 'MID15313' });
    const { data } = await svc.gql(AddDeedToCaseMutation, {
      input: deed(caseId, {
        deedType: 'DISCHARGE_OF_STANDARD_SECURITY',
        securityId: listing!.title!.securities![0]!.id,
        mortgageNumbers: Array.from({ length: 25 }, (_, i) => `${i}`.padStart(50, 'M')),
        notificationEmails: Array.from({ length: 4 }, (_, i) => `${'e'.repeat(244)}${i}@x.example`),
      }),
    });
    expect(data!.addDeedToCase.userErrors).toEqual([]);
  });
});
