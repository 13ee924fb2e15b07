import { Charge } from '../../src/register/contract/wire';
import { describe, expect, NOON_ISH, test } from '../support/emulator-fixtures';

describe('charging: one charge per FAS, title, product and London day', () => {
  test.override({ emuOptions: { now: () => NOON_ISH } });

  test('a chargeable call makes one NEW charge in the wire shape, recorded in the ledger', async ({ api, emu }) => {
    const r = await api.get('/titles/MID15313/details?fas=0877&reference=Sale%20of%2014%20Dalhousie');
    const [charge] = r.json.charges;
    expect(Charge.parse(charge)).toEqual({
      status: 'NEW',
      productType: 'TITLE_DATA_AND_PLANS',
      details: expect.stringContaining('MID15313'),
      fee: '3.00',
      fas: '0877',
      transactionNumber: expect.any(String),
      reference: 'Sale of 14 Dalhousie',
    });
    expect(emu.ledger.charges).toHaveLength(1);
    expect(emu.ledger.charges[0]).toMatchObject({ charge, clientId: 'client-a', organisation: 'ORG-A', titleNumber: 'MID15313' });
    expect(emu.ledger.charges[0]!.at).toEqual(NOON_ISH);
  });

  test('asking again the same day with the same FAS returns the data with no charge', async ({ api, emu }) => {
    const first = await api.get('/titles/MID15313/details?fas=0877');
    const again = await api.get('/titles/MID15313/details?fas=0877', { client: 'client-a2' });
    expect(again.json.charges).toEqual([]);
    expect(again.json.data).toEqual(first.json.data);
    // Plans and the title sheet are the same product: no new charge either.
    const plans = await api.post('/titles/MID15313/plans?fas=0877');
    expect(plans.json.charges).toEqual([]);
    expect(plans.json.plans).toHaveLength(2);
    const doc = await api.post('/titles/MID15313/documents?fas=0877', { titleSheet: { include: true } });
    expect(doc.json.charges).toEqual([]);
    // Another FAS, another title or another product is charged.
    expect((await api.get('/titles/MID15313/details?fas=1234')).json.charges).toHaveLength(1);
    expect((await api.get('/titles/MID1234/details?fas=0877')).json.charges).toHaveLength(1);
    expect((await api.get('/titles/MID15313/pending-applications?fas=0877')).json.charges[0].productType).toBe('PENDING_APPLICATIONS');
    expect(emu.ledger.count()).toBe(4);
    expect(emu.ledger.count({ fas: '0877' })).toBe(3);
    expect(emu.ledger.count({ titleNumber: 'MID15313', productType: 'TITLE_DATA_AND_PLANS' })).toBe(2);
    expect(emu.ledger.count({ clientId: 'client-a2' })).toBe(0);
  });

  test('charging starts again on the next London day', async ({ api, emu }) => {
    expect((await api.get('/titles/MID15313/details?fas=0877')).json.charges).toHaveLength(1);
    emu.clock.set(new Date('2025-06-10T22:59:00Z')); // 23:59 BST, same London day
    api.forgetTokens();
    expect((await api.get('/titles/MID15313/details?fas=0877')).json.charges).toHaveLength(0);
    emu.clock.set(new Date('2025-06-10T23:00:00Z')); // London midnight
    expect((await api.get('/titles/MID15313/details?fas=0877')).json.charges).toHaveLength(1);
    expect(emu.ledger.count()).toBe(2);
  });

  test('a document with both parts makes two charges; transaction numbers are unique', async ({ api, emu }) => {
    const r = await api.post('/titles/MID15313/documents?fas=1234&reference=both', {
      titleSheet: { include: true, preambles: 'INLINE' },
      applications: { include: true },
    });
    expect(r.status).toBe(201);
    expect(r.json.charges.map((c: Charge) => c.productType)).toEqual(['TITLE_DATA_AND_PLANS', 'PENDING_APPLICATIONS']);
    await api.get('/titles/BLK1/details?fas=1234');
    await api.get('/titles/BLK2/details?fas=0877', { client: 'client-a2' });
    await api.get('/titles/BLK2/details?fas=5555', { client: 'client-b' });
    const numbers = emu.ledger.charges.map((e) => e.charge.transactionNumber);
    expect(numbers).toHaveLength(5);
    expect(new Set(numbers).size).toBe(5);
  });

  test('concurrent identical calls are charged once', async ({ api, emu }) => {
    await api.tokenFor('client-a');
    const all = await Promise.all(Array.from({ length: 10 }, () => api.get('/titles/BLK77/details?fas=0877')));
    expect(all.every((r) => r.status === 200)).toBe(true);
    expect(all.flatMap((r) => r.json.charges)).toHaveLength(1);
    expect(emu.ledger.count({ titleNumber: 'BLK77' })).toBe(1);
  });

  test('buying plans of a title with none: 200, empty, no charge, and no 402 either', async ({ api, emu }) => {
    expect((await api.post('/titles/MID1234/plans?fas=0877')).json).toEqual({ plans: [], charges: [] });
    const limited = await api.post('/titles/MID1234/plans?fas=9999');
    expect(limited.status).toBe(200);
    expect(limited.json).toEqual({ plans: [], charges: [] });
    expect(emu.ledger.count()).toBe(0);
  });

  test('ordering a document with no part included → 400, nothing charged or issued', async ({ api, emu }) => {
    for (const body of [{}, { titleSheet: { include: false } }, { titleSheet: { include: false }, applications: { include: false } }]) {
      const r = await api.post('/titles/MID15313/documents?fas=0877', body);
      expect(r.status).toBe(400);
      expect(r.json.code).toBe('INVALID_REQUEST');
    }
    const extra = await api.post('/titles/MID15313/documents?fas=0877', { titleSheet: { include: true, preambles: 'ANNEX' }, extra: 1 });
    expect(extra.json.message).toContain('titleSheet.preambles');
    expect(extra.json.message).toContain('extra: is not an allowed field');
    expect(emu.ledger.count()).toBe(0);
    expect(emu.state.documents.size).toBe(0);
  });

  test('nothing is charged on any 400, 403, 404 or 422', async ({ api, emu }) => {
    const paths = [
      '/titles/MID15313/details?fas=12',
      `/titles/MID15313/details?fas=0877&reference=${'x'.repeat(80)}`,
      '/titles/MID15313/details?fas=1877',
      '/titles/ZZZ999/details?fas=0877',
      '/titles/EDN42/details?fas=0877',
      '/titles/mid1/pending-applications?fas=0877',
    ];
    for (const p of paths) expect((await api.get(p)).status).toBeGreaterThanOrEqual(400);
    expect((await api.post('/titles/MID15313/plans?fas=0')).status).toBe(400);
    expect((await api.post('/titles/ABN7/plans?fas=0877')).status).toBe(422);
    expect(emu.ledger.count()).toBe(0);
  });
});

