import { describe, expect, vi, test } from 'vitest';
import {
  CreditorsQuery,
  ReferenceListPathsQuery,
  ReferenceListQuery,
  TitleQuery,
  TitlesQuery,
  TitleWithSecuritiesQuery,
} from '../support/documents';
import { serviceForTest } from '../support/harness';

describe('title', () => {
  test('returns the full summary of a registered title', async () => {
    const svc = await serviceForTest();
    const { data, errors } = await svc.gql(TitleQuery, { titleNumber: 'MID15313' });
    expect(errors).toBeUndefined();
    const title = data!.title!;
    expect(title.titleNumber).toBe('MID15313');
    expect(title.status).toBe('REGISTERED');
    expect(title.right!.addresses.length).toBeGreaterThanOrEqual(2);
    expect(title.plans).toHaveLength(2);
    expect(title.proprietorships[0]!.considerationEntries.length).toBeGreaterThan(0);
    expect(title.titleSheetUpdatedTo).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  test('is null for a title the register does not have', async () => {
    const svc = await serviceForTest();
    const { data, errors } = await svc.gql(TitleQuery, { titleNumber: 'ZZZ999' });
    expect(errors).toBeUndefined();
    expect(data!.title).toBeNull();
  });

  test.for<[string, string]>([
    ['GLA5001', 'DRAFT'],
    ['EDN42', 'CLOSED'],
    ['ABN7', 'CANCELLED'],
    ['FFE300', 'AMALGAMATED'],
    ['REN9', 'ABSORBED'],
  ])('gives the reduced summary of %s (%s)', async ([titleNumber, status]) => {
    const svc = await serviceForTest();
    const { data } = await svc.gql(TitleQuery, { titleNumber });
    expect(data!.title!.status).toBe(status);
    expect(data!.title!.plans).toEqual([]);
    expect(data!.title!.proprietorships).toEqual([]);
  });
});

describe('Title.securities', () => {
  test('lists the registered securities of a title', async () => {
    const svc = await serviceForTest();
    const { data } = await svc.gql(TitleWithSecuritiesQuery, { titleNumber: 'MID15313' });
    const securities = data!.title!.securities!;
    expect(securities).toHaveLength(2);
    expect(securities[0]!.id).toMatch(/^.{1,20}$/);
  });

  test('is an empty list for a draft and null for closed, cancelled and amalgamated titles', async () => {
    const svc = await serviceForTest();
    const draft = await svc.gql(TitleWithSecuritiesQuery, { titleNumber: 'GLA5001' });
    expect(draft.data!.title!.securities).toEqual([]);
    for (const titleNumber of ['EDN42', 'ABN7', 'FFE300']) {
      const { data, errors } = await svc.gql(TitleWithSecuritiesQuery, { titleNumber });
      expect(errors).toBeUndefined();
      expect(data!.title!.securities).toBeNull();
    }
  });

  test('is fetched alongside the summary, not after it: one round of register calls', async () => {
    const svc = await serviceForTest({ services: { transport: { timeouts: { headersMs: 1_000 }, retry: { baseDelayMs: 5 } } } });
    // The summary call hangs; its securities listing is answered all the same, so it did not wait.
    svc.emulator.faults.inject('titleSummary', { kind: 'hang' }, 1);
    const pending = svc.gql(TitleWithSecuritiesQuery, { titleNumber: 'MID15313' });
    await vi.waitFor(() => expect(svc.emulator.calls.count({ route: 'securities', status: 200 })).toBe(1), { timeout: 1_000 });
    expect(svc.emulator.calls.count({ route: 'titleSummary', status: 200 })).toBe(0);
    const { data } = await pending; // the summary is retried after the hang
    expect(data!.title!.securities).toHaveLength(2);
    expect(svc.emulator.calls.count({ route: 'securities' })).toBe(1);
  });

  test('each document is asked once whether it selects securities, and keeps its own answer', async () => {
    // Worked out once per document (title.ts): a document that selects them is prefetched on
    // every request, whichever came before, and one that does not never is.
    const svc = await serviceForTest({ services: { transport: { timeouts: { headersMs: 1_000 }, retry: { baseDelayMs: 5 } } } });
    for (let round = 1; round <= 2; round++) {
      await svc.gql(TitleQuery, { titleNumber: 'MID15313' });
      expect(svc.emulator.calls.count({ route: 'securities' })).toBe(round - 1);
      svc.emulator.faults.inject('titleSummary', { kind: 'hang' }, 1);
      const pending = svc.gql(TitleWithSecuritiesQuery, { titleNumber: 'MID15313' });
      await vi.waitFor(() => expect(svc.emulator.calls.count({ route: 'securities', status: 200 })).toBe(round), { timeout: 1_000 });
      expect((await pending).data!.title!.securities).toHaveLength(2);
    }
  });

  test('with SECURITIES_PREFETCH off, titles whose status lists no securities cost no listing call', async () => {
    const svc = await serviceForTest({ services: { reads: { prefetchSecurities: false } } });
    const { data } = await svc.gql(TitlesQuery, { titleNumbers: ['GLA5001', 'EDN42', 'ABN7', 'FFE300', 'MID15313'] });
    expect(data!.titles.map((t) => t?.securities?.length ?? null)).toEqual([0, null, null, null, 2]);
    expect(svc.emulator.calls.count({ route: 'securities' })).toBe(1);
  });

  test('is not loaded unless selected', async () => {
    const svc = await serviceForTest();
    await svc.gql(TitleQuery, { titleNumber: 'MID15313' });
    expect(svc.emulator.calls.count({ route: 'securities' })).toBe(0);
  });
});

describe('titles', () => {
  test('keeps the order asked, gives null for unknown titles and calls once per distinct title', async () => {
    const svc = await serviceForTest();
    const asked = ['MID1234', 'ZZZ999', 'MID15313', 'MID1234', 'BLK7', 'MID15313'];
    const { data, errors } = await svc.gql(TitlesQuery, { titleNumbers: asked });
    expect(errors).toBeUndefined();
    expect(data!.titles.map((t) => t?.titleNumber ?? null)).toEqual(['MID1234', null, 'MID15313', 'MID1234', 'BLK7', 'MID15313']);
    expect(svc.emulator.calls.count({ route: 'titleSummary' })).toBe(4);
    // Listings are fetched with the summaries, so the unknown title's is asked for too.
    expect(svc.emulator.calls.count({ route: 'securities' })).toBe(4);
  });

  test('accepts 100 titles and refuses 101 before any register call', async () => {
    const svc = await serviceForTest();
    const hundred = Array.from({ length: 100 }, (_, i) => `BLK${i + 1}`);
    const ok = await svc.gql(TitlesQuery, { titleNumbers: hundred });
    expect(ok.errors).toBeUndefined();
    expect(ok.data!.titles).toHaveLength(100);
    svc.emulator.calls.reset();
    const tooMany = await svc.gql(TitlesQuery, { titleNumbers: [...hundred, 'BLK101'] });
    expect(tooMany.errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
    expect(tooMany.errors![0]!.message).toMatch(/titleNumbers must have at most 100/);
    expect(svc.emulator.calls.count({ route: 'titleSummary' })).toBe(0);
  });
});

describe('summary cache (SUMMARY_CACHE_TTL_MS)', () => {
  test('off by default: every request asks the register', async () => {
    const svc = await serviceForTest();
    await svc.gql(TitleQuery, { titleNumber: 'MID1234' });
    await svc.gql(TitleQuery, { titleNumber: 'MID1234' });
    expect(svc.emulator.calls.count({ route: 'titleSummary' })).toBe(2);
  });

  test("on: a tenant gets its own recent summaries without a call, never another tenant's", async () => {
    const svc = await serviceForTest({ services: { reads: { summaryCacheTtlMs: 60_000 } } });
    await svc.gql(TitleQuery, { titleNumber: 'MID1234' });
    await svc.gql(TitleQuery, { titleNumber: 'MID1234' });
    expect(svc.emulator.calls.count({ route: 'titleSummary', clientId: 'client-a' })).toBe(1);
    await svc.gql(TitleQuery, { titleNumber: 'MID1234' }, 'dev-key-b');
    expect(svc.emulator.calls.count({ route: 'titleSummary', clientId: 'client-b' })).toBe(1);
    // Unknown titles are not remembered.
    await svc.gql(TitleQuery, { titleNumber: 'ZZZ999' });
    await svc.gql(TitleQuery, { titleNumber: 'ZZZ999' });
    expect(svc.emulator.calls.count({ route: 'titleSummary', clientId: 'client-a' })).toBe(3);
  });
});

describe('creditors', () => {
  test('finds at most 15 creditors', async () => {
    const svc = await serviceForTest();
    const { data } = await svc.gql(CreditorsQuery, { query: 'bank' });
    expect(data!.creditors.length).toBe(15);
    const santander = await svc.gql(CreditorsQuery, { query: 'Santander' });
    expect(santander.data!.creditors).toContainEqual({ designation: 'Santander UK plc', creditorCode: 'SANT4' });
  });

  test.for<[string, RegExp]>([
    ['ab', /at least 3/],
    ['a'.repeat(21), /at most 20/],
    ['Bank\u0100', /ISO-8859-1/],
    ['Bank\u00A0', /ISO-8859-1/],
  ])('refuses %j as BAD_USER_INPUT without a register call', async ([query, rule]) => {
    const svc = await serviceForTest();
    const { errors } = await svc.gql(CreditorsQuery, { query });
    expect(errors![0]!.extensions!.code).toBe('BAD_USER_INPUT');
    expect(errors![0]!.message).toMatch(rule);
    expect(errors![0]!.message).toMatch(/^query /);
    expect(svc.emulator.calls.count({ route: 'creditors' })).toBe(0);
  });

  test('accepts the Latin-1 boundary characters', async () => {
    const svc = await serviceForTest();
    for (const ch of ['\u00A1', '\u00AC', '\u00AE', '\u00FF']) {
      const { errors } = await svc.gql(CreditorsQuery, { query: `ba${ch}` });
      expect(errors).toBeUndefined();
    }
  });
});

describe('reference lists', () => {
  test('discovers the list paths', async () => {
    const svc = await serviceForTest();
    const { data } = await svc.gql(ReferenceListPathsQuery, {});
    expect(data!.referenceListPaths).toEqual(
      expect.arrayContaining(['lr/creditor', 'lr/application/land-use', 'lr/application/category', 'lr/application/deed/type']),
    );
  });

  test('gives the deed types with numbers kept as numbers, inactive items only when asked', async () => {
    const svc = await serviceForTest();
    const active = await svc.gql(ReferenceListQuery, { path: 'lr/application/deed/type' });
    const values = active.data!.referenceList!.items.map((i) => i.value);
    expect(values).toEqual(expect.arrayContaining([1, 11, 20]));
    expect(active.data!.referenceList!.items.every((i) => i.active)).toBe(true);
    const all = await svc.gql(ReferenceListQuery, { path: 'lr/application/deed/type', includeInactive: true });
    expect(all.data!.referenceList!.items.some((i) => !i.active)).toBe(true);
    expect(all.data!.referenceList!.name.length).toBeGreaterThan(0);
  });

  test('is null for paths discovery does not return, without fetching a list', async () => {
    const svc = await serviceForTest();
    for (const path of ['schema', 'lr', 'lr/unknown', 'NOT A PATH']) {
      const { data, errors } = await svc.gql(ReferenceListQuery, { path });
      expect(errors).toBeUndefined();
      expect(data!.referenceList).toBeNull();
    }
    expect(svc.emulator.calls.count({ route: 'referenceList' })).toBe(0);
  });

  test('revalidates with If-None-Match: the second load is a 304', async () => {
    const svc = await serviceForTest();
    await svc.gql(ReferenceListQuery, { path: 'lr/application/deed/type' });
    const second = await svc.gql(ReferenceListQuery, { path: 'lr/application/deed/type' });
    expect(second.data!.referenceList!.items.length).toBeGreaterThan(0);
    expect(svc.emulator.calls.count({ route: 'referenceList', status: 200 })).toBe(1);
    expect(svc.emulator.calls.count({ route: 'referenceList', status: 304 })).toBe(1);
  });
});
