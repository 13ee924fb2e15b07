import {
  SecuritiesResponse,
  TitleDetailsResponse,
  TitleSummaryResponse,
  PendingApplicationsResponse,
} from '../../src/register/contract/wire';
import { onTestFinished } from 'vitest';
import { startEmulator } from '../../src/emulator/index';
import { Api, describe, expect, test } from '../support/emulator-fixtures';

const REDUCED = [
  ['GLA5001', 'DRAFT'],
  ['EDN42', 'CLOSED'],
  ['ABN7', 'CANCELLED'],
  ['FFE300', 'AMALGAMATED'],
  ['REN9', 'ABSORBED'],
] as const;

describe('title summary (free, every status)', () => {
  test('MID15313 is complete: addresses, considerations, plans and applications', async ({ api }) => {
    const r = await api.get('/titles/MID15313/summary');
    expect(r.status).toBe(200);
    const { data } = TitleSummaryResponse.parse(r.json);
    expect(data).toMatchObject({ titleNumber: 'MID15313', status: 'REGISTERED', right: { type: 'OWNERSHIP' } });
    expect(data.right!.addresses!.length).toBeGreaterThanOrEqual(2);
    for (const a of data.right!.addresses!) expect(a.uprn).toMatch(/^\d{12}$/);
    expect(data.proprietorships!.flatMap((p) => p.considerationEntries).map((c) => c.consideration)).toEqual([
      '£245,000',
      'love, favour and affection',
    ]);
    expect(data.plans).toHaveLength(2);
    expect(data.plans!.every((p) => !('planId' in p))).toBe(true);
    expect(data.applications!.map((a) => a.type?.code).sort()).toEqual(['AN', 'DW']);
  });

  test.for(REDUCED)('%s (%s) has a reduced summary', async ([titleNumber, status], { api }) => {
    const r = await api.get(`/titles/${titleNumber}/summary`);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ data: { titleNumber, status, titleType: 'GENERAL' } });
  });

  test('unknown and malformed title numbers', async ({ api }) => {
    const missing = await api.get('/titles/ZZZ999/summary');
    expect(missing.status).toBe(404);
    expect(missing.json.code).toBe('TITLE_NOT_FOUND');
    for (const bad of ['MID', 'mid15313', 'MI15313', 'MID123456789', 'BLK0', 'MID15313X']) {
      const r = await api.get(`/titles/${bad}/summary`);
      if (bad === 'BLK0') {
        expect(r.status).toBe(404); // well formed, just not a title
        continue;
      }
      expect(r.status, bad).toBe(400);
      expect(r.json).toMatchObject({ code: 'INVALID_TITLE_NUMBER', field: 'titleNumber' });
    }
  });

  test('BLK titles are generated reproducibly and varied', async ({ api, emu }) => {
    const first = await api.get('/titles/BLK17/summary');
    const again = await api.get('/titles/BLK17/summary');
    expect(first.text).toBe(again.text);
    expect((await api.get('/titles/BLK5000/summary')).status).toBe(200);
    expect((await api.get('/titles/BLK5001/summary')).status).toBe(404);
    const towns = new Set<string>();
    const planCounts = new Set<number>();
    const securityCounts = new Set<number>();
    for (let n = 1; n <= 40; n++) {
      const s = TitleSummaryResponse.parse((await api.get(`/titles/BLK${n}/summary`)).json).data;
      towns.add(s.right!.addresses![0]!.town!);
      planCounts.add(s.plans!.length);
      securityCounts.add((await api.get(`/titles/BLK${n}/securities`)).json.securities.length);
    }
    expect(towns.size).toBeGreaterThan(5);
    expect(planCounts.has(0)).toBe(true);
    expect(securityCounts.has(0)).toBe(true);
    expect(Math.max(...securityCounts)).toBeGreaterThan(0);
    // A second emulator generates exactly the same content.
    const other = await startEmulator();
    onTestFinished(() => other.close());
    expect(other.url).not.toBe(emu.url);
    expect((await new Api(other).get('/titles/BLK17/summary')).text).toBe(first.text);
  });
});

describe('title details (registered only)', () => {
  test('MID15313 in full: proprietorships, securities, burdens, notes, schedules, boundary notes', async ({ api }) => {
    const r = await api.get('/titles/MID15313/details?fas=0877&reference=My%20ref');
    expect(r.status).toBe(200);
    const { data, charges } = TitleDetailsResponse.parse(r.json);
    expect(charges).toHaveLength(1);
    expect(data.securities).toHaveLength(2);
    expect(data.securities.map((s) => s.creditor)).toContain('Santander UK plc');
    expect(data.burdens[0]!.entries.length).toBeGreaterThan(0);
    expect(data.right.notes.length).toBeGreaterThan(0);
    expect(data.right.schedules[0]!.entries[0]!.subEntries[0]!.benefittedProperty).toBeTruthy();
    expect(data.right.boundaryNotes!.notes.length).toBeGreaterThan(0);
    expect(data.proprietorships[0]!.details[0]!.proprietors).toHaveLength(2);
  });

  test('MID1234 is minimal', async ({ api }) => {
    const { data } = TitleDetailsResponse.parse((await api.get('/titles/MID1234/details?fas=0877')).json);
    expect(data.securities).toEqual([]);
    expect((await api.get('/titles/MID1234/summary')).json.data.plans).toEqual([]);
  });

  test.for(REDUCED)('%s (%s) → 422 TITLE_STATUS_NOT_SUPPORTED', async ([titleNumber], { api, emu }) => {
    const r = await api.get(`/titles/${titleNumber}/details?fas=0877`);
    expect(r.status).toBe(422);
    expect(r.json.code).toBe('TITLE_STATUS_NOT_SUPPORTED');
    expect(emu.ledger.count()).toBe(0);
  });
});