describe('credit limit', () => {
  test('FAS 9999 is at its limit: chargeable calls → 402, free calls keep working', async ({ api, emu }) => {
    for (const [method, path, body] of [
      ['GET', '/titles/MID15313/details?fas=9999'],
      ['GET', '/titles/MID15313/pending-applications?fas=9999'],
      ['POST', '/titles/MID15313/plans?fas=9999'],
      ['POST', '/titles/MID15313/documents?fas=9999', { applications: { include: true } }],
    ] as const) {
      const r = await api.call(method, path, body ? { body } : {});
      expect(r.status, path).toBe(402);
      expect(r.json.code).toBe('CREDIT_LIMIT_EXCEEDED');
    }
    expect(emu.ledger.count()).toBe(0);
    expect(emu.state.documents.size).toBe(0);
    expect((await api.get('/titles/MID15313/summary')).status).toBe(200);
    expect((await api.get('/titles/MID15313/securities')).status).toBe(200);
    expect((await api.get('/creditors?query=bank')).status).toBe(200);
    expect((await api.get('/titles/MID15313/details?fas=0877')).status).toBe(200);
  });
});

describe('fees', () => {
  test.override({ emuOptions: { fees: { PENDING_APPLICATIONS: '4.50' } } });
  test('are configurable per product', async ({ api }) => {
    expect((await api.get('/titles/MID15313/pending-applications?fas=0877')).json.charges[0].fee).toBe('4.50');
    expect((await api.get('/titles/MID15313/details?fas=0877')).json.charges[0].fee).toBe('3.00');
  });
});
