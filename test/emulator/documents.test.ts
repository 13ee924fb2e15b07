import { PDFDocument } from 'pdf-lib';
import { describe, expect, NOON_ISH, pdfText, test, type Api } from '../support/emulator-fixtures';

async function order(
  api: Api,
  body: unknown = { titleSheet: { include: true, preambles: 'INLINE' } },
  client: 'client-a' | 'client-b' = 'client-a',
) {
  const r = await api.post(`/titles/MID15313/documents?fas=${client === 'client-b' ? '5555' : '0877'}`, body, { client });
  expect(r.status).toBe(201);
  return r.json.data.documentId as string;
}

const isPdf = (bytes: Uint8Array) => Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '%PDF-';

describe('title documents', () => {
  test.override({ emuOptions: { now: () => NOON_ISH } });

  test('download: a real PDF, identical bytes every time, with PDF headers', async ({ api }) => {
    const id = await order(api);
    expect(id).toMatch(/^[A-Za-z0-9_-]{16,}$/);
    const a = await api.get(`/titles/MID15313/documents/${id}`);
    const b = await api.get(`/titles/MID15313/documents/${id}`);
    expect(a.status).toBe(200);
    expect(isPdf(a.bytes)).toBe(true);
    expect(Buffer.compare(a.bytes, b.bytes)).toBe(0);
    expect(a.headers.get('content-type')).toBe('application/pdf');
    expect(Number(a.headers.get('content-length'))).toBe(a.bytes.length);
    expect(a.headers.get('content-disposition')).toBe('attachment; filename="MID15313-title-sheet.pdf"');
    const pdf = await PDFDocument.load(a.bytes);
    expect(pdf.getPageCount()).toBeGreaterThanOrEqual(1);
    expect(pdf.getTitle()).toContain('MID15313');
    const text = pdfText(a.bytes);
    expect(text).toContain('Title number MID15313');
    expect(text).toMatch(/1\. Feu Disposition by the Marquess of Lothian/); // preamble inline
    expect(text).not.toContain('Annex: preambles');
  });

  test('the document holds the parts asked for', async ({ api }) => {
    const sheet = (await api.get(`/titles/MID15313/documents/${await order(api, { titleSheet: { include: true } })}`)).bytes;
    const apps = (await api.get(`/titles/MID15313/documents/${await order(api, { applications: { include: true } })}`)).bytes;
    const both = (
      await api.get(`/titles/MID15313/documents/${await order(api, { titleSheet: { include: true }, applications: { include: true } })}`)
    ).bytes;
    for (const b of [sheet, apps, both]) expect(isPdf(b)).toBe(true);
    const [s, a, b] = [pdfText(sheet), pdfText(apps), pdfText(both)];
    for (const section of ['A. Property section', 'B. Proprietorship section', 'C. Securities section', 'D. Burdens section']) {
      expect(s).toContain(section);
      expect(b).toContain(section);
      expect(a).not.toContain(section);
    }
    expect(s).toContain('Annex: preambles'); // preambles not asked inline
    expect(a).toContain('Advance notices and pending applications');
    expect(a).toContain('MID24A018833');
    expect(b).toContain('MID24N004417');
    expect(s).not.toContain('MID24A018833');
    expect(s).toContain('£245,000');
  });

  test('IDs are bound to the client: client-a2 (same organisation) and client-b get 404', async ({ api, emu }) => {
    const id = await order(api);
    for (const client of ['client-a2', 'client-b'] as const) {
      const r = await api.get(`/titles/MID15313/documents/${id}`, { client });
      expect(r.status).toBe(404);
      expect(r.json.code).toBe('DOCUMENT_NOT_FOUND');
    }
    const theirs = await order(api, undefined, 'client-b');
    expect((await api.get(`/titles/MID15313/documents/${theirs}`)).status).toBe(404);
    expect((await api.get(`/titles/MID15313/documents/${theirs}`, { client: 'client-b' })).status).toBe(200);
    expect(emu.state.documents.get(id)).toMatchObject({ kind: 'document', clientId: 'client-a', titleNumber: 'MID15313' });
  });

  test('unknown IDs, another title in the path → 404; malformed title number → 400', async ({ api }) => {
    const id = await order(api);
    expect((await api.get('/titles/MID15313/documents/nope')).json.code).toBe('DOCUMENT_NOT_FOUND');
    expect((await api.get(`/titles/MID1234/documents/${id}`)).json.code).toBe('DOCUMENT_NOT_FOUND');
    expect((await api.get(`/titles/ZZZ999/documents/${id}`)).json.code).toBe('DOCUMENT_NOT_FOUND');
    const bad = await api.get(`/titles/mid15313/documents/${id}`);
    expect(bad.status).toBe(400);
    expect(bad.json.code).toBe('INVALID_TITLE_NUMBER');
    // A document ID is not a plan ID.
    expect((await api.get(`/titles/MID15313/plans/${id}`)).json.code).toBe('DOCUMENT_NOT_FOUND');
  });

  test('IDs expire at the end of the London day of issue', async ({ api, emu }) => {
    const id = await order(api);
    expect(emu.state.documents.get(id)!.expiresAt.toISOString()).toBe('2025-06-10T23:00:00.000Z');
    emu.clock.set(new Date('2025-06-10T22:59:59Z'));
    api.forgetTokens();
    expect((await api.get(`/titles/MID15313/documents/${id}`)).status).toBe(200);
    emu.clock.set(new Date('2025-06-10T23:00:00Z'));
    const r = await api.get(`/titles/MID15313/documents/${id}`);
    expect(r.status).toBe(404);
    expect(r.json.code).toBe('DOCUMENT_NOT_FOUND');
  });

  test('only registered titles can be ordered', async ({ api }) => {
    const r = await api.post('/titles/GLA5001/documents?fas=0877', { applications: { include: true } });
    expect(r.status).toBe(422);
    expect(r.json.code).toBe('TITLE_STATUS_NOT_SUPPORTED');
  });
});

