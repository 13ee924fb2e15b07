import { describe, expect, LATIN1_BOUNDARIES, test, type Api } from '../support/emulator-fixtures';

const ORG_A_CASE = 'RLP06ORGACASE'; // ORG-A, over MID15313 (registered)
const party = {
  type: 'NATURAL',
  firstName: 'Catriona',
  lastName: 'Kerr',
  address: { number: 22, street: 'Lothian Street', town: 'Bonnyrigg', postcode: 'EH19 3AE', country: 'Scotland' },
};
const creditor = (creditorCode = 'SANT4') => ({ type: 'CREDITOR', creditorCode });
const deed = (over: Record<string, unknown> = {}) => ({ deedType: '11', subjectExtent: 'REGISTERED_WHOLE', ...over });

async function securityIds(api: Api, titleNumber = 'MID15313'): Promise<string[]> {
  return (await api.get(`/titles/${titleNumber}/securities`)).json.securities.map((s: { id: string }) => s.id);
}

describe('add deed: the case', () => {
  test('201 {id}; the deed is stored on the case', async ({ api, emu }) => {
    const r = await api.post(
      `/cases/${ORG_A_CASE}/deeds`,
      deed({ applicants: [party], granters: [party], notificationEmails: ['a@b.example'] }),
    );
    expect(r.status).toBe(201);
    expect(r.json).toEqual({ id: expect.any(String) });
    expect(emu.state.cases.get(ORG_A_CASE)!.deeds.map((d) => d.id)).toEqual([r.json.id]);
    expect(emu.state.deeds).toHaveLength(1);
  });

  test('works on a case created through the API', async ({ api }) => {
    const c = await api.post('/cases', {
      reference: 'API case',
      agent: { fas: '1877', contactEmail: 'a@b.example', contactTelephone: '1' },
      subjects: [{ type: 'REGISTERED', titleNumber: 'BLK9' }],
    });
    expect((await api.post(`/cases/${c.json.id}/deeds`, deed({ deedType: '20', applicants: [creditor('BOS1')] }))).status).toBe(201);
  });

  test('a malformed case id → 400 INVALID_REQUEST field caseId', async ({ api }) => {
    for (const id of ['RLP1ABCDEFGH', 'rlp01privcase', 'RLP01PRIVCAS', 'XYZ01PRIVCASE']) {
      const r = await api.post(`/cases/${id}/deeds`, deed());
      expect(r.status, id).toBe(400);
      expect(r.json).toMatchObject({ code: 'INVALID_REQUEST', field: 'caseId' });
    }
  });

  test('unknown, private and other-organisation cases → 404 CASE_NOT_FOUND', async ({ api }) => {
    for (const id of ['RLP99NOSUCHCS', 'RLP01PRIVCASE', 'RLP02ORGBCASE']) {
      const r = await api.post(`/cases/${id}/deeds`, deed());
      expect(r.status, id).toBe(404);
      expect(r.json.code).toBe('CASE_NOT_FOUND');
    }
    expect((await api.post('/cases/RLP02ORGBCASE/deeds', deed(), { client: 'client-b' })).status).toBe(201);
    expect((await api.post(`/cases/${ORG_A_CASE}/deeds`, deed(), { client: 'client-b' })).status).toBe(404);
  });

  test('the subject must be a single registered or draft title → 422 DEED_RULE_VIOLATION', async ({ api }) => {
    for (const id of ['RLP04CLOSEDTL', 'RLP05MULTITTL']) {
      const r = await api.post(`/cases/${id}/deeds`, deed());
      expect(r.status, id).toBe(422);
      expect(r.json).toMatchObject({ code: 'DEED_RULE_VIOLATION', field: 'subjects' });
    }
    expect((await api.post('/cases/RLP03DRAFTTTL/deeds', deed({ applicants: [party] }))).status).toBe(201);
  });
});

