import { describe, expect, LATIN1_BOUNDARIES, test } from '../support/emulator-fixtures';

const valid = (over: Record<string, unknown> = {}) => ({
  reference: 'Purchase of 14 Dalhousie Road',
  agent: { fas: '1877', contactEmail: 'conveyancing@macdonald.example', contactTelephone: '0131 496 0000' },
  subjects: [{ type: 'REGISTERED', titleNumber: 'MID15313' }],
  ...over,
});

describe('create case', () => {
  test('201 {id} with a new case id, stored for the organisation', async ({ api, emu }) => {
    const r = await api.post('/cases', valid());
    expect(r.status).toBe(201);
    expect(r.json).toEqual({ id: expect.stringMatching(/^RLP\d{2}[A-Z]{8}$/) });
    expect(emu.state.cases.get(r.json.id)).toMatchObject({
      organisation: 'ORG-A',
      private: false,
      reference: 'Purchase of 14 Dalhousie Road',
      createdBy: 'client-a',
    });
    const other = await api.post('/cases', valid({ agent: { fas: '5877', contactEmail: 'a@b.example', contactTelephone: '1' } }), {
      client: 'client-b',
    });
    expect(other.status).toBe(201);
    expect(other.json.id).not.toBe(r.json.id);
  });

  test('the agent FAS must be a case account of the caller organisation → 403', async ({ api }) => {
    for (const [client, fas] of [
      ['client-a', '0877'],
      ['client-a', '5877'],
      ['client-b', '1877'],
      ['client-a', '0000'],
    ] as const) {
      const r = await api.post('/cases', valid({ agent: { fas, contactEmail: 'x@y.example', contactTelephone: '1' } }), { client });
      expect(r.status, `${client} ${fas}`).toBe(403);
      expect(r.json).toMatchObject({ code: 'FAS_NOT_AUTHORISED', field: 'agent.fas' });
    }
  });

  test('the title must exist (404) and be registered (422)', async ({ api, emu }) => {
    const missing = await api.post('/cases', valid({ subjects: [{ type: 'REGISTERED', titleNumber: 'ZZZ999' }] }));
    expect(missing.status).toBe(404);
    expect(missing.json.code).toBe('TITLE_NOT_FOUND');
    const draft = await api.post('/cases', valid({ subjects: [{ type: 'REGISTERED', titleNumber: 'GLA5001' }] }));
    expect(draft.status).toBe(422);
    expect(draft.json.code).toBe('TITLE_STATUS_NOT_SUPPORTED');
    expect([...emu.state.cases.values()].filter((c) => !c.seeded)).toHaveLength(0);
  });

  test('400 names every broken field; nothing is created', async ({ api, emu }) => {
    const before = emu.state.cases.size;
    const r = await api.post('/cases', {
      reference: 'r'.repeat(51),
      agent: { fas: '18', contactEmail: '', contactTelephone: '0131' },
      subjects: [
        { type: 'REGISTERED', titleNumber: 'MID15313' },
        { type: 'REGISTERED', titleNumber: 'MID1234' },
      ],
    });
    expect(r.status).toBe(400);
    expect(r.json.code).toBe('INVALID_REQUEST');
    expect(r.json.field).toBe('reference');
    expect(r.json.message).toBe(
      'reference: must be at most 50 characters; agent.fas: must be 4 to 6 digits; agent.contactEmail: must not be empty; subjects: must hold exactly one title at present',
    );
    for (const body of [
      valid({ subjects: [] }),
      valid({ subjects: [{ type: 'DRAFT', titleNumber: 'MID15313' }] }),
      valid({ extra: true }),
      valid({ agent: undefined }),
    ]) {
      expect((await api.post('/cases', body)).status).toBe(400);
    }
    expect((await api.post('/cases', undefined)).json).toMatchObject({ code: 'INVALID_REQUEST', field: 'body' });
    expect((await api.call('POST', '/cases', { rawBody: '{not json', headers: { 'content-type': 'application/json' } })).json.message).toBe(
      'body: must be valid JSON',
    );
    expect(emu.state.cases.size).toBe(before);
    expect((await api.post('/cases', valid({ reference: 'r'.repeat(50) }))).status).toBe(201);
  });

  test.for(LATIN1_BOUNDARIES)('Latin-1 boundary %s in reference, email and telephone', async ([, ch, ok], { api, emu }) => {
    const before = emu.state.cases.size;
    const r1 = await api.post('/cases', valid({ reference: `Ref ${ch}` }));
    const r2 = await api.post('/cases', valid({ agent: { fas: '1877', contactEmail: `a${ch}@b.example`, contactTelephone: `0131${ch}` } }));
    expect(r1.status).toBe(ok ? 201 : 400);
    expect(r2.status).toBe(ok ? 201 : 400);
    if (!ok) {
      expect(r1.json).toMatchObject({ field: 'reference', message: expect.stringMatching(/^reference: must contain only ISO-8859-1/) });
      expect(r2.json.message).toMatch(/^agent\.contactEmail: .*; agent\.contactTelephone: /);
    }
    expect(emu.state.cases.size).toBe(before + (ok ? 2 : 0));
  });
});
