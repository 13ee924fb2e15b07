import { vi } from 'vitest';
import { startEmulator } from '../../src/emulator/index';
import { Api, describe, expect, test } from '../support/emulator-fixtures';

describe('injected faults', () => {
  test('status: replaces the next N responses, with body and Retry-After; nothing happens', async ({ api, emu }) => {
    await api.tokenFor('client-a');
    emu.faults.inject('titleDetails', { kind: 'status', status: 503, retryAfterSeconds: 7 }, 2);
    for (let i = 0; i < 2; i++) {
      const r = await api.get('/titles/MID15313/details?fas=0877');
      expect(r.status).toBe(503);
      expect(r.headers.get('retry-after')).toBe('7');
      expect(r.json).toMatchObject({ code: 'INTERNAL_ERROR' });
    }
    expect(emu.ledger.count()).toBe(0);
    expect((await api.get('/titles/MID15313/details?fas=0877')).status).toBe(200);
    expect(emu.calls.count({ route: 'titleDetails', status: 503 })).toBe(2);
    emu.faults.inject('titleSummary', { kind: 'status', status: 418, body: { code: 'TEAPOT', message: 'custom' } });
    expect((await api.get('/titles/MID15313/summary')).json).toEqual({ code: 'TEAPOT', message: 'custom' });
  });

  test('hang: never answers, the client times out; recorded with status 0', async ({ api, emu }) => {
    await api.tokenFor('client-a');
    emu.faults.inject('securities', { kind: 'hang' });
    const started = Date.now();
    await expect(api.get('/titles/MID15313/securities', { signal: AbortSignal.timeout(150) })).rejects.toThrow(/aborted|timeout/i);
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
    expect(emu.calls.count({ route: 'securities', status: 0 })).toBe(1);
    expect((await api.get('/titles/MID15313/securities')).status).toBe(200);
  });

  test('reset: the socket is destroyed with no response', async ({ api, emu }) => {
    await api.tokenFor('client-a');
    emu.faults.inject('titleSummary', { kind: 'reset' });
    await expect(api.get('/titles/MID15313/summary')).rejects.toThrow(/fetch failed/);
    expect(emu.calls.count({ route: 'titleSummary', status: 0 })).toBe(1);
    expect((await api.get('/titles/MID15313/summary')).status).toBe(200);
  });

  test('drip: the real, valid response, sent slowly (and its effect happens)', async ({ api, emu }) => {
    await api.tokenFor('client-a');
    const normal = await api.get('/titles/MID15313/summary');
    emu.faults.inject('titleSummary', { kind: 'drip', chunkBytes: 128, intervalMs: 10 });
    const started = Date.now();
    const slow = await api.get('/titles/MID15313/summary');
    const chunks = Math.ceil(normal.bytes.length / 128);
    expect(Date.now() - started).toBeGreaterThanOrEqual(chunks * 10 - 20);
    expect(slow.status).toBe(200);
    expect(slow.json).toEqual(normal.json);
    emu.faults.inject('titleDetails', { kind: 'drip', chunkBytes: 4096, intervalMs: 1 });
    expect((await api.get('/titles/MID15313/details?fas=0877')).json.charges).toHaveLength(1);
    expect(emu.ledger.count()).toBe(1);
  });

  test('malformed: 200 with a body that is not valid JSON (or not a PDF)', async ({ api, emu }) => {
    await api.tokenFor('client-a');
    emu.faults.inject('titleSummary', { kind: 'malformed' });
    const fetched = await fetch(`${emu.url}/titles/MID15313/summary`, {
      headers: { authorization: `Bearer ${await api.tokenFor('client-a')}` },
    });
    expect(fetched.status).toBe(200);
    await expect(fetched.json()).rejects.toThrow();
    const id = (await api.post('/titles/MID15313/documents?fas=0877', { titleSheet: { include: true } })).json.data.documentId;
    emu.faults.inject('downloadDocument', { kind: 'malformed' });
    const pdf = await api.get(`/titles/MID15313/documents/${id}`);
    expect(pdf.status).toBe(200);
    expect(Buffer.from(pdf.bytes.subarray(0, 4)).toString()).not.toBe('%PDF');
  });

  test("phase 'after': the charge is recorded, the document issued, then the fault answers", async ({ api, emu }) => {
    await api.tokenFor('client-a');
    emu.faults.inject('orderDocument', { kind: 'status', status: 500, phase: 'after' });
    const r = await api.post('/titles/MID15313/documents?fas=0877', { titleSheet: { include: true }, applications: { include: true } });
    expect(r.status).toBe(500);
    expect(emu.ledger.count({ fas: '0877', titleNumber: 'MID15313' })).toBe(2);
    expect(emu.state.documents.size).toBe(1);
    // Asking again the same day: the data, no new charge.
    const again = await api.post('/titles/MID15313/documents?fas=0877', { titleSheet: { include: true }, applications: { include: true } });
    expect(again.status).toBe(201);
    expect(again.json.charges).toEqual([]);
  });

  test("phase 'after' on creations: the case and the deed exist although the call failed", async ({ api, emu }) => {
    await api.tokenFor('client-a');
    const before = emu.state.cases.size;
    emu.faults.inject('createCase', { kind: 'reset', phase: 'after' });
    const body = {
      reference: 'unknown outcome',
      agent: { fas: '1877', contactEmail: 'a@b.example', contactTelephone: '1' },
      subjects: [{ type: 'REGISTERED', titleNumber: 'MID15313' }],
    };
    await expect(api.post('/cases', body)).rejects.toThrow();
    expect(emu.state.cases.size).toBe(before + 1);
    emu.faults.inject('addDeed', { kind: 'hang', phase: 'after' });
    await expect(
      api.post('/cases/RLP06ORGACASE/deeds', { deedType: '11', subjectExtent: 'REGISTERED_WHOLE' }, { signal: AbortSignal.timeout(150) }),
    ).rejects.toThrow();
    expect(emu.state.deeds).toHaveLength(1);
    emu.faults.inject('createCase', { kind: 'malformed', phase: 'after' });
    expect((await api.call('POST', '/cases', { body })).status).toBe(200);
    expect(emu.state.cases.size).toBe(before + 2);
    // phase 'before' creates nothing.
    emu.faults.inject('createCase', { kind: 'reset' });
    await expect(api.post('/cases', body)).rejects.toThrow();
    expect(emu.state.cases.size).toBe(before + 2);
  });

  test('faults apply to the token route too, and clear() removes pending ones', async ({ api, emu }) => {
    emu.faults.inject('token', { kind: 'status', status: 500 });
    await expect(api.tokenFor('client-a')).rejects.toThrow(/500/);
    expect((await api.get('/titles/MID15313/summary')).status).toBe(200);
    emu.faults.inject('titleSummary', { kind: 'status', status: 500 }, 5);
    emu.faults.clear();
    expect((await api.get('/titles/MID15313/summary')).status).toBe(200);
    expect(() => emu.faults.inject('nope' as never, { kind: 'hang' })).toThrow(/unknown route/);
    expect(() => emu.faults.inject('titleSummary', { kind: 'explode' } as never)).toThrow(/kind/);
  });

  test('close() destroys hung requests', async () => {
    const emu = await startEmulator();
    const api = new Api(emu);
    await api.tokenFor('client-a');
    emu.faults.inject('titleSummary', { kind: 'hang' });
    const pending = api.get('/titles/MID15313/summary');
    await vi.waitFor(() => expect(emu.calls.count({ route: 'titleSummary', status: 0 })).toBe(1)); // it is hanging
    await emu.close(); // waiting for the hung request instead would never end
    await expect(pending).rejects.toThrow();
  });
});

describe('latency', () => {
  test.override({ emuOptions: { latencyMs: 120 } });
  test('is added before every response', async ({ api }) => {
    await api.tokenFor('client-a');
    const started = Date.now();
    const r = await api.get('/titles/ZZZ999/summary');
    expect(r.status).toBe(404);
    expect(Date.now() - started).toBeGreaterThanOrEqual(115);
  });
});