describe('add deed: type rules', () => {
  test('only deed types 1, 11, 20 and subject extent REGISTERED_WHOLE → else 400', async ({ api }) => {
    for (const deedType of ['2', '5', '30', 11, '']) {
      const r = await api.post(`/cases/${ORG_A_CASE}/deeds`, deed({ deedType }));
      expect(r.status).toBe(400);
      expect(r.json.field).toBe('deedType');
    }
    const part = await api.post(`/cases/${ORG_A_CASE}/deeds`, deed({ subjectExtent: 'REGISTERED_PART' }));
    expect(part.json).toMatchObject({ code: 'INVALID_REQUEST', field: 'subjectExtent' });
  });

  test('securityId and mortgageNumbers only on a discharge over a registered title', async ({ api }) => {
    const [id] = await securityIds(api);
    const onDisposition = await api.post(`/cases/${ORG_A_CASE}/deeds`, deed({ securityId: id }));
    expect(onDisposition.json).toMatchObject({ code: 'DEED_RULE_VIOLATION', field: 'securityId' });
    const mortgages = await api.post(
      `/cases/${ORG_A_CASE}/deeds`,
      deed({ deedType: '20', applicants: [creditor()], mortgageNumbers: ['M1'] }),
    );
    expect(mortgages.json).toMatchObject({ code: 'DEED_RULE_VIOLATION', field: 'mortgageNumbers' });
    const overDraft = await api.post('/cases/RLP03DRAFTTTL/deeds', deed({ deedType: '1', securityId: 'ANY' }));
    expect(overDraft.status).toBe(422);
    expect(overDraft.json.field).toBe('securityId');
    const ok = await api.post(
      `/cases/${ORG_A_CASE}/deeds`,
      deed({ deedType: '1', securityId: id, mortgageNumbers: ['SANT-99812', 'SANT-99813'] }),
    );
    expect(ok.status).toBe(201);
  });

  test('a securityId not among the title’s securities → 404 SECURITY_NOT_FOUND', async ({ api }) => {
    const r = await api.post(`/cases/${ORG_A_CASE}/deeds`, deed({ deedType: '1', securityId: 'NOSUCHSECURITY' }));
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({ code: 'SECURITY_NOT_FOUND', field: 'securityId' });
    // Another title's security id is not this title's.
    const [absorbed] = await securityIds(api, 'REN9');
    expect((await api.post(`/cases/${ORG_A_CASE}/deeds`, deed({ deedType: '1', securityId: absorbed }))).status).toBe(404);
    // A discharge without a securityId is fine (chosen in the user interface).
    expect((await api.post(`/cases/${ORG_A_CASE}/deeds`, deed({ deedType: '1' }))).status).toBe(201);
  });

  test('a standard security needs exactly one creditor applicant with a known code', async ({ api, emu }) => {
    for (const applicants of [undefined, [], [party], [creditor(), creditor('BOS1')], [creditor('NOPE1')]]) {
      const r = await api.post(`/cases/${ORG_A_CASE}/deeds`, deed({ deedType: '20', ...(applicants ? { applicants } : {}) }));
      expect(r.status, JSON.stringify(applicants)).toBe(422);
      expect(r.json).toMatchObject({ code: 'DEED_RULE_VIOLATION', field: 'applicants' });
    }
    expect(emu.state.deeds).toHaveLength(0);
    expect(
      (await api.post(`/cases/${ORG_A_CASE}/deeds`, deed({ deedType: '20', applicants: [creditor()], granters: [party] }))).status,
    ).toBe(201);
  });

  test('a discharge takes no applicants; a disposition takes parties, not creditors', async ({ api }) => {
    const discharge = await api.post(`/cases/${ORG_A_CASE}/deeds`, deed({ deedType: '1', applicants: [party] }));
    expect(discharge.json).toMatchObject({ code: 'DEED_RULE_VIOLATION', field: 'applicants' });
    const disposition = await api.post(`/cases/${ORG_A_CASE}/deeds`, deed({ applicants: [party, creditor()] }));
    expect(disposition.status).toBe(422);
    expect(disposition.json.code).toBe('DEED_RULE_VIOLATION');
    expect(disposition.json.field).toMatch(/^applicants/);
  });
});

