import { describe, expect, LATIN1_BOUNDARIES, test } from '../support/emulator-fixtures';

describe('creditor search', () => {
  test('case-insensitive substring over designations, at most 15 results', async ({ api }) => {
    const r = await api.get('/creditors?query=bank');
    expect(r.status).toBe(200);
    expect(r.json).toHaveLength(15);
    for (const c of r.json) expect(c.designation.toLowerCase()).toContain('bank');
    const upper = await api.get('/creditors?query=BANK');
    expect(upper.json).toEqual(r.json);
  });

  test('Santander UK plc has code SANT4', async ({ api }) => {
    expect((await api.get('/creditors?query=santander')).json).toEqual([{ designation: 'Santander UK plc', creditorCode: 'SANT4' }]);
    expect((await api.get('/creditors?query=building%20society')).json.length).toBeGreaterThanOrEqual(4);
    expect((await api.get('/creditors?query=zzzzz')).json).toEqual([]);
  });

  test('query is required, 3 to 20 characters', async ({ api }) => {
    for (const q of ['', '?query=ba', `?query=${'a'.repeat(21)}`]) {
      const r = await api.get(`/creditors${q}`);
      expect(r.status, q).toBe(400);
      expect(r.json).toMatchObject({ code: 'INVALID_REQUEST', field: 'query' });
    }
    expect((await api.get(`/creditors?query=${'a'.repeat(20)}`)).status).toBe(200);
    expect((await api.get('/creditors?query=ban')).status).toBe(200);
  });

  test.for(LATIN1_BOUNDARIES)('Latin-1 boundary %s in the query', async ([, ch, ok], { api }) => {
    const r = await api.get(`/creditors?query=${encodeURIComponent(`ba${ch}nk`)}`);
    expect(r.status).toBe(ok ? 200 : 400);
    if (!ok) expect(r.json.message).toMatch(/^query: must contain only ISO-8859-1/);
  });
});
