import { describe, expect, test } from 'vitest';
import {
  OrderTitleDocumentMutation,
  PurchasePendingApplicationsMutation,
  PurchaseTitleDetailsMutation,
  PurchaseTitlePlansMutation,
} from '../support/documents';
import { endOfLondonDay } from '../../src/register/contract/london-day';
import { newKey, serviceForTest } from '../support/harness';

const input = (titleNumber: string, more: Record<string, unknown> = {}) => ({ titleNumber, idempotencyKey: newKey(), ...more });

describe('purchaseTitleDetails', () => {
  test('returns the title sheet and the charge as the register gave it, once per FAS and day', async () => {
    const svc = await serviceForTest();
    const first = await svc.gql(PurchaseTitleDetailsMutation, { fas: '0877', input: input('MID15313', { reference: 'Smith purchase' }) });
    const payload = first.data!.purchaseTitleDetails;
    expect(payload.userErrors).toEqual([]);
    expect(payload.details!.titleNumber).toBe('MID15313');
    expect(payload.details!.securities).toHaveLength(2);
    expect(payload.details!.burdens.length).toBeGreaterThan(0);
    expect(payload.details!.right!.notes.length).toBeGreaterThan(0);
    expect(payload.charges).toHaveLength(1);
    expect(payload.charges[0]).toMatchObject({ status: 'NEW', fee: '3.00', fas: '0877', reference: 'Smith purchase' });
    expect(svc.emulator.ledger.charges.map((c) => c.charge.transactionNumber)).toEqual([payload.charges[0]!.transactionNumber]);

    const again = await svc.gql(PurchaseTitleDetailsMutation, { fas: '0877', input: input('MID15313') });
    expect(again.data!.purchaseTitleDetails.details!.titleNumber).toBe('MID15313');
    expect(again.data!.purchaseTitleDetails.charges).toEqual([]);
    expect(svc.emulator.ledger.count()).toBe(1);
  });

  test.for<[string, string, string, string[]]>([
    ['ZZZ999', '0877', 'TITLE_NOT_FOUND', ['input', 'titleNumber']],
    ['EDN42', '0877', 'TITLE_STATUS_NOT_SUPPORTED', ['input', 'titleNumber']],
    ['GLA5001', '0877', 'TITLE_STATUS_NOT_SUPPORTED', ['input', 'titleNumber']],
    ['MID15313', '5555', 'FAS_NOT_AUTHORISED', ['fas']],
    ['MID15313', '1877', 'FAS_NOT_AUTHORISED', ['fas']],
    ['MID15313', '9999', 'CREDIT_LIMIT_EXCEEDED', ['fas']],
  ])('%s with FAS %s gives %s and charges nothing', async ([titleNumber, fas, code, field]) => {
    const svc = await serviceForTest();
    const { data } = await svc.gql(PurchaseTitleDetailsMutation, { fas, input: input(titleNumber) });
    const payload = data!.purchaseTitleDetails;
    expect(payload.details).toBeNull();
    expect(payload.charges).toEqual([]);
    expect(payload.userErrors).toEqual([expect.objectContaining({ code, field })]);
    expect(svc.emulator.ledger.count()).toBe(0);
  });

  test('a reference over 75 characters is INVALID_INPUT with no register call', async () => {
    const svc = await serviceForTest();
    const { data } = await svc.gql(PurchaseTitleDetailsMutation, { fas: '0877', input: input('MID15313', { reference: 'r'.repeat(76) }) });
    expect(data!.purchaseTitleDetails.userErrors).toEqual([
      {
        code: 'INVALID_INPUT',
        message: expect.stringMatching(/input\.reference must be at most 75 characters/),
        field: ['input', 'reference'],
      },
    ]);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(0);
    const atLimit = await svc.gql(PurchaseTitleDetailsMutation, { fas: '0877', input: input('MID15313', { reference: 'r'.repeat(75) }) });
    expect(atLimit.data!.purchaseTitleDetails.userErrors).toEqual([]);
  });
});

describe('purchasePendingApplications', () => {
  test('returns the pending application and the advance notice of MID15313', async () => {
    const svc = await serviceForTest();
    const { data } = await svc.gql(PurchasePendingApplicationsMutation, { fas: '1234', input: input('MID15313') });
    const payload = data!.purchasePendingApplications;
    expect(payload.userErrors).toEqual([]);
    expect(payload.pendingApplications!.results).toBe(payload.pendingApplications!.items.length);
    expect(payload.pendingApplications!.items.map((i) => i.type?.code)).toContain('AN');
    expect(payload.pendingApplications!.items.some((i) => i.status?.code === 'C' && i.status.prettyPrint === 'Confirmed')).toBe(true);
    expect(payload.charges).toEqual([expect.objectContaining({ status: 'NEW', fas: '1234' })]);
  });

  test('works for a draft title and refuses a closed one', async () => {
    const svc = await serviceForTest();
    const draft = await svc.gql(PurchasePendingApplicationsMutation, { fas: '0877', input: input('GLA5001') });
    expect(draft.data!.purchasePendingApplications.userErrors).toEqual([]);
    const closed = await svc.gql(PurchasePendingApplicationsMutation, { fas: '0877', input: input('EDN42') });
    expect(closed.data!.purchasePendingApplications.userErrors[0]!.code).toBe('TITLE_STATUS_NOT_SUPPORTED');
  });
});