describe('add deed: limits and characters (400, nothing created)', () => {
  const over = (n: number, len = 5) => Array.from({ length: n }, (_, i) => `${i}`.padStart(len, 'x'));

  test.for([
    ['securityId', { deedType: '1', securityId: 'x'.repeat(21) }, 'securityId: must be at most 20 characters'],
    ['securityId', { deedType: '1', securityId: '' }, 'securityId: must be at least 1 character'],
    ['mortgageNumbers', { deedType: '1', mortgageNumbers: over(26) }, 'mortgageNumbers: must have at most 25 items'],
    ['mortgageNumbers.0', { deedType: '1', mortgageNumbers: ['m'.repeat(51)] }, 'mortgageNumbers.0: must be at most 50 characters'],
    ['mortgageNumbers.1', { deedType: '1', mortgageNumbers: ['ok', ''] }, 'mortgageNumbers.1: must be at least 1 character'],
    ['notificationEmails', { notificationEmails: over(5) }, 'notificationEmails: must have at most 4 items'],
    ['notificationEmails.0', { notificationEmails: ['e'.repeat(256)] }, 'notificationEmails.0: must be at most 255 characters'],
  ] as const)('%s', async ([field, body, message], { api, emu }) => {
    const r = await api.post(`/cases/${ORG_A_CASE}/deeds`, deed(body));
    expect(r.status).toBe(400);
    expect(r.json).toEqual({ code: 'INVALID_REQUEST', field, message });
    expect(emu.state.deeds).toHaveLength(0);
  });

  test('the limits themselves are accepted', async ({ api }) => {
    const r = await api.post(
      `/cases/${ORG_A_CASE}/deeds`,
      deed({ deedType: '1', mortgageNumbers: over(25, 50), notificationEmails: over(4, 255) }),
    );
    expect(r.status).toBe(201);
  });

  test('several broken fields are all reported', async ({ api }) => {
    const r = await api.post('/cases/bad/deeds', deed({ deedType: '9', notificationEmails: over(5), extra: 1 }));
    expect(r.status).toBe(400);
    expect(r.json.field).toBe('caseId');
    expect(r.json.message).toBe(
      'caseId: must be RLP, 2 digits and 8 uppercase letters; deedType: must be one of "1", "11", "20"; notificationEmails: must have at most 4 items; extra: is not an allowed field',
    );
  });

  test.for(LATIN1_BOUNDARIES)(
    'Latin-1 boundary %s in parties, mortgage numbers, e-mails and creditor codes',
    async ([, ch, ok], { api, emu }) => {
      const bodies = [
        deed({ applicants: [{ ...party, firstName: `Cat${ch}` }] }),
        deed({ granters: [{ ...party, address: { ...party.address, street: `Lothian${ch}Street` } }] }),
        deed({ deedType: '1', mortgageNumbers: [`M${ch}1`] }),
        deed({ notificationEmails: [`a${ch}@b.example`] }),
      ];
      for (const body of bodies) expect((await api.post(`/cases/${ORG_A_CASE}/deeds`, body)).status).toBe(ok ? 201 : 400);
      const code = await api.post(`/cases/${ORG_A_CASE}/deeds`, deed({ deedType: '20', applicants: [creditor(`SANT${ch}`)] }));
      // A well-formed but unknown creditor code is a rule violation, a non-Latin-1 one is invalid input.
      expect(code.status).toBe(ok ? 422 : 400);
      if (!ok) expect(code.json.field).toBe('applicants.0.creditorCode');
      expect(emu.state.deeds).toHaveLength(ok ? 4 : 0);
    },
  );
});
