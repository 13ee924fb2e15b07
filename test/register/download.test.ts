/** Streamed downloads, their file names, and no sockets left behind after faults. */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { abandon, type RegisterClient } from '../../src/register/client';
import { parseContentDispositionFilename } from '../../src/register/client/responses';
import { readAll, registerError, rig, type Rig } from '../support/register-rig';

let r: Rig;
let c: RegisterClient;
let documentId: string;
beforeAll(async () => {
  r = await rig({ largePlanBytes: 4 * 1024 * 1024 });
  c = r.client(r.transport());
  documentId = (await c.orderDocument('MID15313', { fas: '0877' }, { titleSheet: { include: true } })).body.data.documentId;
});
afterAll(async () => {
  await r.close();
});

describe('downloads', () => {
  it('streams a document with its headers; the same bytes twice', async () => {
    const first = await c.downloadDocument('MID15313', documentId);
    expect(first).toMatchObject({ status: 200 });
    expect(first.contentType).toMatch(/^application\/pdf/);
    expect(first.filename).toMatch(/\.pdf$/);
    const a = await readAll(first.body);
    const b = await readAll((await c.downloadDocument('MID15313', documentId)).body);
    expect(a.length).toBeGreaterThan(100);
    expect(Buffer.compare(a, b)).toBe(0);
    if (first.contentLength !== undefined) expect(first.contentLength).toBe(a.length);
  });

  it('hands over the stream before the body has arrived (no buffering)', async () => {
    r.emu.faults.inject('downloadDocument', { kind: 'drip', chunkBytes: 512, intervalMs: 5 }, 1);
    const started = performance.now();
    const dl = await c.downloadDocument('MID15313', documentId);
    const headersAt = performance.now() - started;
    const bytes = await readAll(dl.body);
    const doneAt = performance.now() - started;
    expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    expect(doneAt - headersAt).toBeGreaterThan(20);
  });

  it('a large plan streams through in chunks, and cancelling it frees the socket', async () => {
    const { body: plans } = await c.purchasePlans('LAN50', { fas: '0877' });
    const big = plans.plans[0]!;
    const dl = await c.downloadPlan('LAN50', big.planId);
    const chunks = dl.body[Symbol.asyncIterator]();
    const first = await chunks.next();
    expect(first.done).toBe(false);
    expect((first.value as Buffer).byteLength).toBeLessThan(4 * 1024 * 1024);
    abandon(dl.body);
    // the pool is usable afterwards
    expect((await c.titleSummary('MID1234')).data.titleNumber).toBe('MID1234');
  });

  it('download errors are RegisterErrors read from the small JSON body', async () => {
    expect(await registerError(c.downloadDocument('MID15313', 'not-an-id'))).toMatchObject({ status: 404, code: 'DOCUMENT_NOT_FOUND' });
    expect(await registerError(c.downloadDocument('mid15313', documentId))).toMatchObject({ status: 400, code: 'INVALID_TITLE_NUMBER' });
  });

  it('a body labelled PDF that is not one is a REGISTER_CONTRACT_ERROR', async () => {
    r.emu.faults.inject('downloadDocument', { kind: 'malformed' }, 1);
    const e = await registerError(c.downloadDocument('MID15313', documentId));
    expect(e).toMatchObject({ status: 200, code: 'REGISTER_CONTRACT_ERROR', route: 'downloadDocument' });
  });

  it('a download is retried on 503 before any byte is handed over', async () => {
    r.emu.faults.inject('downloadDocument', { kind: 'status', status: 503 }, 1);
    const dl = await c.downloadDocument('MID15313', documentId);
    expect((await readAll(dl.body)).subarray(0, 5).toString('latin1')).toBe('%PDF-');
  });
});

describe('no leaked sockets', () => {
  const tcpSockets = () => process.getActiveResourcesInfo().filter((x) => x === 'TCPSocketWrap').length;

  it('close() ends hanging, reset, dripping and unread responses rather than waiting for them, and frees every socket', async () => {
    const emuBaseline = tcpSockets();
    const t = r.transport({ retry: { attempts: 1 }, timeouts: { headersMs: 200, deadlineMs: 800 } });
    const lc = r.client(t);
    await lc.titleSummary('MID1234');
    r.emu.faults.inject('titleSummary', { kind: 'hang' }, 3);
    r.emu.faults.inject('securities', { kind: 'reset' }, 3);
    r.emu.faults.inject('titleDetails', { kind: 'drip', chunkBytes: 8, intervalMs: 100 }, 3);
    const results = await Promise.allSettled([
      lc.titleSummary('MID1234'),
      lc.titleSummary('MID1234'),
      lc.securities('MID1234'),
      lc.titleDetails('MID15313', { fas: '0877' }),
      lc
        .createCase({
          reference: 'x',
          agent: { fas: '1877', contactEmail: 'a@b.c', contactTelephone: '1' },
          subjects: [{ type: 'REGISTERED', titleNumber: 'MID1234' }],
        })
        .catch((e) => e),
    ]);
    expect(results.slice(0, 4).every((x) => x.status === 'rejected')).toBe(true);
    const dl = await lc.downloadDocument('MID15313', documentId); // left unconsumed on purpose
    expect(dl.status).toBe(200);
    await t.close(); // waiting for the unread download instead would outlast this test
    await vi.waitFor(() => expect(tcpSockets()).toBeLessThanOrEqual(emuBaseline));
    expect((await registerError(lc.titleSummary('MID1234'))).code).toBe('REGISTER_UNAVAILABLE');
  });
});

describe('the file name of a download', () => {
  it('is taken from Content-Disposition, preferring filename*, and never a path', () => {
    expect(parseContentDispositionFilename('attachment; filename="MID15313-title.pdf"')).toBe('MID15313-title.pdf');
    expect(parseContentDispositionFilename("attachment; filename=a.pdf; filename*=UTF-8''caf%C3%A9.pdf")).toBe('café.pdf');
    expect(parseContentDispositionFilename('attachment; filename=plain.pdf')).toBe('plain.pdf');
    expect(parseContentDispositionFilename('attachment; filename="../../etc/passwd"')).toBe('passwd');
    expect(parseContentDispositionFilename('inline')).toBeUndefined();
    expect(parseContentDispositionFilename(undefined)).toBeUndefined();
  });
});