describe('orderTitleDocument and its download', () => {
  test('orders a PDF that only the ordering client can download', async () => {
    const svc = await serviceForTest();
    const { data } = await svc.gql(OrderTitleDocumentMutation, {
      fas: '0877',
      input: input('MID15313', { titleSheet: { include: true, preambles: 'INLINE' }, applications: { include: true } }),
    });
    const payload = data!.orderTitleDocument;
    expect(payload.userErrors).toEqual([]);
    expect(payload.charges.map((c) => c.productType).sort()).toHaveLength(2);
    const document = payload.document!;
    // an absolute link signed for the ordering client; the bare path needs that client's key
    const path = `/downloads/titles/MID15313/documents/${encodeURIComponent(document.documentId)}`;
    expect(document.downloadUrl).toMatch(
      new RegExp(`^http://titlegraph\\.test${path}\\?client=client-a&expires=\\d+&(?:ends=day&)?kid=[0-9a-f]{8}&signature=[\\w-]+$`),
    );
    expect(new Date(document.expiresAt).getTime()).toBeGreaterThan(Date.now());

    const download = await svc.get(document.downloadUrl, null);
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe('application/pdf');
    expect(download.headers.get('content-disposition')).toMatch(/attachment; filename=".+\.pdf"/);
    const bytes = new Uint8Array(await download.arrayBuffer());
    expect(Number(download.headers.get('content-length'))).toBe(bytes.length);
    expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
    const again = new Uint8Array(await (await svc.get(document.downloadUrl)).arrayBuffer());
    expect(Buffer.from(again).equals(Buffer.from(bytes))).toBe(true);

    expect((await svc.get(path)).status).toBe(200); // the bare path, with the ordering client's key
    expect((await svc.get(path, 'dev-key-a2')).status).toBe(404); // same organisation, other client
    expect((await svc.get(path, 'dev-key-b')).status).toBe(404); // other organisation
    expect((await svc.get('/downloads/titles/MID15313/documents/nope')).status).toBe(404);
    expect((await svc.get(path, 'not-a-key')).status).toBe(401);
    expect((await svc.get(`/downloads/titles/mid15313/documents/${document.documentId}`)).status).toBe(400);
  });

  test('ids expire at the end of the register day of issue (Europe/London)', async () => {
    const svc = await serviceForTest();
    const { data } = await svc.gql(OrderTitleDocumentMutation, {
      fas: '0877',
      input: input('MID15313', { titleSheet: { include: true } }),
    });
    const document = data!.orderTitleDocument.document!;
    expect(document.expiresAt).toBe(endOfLondonDay(new Date()).toISOString());
    expect((await svc.get(document.downloadUrl)).status).toBe(200);
    svc.emulator.clock.set(new Date(new Date(document.expiresAt).getTime() + 1_000));
    expect((await svc.get(new URL(document.downloadUrl).pathname)).status).toBe(404);
  });

  test('a document with no part is INVALID_INPUT and nothing is charged or called', async () => {
    const svc = await serviceForTest();
    const { data } = await svc.gql(OrderTitleDocumentMutation, {
      fas: '0877',
      input: input('MID15313', { titleSheet: { include: false } }),
    });
    expect(data!.orderTitleDocument.userErrors[0]).toMatchObject({ code: 'INVALID_INPUT', field: ['input', 'titleSheet', 'include'] });
    expect(svc.emulator.calls.count({ route: 'orderDocument' })).toBe(0);
  });
});

describe('purchaseTitlePlans and plan downloads', () => {
  test('buys both plans of MID15313 and streams each', async () => {
    const svc = await serviceForTest();
    const { data } = await svc.gql(PurchaseTitlePlansMutation, { fas: '0877', input: input('MID15313') });
    const payload = data!.purchaseTitlePlans;
    expect(payload.userErrors).toEqual([]);
    expect(payload.plans).toHaveLength(2);
    expect(payload.charges).toHaveLength(1);
    for (const plan of payload.plans) {
      const response = await svc.get(plan.downloadUrl);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toBe('application/pdf');
      expect(new TextDecoder().decode(new Uint8Array(await response.arrayBuffer()).slice(0, 5))).toBe('%PDF-');
      expect((await svc.get(new URL(plan.downloadUrl).pathname, 'dev-key-b')).status).toBe(404);
    }
  });

  test('a title with no plans gives empty plans and no charge', async () => {
    const svc = await serviceForTest();
    const { data } = await svc.gql(PurchaseTitlePlansMutation, { fas: '0877', input: input('MID1234') });
    expect(data!.purchaseTitlePlans).toEqual({ plans: [], charges: [], userErrors: [] });
    expect(svc.emulator.ledger.count()).toBe(0);
  });

  test('title data, title sheet and plans of one title are one charge a day', async () => {
    const svc = await serviceForTest();
    await svc.gql(PurchaseTitleDetailsMutation, { fas: '0877', input: input('MID15313') });
    const plans = await svc.gql(PurchaseTitlePlansMutation, { fas: '0877', input: input('MID15313') });
    expect(plans.data!.purchaseTitlePlans.charges).toEqual([]);
    expect(plans.data!.purchaseTitlePlans.plans).toHaveLength(2);
    expect(svc.emulator.ledger.count()).toBe(1);
  });
});

describe('register quota', () => {
  test('a 429 from the register is RATE_LIMITED, as a userError on mutations and a top-level error on queries', async () => {
    const svc = await serviceForTest({ emulator: { dailyQuota: 1 } });
    const first = await svc.gql(PurchaseTitleDetailsMutation, { fas: '0877', input: input('MID1234') });
    expect(first.data!.purchaseTitleDetails.userErrors).toEqual([]);
    const limited = await svc.gql(PurchaseTitleDetailsMutation, { fas: '0877', input: input('MID15313') });
    expect(limited.data!.purchaseTitleDetails.userErrors[0]!.code).toBe('RATE_LIMITED');
  });
});
