/**
 * A full run through every function with structured logging on, then a scan of every log
 * line for what must never be logged: API keys, secrets, tokens, FAS numbers, idempotency
 * keys and personal data.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, logServiceEvents } from '../../src/observability/logging';
import {
  AddDeedToCaseMutation,
  CreateCaseMutation,
  CreditorsQuery,
  OrderTitleDocumentMutation,
  PurchasePendingApplicationsMutation,
  PurchaseTitleDetailsMutation,
  PurchaseTitlePlansMutation,
  ReferenceListQuery,
  TitlesQuery,
} from '../support/documents';
import { newKey, startService } from '../support/harness';
import { postRaw } from '../support/post-raw';

const lines: string[] = [];
const sink = new Writable({
  write(chunk, _encoding, done) {
    lines.push(...String(chunk).split('\n').filter(Boolean));
    done();
  },
});
const logger = createLogger({ level: 'debug', destination: sink });
let svc: Awaited<ReturnType<typeof startService>>;
const keys: string[] = [];
const key = (label: string) => {
  const k = newKey(label);
  keys.push(k);
  return k;
};
const personal = ['Mòrag', 'Macleod', 'cases@macdonald.example', '0131 496 0000', 'Smith purchase', 'Jones'];

beforeAll(async () => {
  svc = await startService({ app: { logger } });
  logServiceEvents(svc.services.events, logger);

  await svc.gql(TitlesQuery, { titleNumbers: ['MID15313', 'GLA5001', 'ZZZ999'] });
  await svc.gql(CreditorsQuery, { query: 'Santander' });
  await svc.gql(ReferenceListQuery, { path: 'lr/application/deed/type' });
  const details = await svc.gql(PurchaseTitleDetailsMutation, {
    fas: '0877',
    input: { titleNumber: 'MID15313', reference: 'Smith purchase', idempotencyKey: key('d') },
  });
  for (const p of details.data!.purchaseTitleDetails.details!.proprietorships) {
    for (const d of p.details) for (const pr of d.proprietors) if (pr.name?.last) personal.push(pr.name.last);
  }
  await svc.gql(PurchaseTitleDetailsMutation, { fas: '9999', input: { titleNumber: 'MID15313', idempotencyKey: key('limit') } });
  await svc.gql(PurchasePendingApplicationsMutation, { fas: '1234', input: { titleNumber: 'MID15313', idempotencyKey: key('p') } });
  const doc = await svc.gql(OrderTitleDocumentMutation, {
    fas: '0877',
    input: { titleNumber: 'MID15313', titleSheet: { include: true }, idempotencyKey: key('o') },
  });
  await (await svc.get(doc.data!.orderTitleDocument.document!.downloadUrl)).arrayBuffer();
  const plans = await svc.gql(PurchaseTitlePlansMutation, { fas: '0877', input: { titleNumber: 'MID15313', idempotencyKey: key('pl') } });
  await (await svc.get(plans.data!.purchaseTitlePlans.plans[0]!.downloadUrl)).arrayBuffer();
  const created = await svc.gql(CreateCaseMutation, {
    fas: '1877',
    input: {
      reference: 'Smith to Jones',
      contactEmail: 'cases@macdonald.example',
      contactTelephone: '0131 496 0000',
      titleNumbers: ['MID15313'],
      idempotencyKey: key('c'),
    },
  });
  await svc.gql(AddDeedToCaseMutation, {
    input: {
      caseId: created.data!.createCase.case!.id,
      deedType: 'DISPOSITION',
      subjectExtent: 'REGISTERED_WHOLE',
      applicants: [{ type: 'NATURAL', firstName: 'Mòrag', lastName: 'Macleod' }],
      idempotencyKey: key('deed'),
    },
  });
  await svc.gql(PurchaseTitleDetailsMutation, { fas: '087', input: { titleNumber: 'MID15313', idempotencyKey: key('bad') } });
  await svc.gql(TitlesQuery, { titleNumbers: ['MID1234'] }, 'not-a-real-key-5f2c');
  svc.emulator.faults.inject('createCase', { kind: 'reset', phase: 'after' }, 1);
  await svc.gql(
    CreateCaseMutation,
    {
      fas: '5877',
      input: {
        reference: 'Lost',
        contactEmail: 'cases@macdonald.example',
        contactTelephone: '0131 496 0000',
        titleNumbers: ['MID15313'],
        idempotencyKey: key('lost'),
      },
    },
    'dev-key-b',
  );
});
afterAll(() => svc.stop());

/** Ids this service generated at random (UUIDs): hex digits in them are not account numbers. */
const RANDOM_IDS = new Set(['requestId']);

/** Every string value in a record, keys included, but for the random ids. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      out.push(k);
      if (!RANDOM_IDS.has(k)) strings(v, out);
    }
  }
  return out;
}

describe('structured logs', () => {
  it('name the operation that ran, also in a document holding two', async () => {
    const response = await postRaw(
      svc.yoga,
      { query: 'query First { __typename } mutation Second { __typename }', operationName: 'Second' },
      { accept: null, 'x-request-id': 'two-operations' },
    );
    expect(response.status).toBe(200);
    const line = lines
      .map((l) => JSON.parse(l) as Record<string, unknown>)
      .find((r) => r.msg === 'request' && r.requestId === 'two-operations');
    expect(line).toMatchObject({ operationName: 'Second', operationType: 'mutation' });
  });

  it('log every request with its register calls, and every register call once', () => {
    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    const requests = records.filter((r) => r.msg === 'request');
    expect(requests.length).toBeGreaterThanOrEqual(14);
    expect(requests.every((r) => typeof r.requestId === 'string' && typeof r.status === 'number')).toBe(true);
    // A request's register calls are in its own line; a call outside any request has a line of its own.
    const inRequests = requests.flatMap((r) => (r.registerCalls ?? []) as Record<string, unknown>[]);
    const ownLines = records.filter((r) => r.msg === 'register call');
    expect(inRequests.length).toBeGreaterThanOrEqual(10);
    expect(inRequests.every((c) => typeof c.route === 'string' && typeof c.status === 'number' && typeof c.durationMs === 'number')).toBe(
      true,
    );
    const titleLine = requests.find((r) => ((r.registerCalls ?? []) as { route: string }[]).some((c) => c.route === 'titleSummary'));
    expect(titleLine).toBeDefined();
    // Every attempt the register saw is logged exactly once, in a request's line or its own.
    const seenByRegister = svc.emulator.calls.list().filter((c) => c.route !== 'control' && c.route !== 'unknown').length;
    expect(inRequests.length + ownLines.length).toBe(seenByRegister);
    expect(records.some((r) => r.msg === 'charge')).toBe(true);
    expect(records.some((r) => r.msg === 'idempotency' && r.outcome === 'outcome_unknown')).toBe(true);
  });

  it('never contain keys, secrets, tokens, FAS numbers, idempotency keys or personal data', () => {
    const forbidden = ['dev-key-a', 'dev-key-b', 'not-a-real-key-5f2c', 'secret-a', 'secret-b', 'Bearer', 'Basic ', ...keys, ...personal];
    const text = lines.join('\n');
    for (const value of forbidden) expect(text, `logs contain ${value}`).not.toContain(value);
    const fas = /(^|[^0-9A-Za-z.])(0877|1234|1877|9999|5555|5877|087)([^0-9A-Za-z]|$)/;
    for (const line of lines) {
      for (const s of strings(JSON.parse(line))) expect(fas.test(s), `a FAS number in: ${s}`).toBe(false);
    }
  });
});