describe('pending applications (registered and draft)', () => {
  test('MID15313: one confirmed application and one advance notice', async ({ api }) => {
    const { list } = PendingApplicationsResponse.parse((await api.get('/titles/MID15313/pending-applications?fas=0877')).json);
    expect(list.results).toBe(2);
    const an = list.items.find((i) => i.type?.code === 'AN')!;
    const pending = list.items.find((i) => i.type?.code !== 'AN')!;
    expect(pending.status).toEqual({ code: 'C', prettyPrint: 'Confirmed' });
    expect(an.validFrom && an.validTo).toBeTruthy();
  });

  test('MID1234 has none; GLA5001 (draft) is allowed', async ({ api }) => {
    expect((await api.get('/titles/MID1234/pending-applications?fas=0877')).json.list).toEqual({ results: 0, items: [] });
    const draft = await api.get('/titles/GLA5001/pending-applications?fas=0877');
    expect(draft.status).toBe(200);
    expect(draft.json.list.results).toBe(draft.json.list.items.length);
  });

  test.for(REDUCED.filter(([, s]) => s !== 'DRAFT'))('%s (%s) → 422', async ([titleNumber], { api }) => {
    const r = await api.get(`/titles/${titleNumber}/pending-applications?fas=0877`);
    expect(r.status).toBe(422);
    expect(r.json.code).toBe('TITLE_STATUS_NOT_SUPPORTED');
  });
});

describe('securities listing', () => {
  test('registered: the securities with opaque ids; one of them has a creditor code', async ({ api }) => {
    const r = SecuritiesResponse.parse((await api.get('/titles/MID15313/securities')).json);
    expect(r.securities).toHaveLength(2);
    for (const s of r.securities) expect(s).toMatchObject({ applicationType: 'PAPER', source: 'TITLE' });
    expect(new Set(r.securities.map((s) => s.id)).size).toBe(2);
  });

  test.for([
    ['MID1234', 200, 0],
    ['GLA5001', 200, 0],
    ['REN9', 200, 1],
    ['EDN42', 404, -1],
    ['ABN7', 404, -1],
    ['FFE300', 404, -1],
    ['ZZZ999', 404, -1],
  ] as const)('%s → %i', async ([titleNumber, status, count], { api }) => {
    const r = await api.get(`/titles/${titleNumber}/securities`);
    expect(r.status).toBe(status);
    if (status === 200) expect(r.json.securities).toHaveLength(count);
    else expect(r.json.code).toBe('TITLE_NOT_FOUND');
  });
});

describe('FAS accounts and check order', () => {
  test('a case FAS, another organisation’s FAS or an unknown FAS → 403 FAS_NOT_AUTHORISED', async ({ api }) => {
    for (const [client, fas] of [
      ['client-a', '1877'],
      ['client-a', '5555'],
      ['client-b', '0877'],
      ['client-a', '424242'],
    ] as const) {
      const r = await api.get(`/titles/MID15313/details?fas=${fas}`, { client });
      expect(r.status, `${client} ${fas}`).toBe(403);
      expect(r.json).toMatchObject({ code: 'FAS_NOT_AUTHORISED', field: 'fas' });
    }
    expect((await api.get('/titles/MID15313/details?fas=5555', { client: 'client-b' })).status).toBe(200);
  });

  test('400 before 403 before 404 before 422 before 402', async ({ api }) => {
    expect((await api.get('/titles/ZZZ999/details?fas=12')).json.code).toBe('INVALID_REQUEST');
    expect((await api.get('/titles/zz/details?fas=12')).json.code).toBe('INVALID_TITLE_NUMBER');
    expect((await api.get('/titles/ZZZ999/details?fas=5555')).json.code).toBe('FAS_NOT_AUTHORISED');
    expect((await api.get('/titles/ZZZ999/details?fas=9999')).json.code).toBe('TITLE_NOT_FOUND');
    expect((await api.get('/titles/EDN42/details?fas=9999')).json.code).toBe('TITLE_STATUS_NOT_SUPPORTED');
    expect((await api.get('/titles/MID15313/details?fas=9999')).json.code).toBe('CREDIT_LIMIT_EXCEEDED');
  });

  test('fas is required and reference is at most 75 characters; all broken fields are named', async ({ api }) => {
    const missing = await api.get('/titles/MID15313/details');
    expect(missing.json).toMatchObject({ code: 'INVALID_REQUEST', field: 'fas', message: 'fas: is required' });
    const both = await api.get(`/titles/MID15313/details?fas=abc&reference=${'r'.repeat(76)}`);
    expect(both.status).toBe(400);
    expect(both.json.message).toBe('fas: must be 4 to 6 digits; reference: must be at most 75 characters');
    expect((await api.get(`/titles/MID15313/details?fas=0877&reference=${'r'.repeat(75)}`)).status).toBe(200);
  });
});