describe('plans', () => {
  test.override({ emuOptions: { now: () => NOON_ISH, largePlanBytes: 3 * 1024 * 1024 + 7 } });

  test('purchase issues a plan ID per plan; each plan is a drawn PDF', async ({ api }) => {
    const r = await api.post('/titles/MID15313/plans?fas=0877&reference=plans');
    expect(r.status).toBe(200);
    expect(r.json.charges).toHaveLength(1);
    expect(r.json.plans.map((p: { type: string }) => p.type)).toEqual(['PLAN', 'SUPPLEMENTARY_PLAN']);
    const [p1, p2] = r.json.plans as { planId: string }[];
    const a = await api.get(`/titles/MID15313/plans/${p1!.planId}`);
    const b = await api.get(`/titles/MID15313/plans/${p2!.planId}`);
    expect(a.headers.get('content-disposition')).toBe('attachment; filename="MID15313-plan-1.pdf"');
    expect(isPdf(a.bytes) && isPdf(b.bytes)).toBe(true);
    expect(Buffer.compare(a.bytes, b.bytes)).not.toBe(0);
    expect((await PDFDocument.load(a.bytes)).getPageCount()).toBe(1);
    expect(pdfText(a.bytes)).toMatch(/MID15313[\s\S]*Title plan[\s\S]*Scale 1:\d+/);
    expect(pdfText(b.bytes)).toContain('Supplementary plan');
    // Bytes are stable across downloads and across purchases.
    const again = (await api.post('/titles/MID15313/plans?fas=0877')).json.plans[0].planId as string;
    expect(again).not.toBe(p1!.planId);
    expect(Buffer.compare((await api.get(`/titles/MID15313/plans/${again}`)).bytes, a.bytes)).toBe(0);
  });

  test('plan IDs are bound to the client and expire at London midnight', async ({ api, emu }) => {
    const { planId } = (await api.post('/titles/MID15313/plans?fas=0877')).json.plans[0];
    expect((await api.get(`/titles/MID15313/plans/${planId}`, { client: 'client-a2' })).json.code).toBe('DOCUMENT_NOT_FOUND');
    expect((await api.get(`/titles/MID15313/plans/${planId}`, { client: 'client-b' })).status).toBe(404);
    expect((await api.get(`/titles/MID15313/plans/${planId}`)).status).toBe(200);
    emu.clock.set(new Date('2025-06-11T00:00:00Z'));
    api.forgetTokens();
    expect((await api.get(`/titles/MID15313/plans/${planId}`)).json.code).toBe('DOCUMENT_NOT_FOUND');
    expect((await api.get(`/titles/bad/plans/${planId}`)).json.code).toBe('INVALID_TITLE_NUMBER');
  });

  test('LAN50 has one plan exactly largePlanBytes long, a valid PDF, streamed', async ({ api }) => {
    const r = await api.post('/titles/LAN50/plans?fas=0877');
    expect(r.json.plans).toHaveLength(1);
    const big = await api.get(`/titles/LAN50/plans/${r.json.plans[0].planId}`);
    expect(big.status).toBe(200);
    expect(Number(big.headers.get('content-length'))).toBe(3 * 1024 * 1024 + 7);
    expect(big.bytes.length).toBe(3 * 1024 * 1024 + 7);
    expect(isPdf(big.bytes)).toBe(true);
    expect(Buffer.from(big.bytes.subarray(-6)).toString('latin1')).toBe('%%EOF\n');
    expect((await PDFDocument.load(big.bytes)).getPageCount()).toBe(1);
    const again = await api.get(`/titles/LAN50/plans/${r.json.plans[0].planId}`);
    expect(Buffer.compare(again.bytes, big.bytes)).toBe(0);
  });
});
