/** Every client method against the real emulator: happy paths parsed, register errors mapped. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CASE_ID_PATTERN } from '../../src/register/contract/rules';
import type { RegisterClient } from '../../src/register/client';
import { CALM, CLIENT_B, readAll, registerError, rig, type Rig } from '../support/register-rig';

let r: Rig;
let a: RegisterClient;
let b: RegisterClient;

beforeAll(async () => {
  r = await rig();
  const t = r.transport(CALM);
  a = r.client(t);
  b = r.client(t, CLIENT_B);
});
afterAll(async () => {
  await r.close();
});

describe('titles', () => {
  it('titleSummary: full for a registered title, reduced for a draft', async () => {
    const full = await a.titleSummary('MID15313', { requestId: 'req-1' });
    expect(full.data.titleNumber).toBe('MID15313');
    expect(full.data.status).toBe('REGISTERED');
    expect(full.data.plans).toHaveLength(2);
    expect(full.data.right?.addresses?.length).toBeGreaterThanOrEqual(2);
    const draft = await a.titleSummary('GLA5001');
    expect(draft.data.status).toBe('DRAFT');
  });

  it('titleDetails: parsed, charged once per day', async () => {
    const { body: first } = await a.titleDetails('MID15313', { fas: '0877', reference: 'ref-details' });
    expect(first.data.titleNumber).toBe('MID15313');
    expect(first.data.securities).toHaveLength(2);
    expect(first.charges).toHaveLength(1);
    expect(first.charges[0]).toMatchObject({ fas: '0877', reference: 'ref-details' });
    const { body: again } = await a.titleDetails('MID15313', { fas: '0877' });
    expect(again.charges).toHaveLength(0);
  });

  it('pendingApplications: list and charges', async () => {
    const { body: res } = await a.pendingApplications('MID15313', { fas: '0877' });
    expect(res.list.results).toBe(res.list.items.length);
    expect(res.list.items.some((i) => i.status?.code === 'C')).toBe(true);
    const { body: none } = await a.pendingApplications('MID1234', { fas: '0877' });
    expect(none.list.items).toHaveLength(0);
  });

  it('maps register errors to RegisterError with the register code', async () => {
    const notFound = await registerError(a.titleSummary('ZZZ999'));
    expect(notFound).toMatchObject({ status: 404, code: 'TITLE_NOT_FOUND', route: 'titleSummary', outcomeUnknown: false });
    const credit = await registerError(a.titleDetails('MID15313', { fas: '9999' }));
    expect(credit).toMatchObject({ status: 402, code: 'CREDIT_LIMIT_EXCEEDED', route: 'titleDetails' });
    const foreign = await registerError(a.titleDetails('MID15313', { fas: '5555' }));
    expect(foreign).toMatchObject({ status: 403, code: 'FAS_NOT_AUTHORISED' });
    const draft = await registerError(a.titleDetails('GLA5001', { fas: '0877' }));
    expect(draft).toMatchObject({ status: 422, code: 'TITLE_STATUS_NOT_SUPPORTED' });
  });
});

describe('documents and plans', () => {
  it('orderDocument then downloadDocument', async () => {
    const { body: order } = await a.orderDocument(
      'MID15313',
      { fas: '1234' },
      { titleSheet: { include: true, preambles: 'INLINE' }, applications: { include: true } },
    );
    expect(order.data.documentId).not.toBe('');
    const dl = await a.downloadDocument('MID15313', order.data.documentId);
    expect(dl.status).toBe(200);
    expect(dl.contentType).toMatch(/^application\/pdf/);
    const bytes = await readAll(dl.body);
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    if (dl.contentLength !== undefined) expect(dl.contentLength).toBe(bytes.length);
  });

  it("another client's document ID is DOCUMENT_NOT_FOUND", async () => {
    const { body: order } = await a.orderDocument('MID15313', { fas: '1234' }, { titleSheet: { include: true } });
    const e = await registerError(b.downloadDocument('MID15313', order.data.documentId));
    expect(e).toMatchObject({ status: 404, code: 'DOCUMENT_NOT_FOUND', route: 'downloadDocument' });
    const bad = await registerError(a.downloadDocument('bad', order.data.documentId));
    expect(bad).toMatchObject({ status: 400, code: 'INVALID_TITLE_NUMBER' });
  });

  it('purchasePlans then downloadPlan; no plans → 200, empty, no charge', async () => {
    const { body: res } = await a.purchasePlans('MID15313', { fas: '0877' });
    expect(res.plans).toHaveLength(2);
    const dl = await a.downloadPlan('MID15313', res.plans[0]!.planId);
    expect((await readAll(dl.body)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const { body: empty } = await a.purchasePlans('MID1234', { fas: '0877' });
    expect(empty).toEqual({ plans: [], charges: [] });
    const e = await registerError(a.downloadPlan('MID15313', 'no-such-plan'));
    expect(e).toMatchObject({ status: 404, code: 'DOCUMENT_NOT_FOUND', route: 'downloadPlan' });
  });
});

describe('securities, creditors, cases', () => {
  it('securities', async () => {
    const res = await a.securities('MID15313');
    expect(res.titleNumber).toBe('MID15313');
    expect(res.securities).toHaveLength(2);
    expect((await a.securities('GLA5001')).securities).toHaveLength(0);
  });

  it('creditors: at most 15, Santander is SANT4; a short query is INVALID_REQUEST on field query', async () => {
    const banks = await a.creditors('bank');
    expect(banks.length).toBeGreaterThan(0);
    expect(banks.length).toBeLessThanOrEqual(15);
    const sant = await a.creditors('Santander');
    expect(sant.find((c) => c.designation === 'Santander UK plc')?.creditorCode).toBe('SANT4');
    const e = await registerError(a.creditors('ab'));
    expect(e).toMatchObject({ status: 400, code: 'INVALID_REQUEST', field: 'query' });
  });

  it('createCase then addDeed; other organisations’ cases are CASE_NOT_FOUND', async () => {
    const created = await a.createCase({
      reference: 'client test',
      agent: { fas: '1877', contactEmail: 'agent@example.com', contactTelephone: '0131 000 0000' },
      subjects: [{ type: 'REGISTERED', titleNumber: 'MID1234' }],
    });
    expect(created.id).toMatch(CASE_ID_PATTERN);
    const deed = await a.addDeed(created.id, { deedType: '11', subjectExtent: 'REGISTERED_WHOLE' });
    expect(deed.id).not.toBe('');
    const e = await registerError(a.addDeed('RLP02ORGBCASE', { deedType: '11', subjectExtent: 'REGISTERED_WHOLE' }));
    expect(e).toMatchObject({ status: 404, code: 'CASE_NOT_FOUND', route: 'addDeed', outcomeUnknown: false });
  });
});

describe('reference lists', () => {
  it('listPaths and the three views, keeping slashes', async () => {
    const paths = await a.listPaths();
    expect(paths).toContain('lr/application/deed/type');
    expect(paths).not.toContain('schema');

    const basic = await a.referenceList('lr/application/deed/type', 'basic');
    if (basic.notModified) throw new Error('unexpected 304');
    expect(Object.keys(basic.body).sort()).toEqual(['1', '11', '20']);

    const detailed = await a.referenceList('lr/application/deed/type', 'detailed');
    if (detailed.notModified) throw new Error('unexpected 304');
    expect(detailed.body.items.map((i) => i.value)).toEqual(expect.arrayContaining([1, 11, 20]));
    expect(detailed.body.items.some((i) => i.active === false)).toBe(true);

    const ordered = await a.referenceList('lr/application/deed/type', 'ordered');
    if (ordered.notModified) throw new Error('unexpected 304');
    expect(ordered.body.map((i) => i.value)).toEqual(expect.arrayContaining([1, 11, 20]));
  });

  it('ETag and If-None-Match → notModified', async () => {
    const first = await a.referenceList('lr/creditor', 'detailed');
    if (first.notModified) throw new Error('unexpected 304');
    expect(first.etag).toBeTruthy();
    const second = await a.referenceList('lr/creditor', 'detailed', { ifNoneMatch: first.etag! });
    expect(second).toEqual({ notModified: true });
    const stale = await a.referenceList('lr/creditor', 'detailed', { ifNoneMatch: '"stale"' });
    expect(stale.notModified).toBe(false);
  });

  it('unknown and reserved paths are LIST_NOT_FOUND', async () => {
    expect(await registerError(a.referenceList('schema', 'basic'))).toMatchObject({ status: 404, code: 'LIST_NOT_FOUND' });
    expect(await registerError(a.referenceList('lr/nope', 'basic'))).toMatchObject({ status: 404, code: 'LIST_NOT_FOUND' });
  });
});
