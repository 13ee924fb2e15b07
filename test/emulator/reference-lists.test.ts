import { BasicList, DetailedList, OrderedList } from '../../src/register/contract/wire';
import { describe, expect, test } from '../support/emulator-fixtures';

const DEED_TYPE = '/ref/lr/application/deed/type';

describe('reference lists', () => {
  test('discovery lists the list paths', async ({ api }) => {
    const r = await api.get('/ref');
    expect(r.status).toBe(200);
    expect(r.json).toEqual(
      expect.arrayContaining(['lr/creditor', 'lr/application/land-use', 'lr/application/category', 'lr/application/deed/type']),
    );
    for (const path of r.json) expect((await api.get(`/ref/${path}`)).status).toBe(200);
  });

  test('basic (default): value → label, inactive items left out', async ({ api }) => {
    const r = await api.get(DEED_TYPE);
    expect(BasicList.parse(r.json)).toEqual({ '1': 'Discharge of standard security', '11': 'Disposition', '20': 'Standard security' });
    expect((await api.get(`${DEED_TYPE}?view=basic`)).json).toEqual(r.json);
  });

  test('detailed: metadata and every item in maintainer order, values as numbers, inactive flagged', async ({ api }) => {
    const d = DetailedList.parse((await api.get(`${DEED_TYPE}?view=detailed`)).json);
    expect(d.metadata).toMatchObject({ name: expect.any(String), description: expect.any(String) });
    expect(d.items.slice(0, 3).map((i) => i.value)).toEqual([1, 11, 20]);
    expect(d.items.some((i) => i.active === false)).toBe(true);
    const creditors = DetailedList.parse((await api.get('/ref/lr/creditor?view=detailed')).json);
    expect(creditors.items.find((i) => i.value === 'SANT4')?.label).toBe('Santander UK plc');
    expect(creditors.metadata.metadataSchema).toBeTypeOf('object');
  });

  test('ordered: [{label, value}] in order, inactive left out', async ({ api }) => {
    const o = OrderedList.parse((await api.get(`${DEED_TYPE}?view=ordered`)).json);
    expect(o).toEqual([
      { label: 'Discharge of standard security', value: 1 },
      { label: 'Disposition', value: 11 },
      { label: 'Standard security', value: 20 },
    ]);
  });

  test('strong ETag per representation; If-None-Match → 304 with no body', async ({ api }) => {
    const basic = await api.get(DEED_TYPE);
    const detailed = await api.get(`${DEED_TYPE}?view=detailed`);
    const etag = basic.headers.get('etag')!;
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(detailed.headers.get('etag')).not.toBe(etag);
    expect((await api.get(DEED_TYPE)).headers.get('etag')).toBe(etag);
    const cached = await api.get(DEED_TYPE, { headers: { 'if-none-match': etag } });
    expect(cached.status).toBe(304);
    expect(cached.bytes.length).toBe(0);
    expect(cached.headers.get('etag')).toBe(etag);
    expect((await api.get(DEED_TYPE, { headers: { 'if-none-match': `"other", W/${etag}` } })).status).toBe(304);
    expect((await api.get(DEED_TYPE, { headers: { 'if-none-match': '"stale"' } })).status).toBe(200);
    expect((await api.get(`${DEED_TYPE}?view=ordered`, { headers: { 'if-none-match': etag } })).status).toBe(200);
  });

  test('branches, unknown paths and `schema` → 404 LIST_NOT_FOUND; bad view → 400', async ({ api }) => {
    for (const path of [
      'lr',
      'lr/application',
      'lr/application/deed',
      'lr/nothing',
      'schema',
      'lr/creditor/schema',
      'LR/creditor',
      'lr/creditor/',
    ]) {
      const r = await api.get(`/ref/${path}`);
      expect(r.status, path).toBe(404);
      expect(r.json.code).toBe('LIST_NOT_FOUND');
    }
    const bad = await api.get(`${DEED_TYPE}?view=full`);
    expect(bad.status).toBe(400);
    expect(bad.json).toMatchObject({ code: 'INVALID_REQUEST', field: 'view' });
  });
});
