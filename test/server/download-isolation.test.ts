/**
 * One tenant's slow downloads starve nobody: downloads have their own per-tenant connection
 * pools, a per-tenant cap (429 + Retry-After past it), and are closed when their caller stops
 * reading. Over a real socket, against the emulator, with 70 downloads that are never read.
 */
import { createServer, request as httpRequest, type ClientRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { PurchaseTitlePlansMutation, TitleQuery } from '../support/documents';
import { newKey, startService, type ServiceOverrides } from '../support/harness';

type Svc = Awaited<ReturnType<typeof startService>>;
let svc: Svc;
let server: Server;
let origin: string;
const open: ClientRequest[] = [];

async function start(options: ServiceOverrides) {
  // Large enough that socket buffers cannot swallow it: an unread download stays open.
  svc = await startService({
    emulator: { largePlanBytes: 16 * 1024 * 1024 },
    services: { transport: { timeouts: { deadlineMs: 2_000 } }, ...options },
  });
  server = createServer(svc.yoga);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  for (const req of open.splice(0)) req.destroy();
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await svc.stop();
});

async function bigPlanUrl(key: string, fas: string): Promise<string> {
  const { data } = await svc.gql(PurchaseTitlePlansMutation, { fas, input: { titleNumber: 'LAN50', idempotencyKey: newKey('lan') } }, key);
  // the signed link's path and query, to follow on this test's own server
  const link = new URL(data!.purchaseTitlePlans.plans[0]!.downloadUrl);
  return link.pathname + link.search;
}

/** Starts a download and never reads its body: resolves with the response head. */
function stalledDownload(path: string, key: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${origin}${path}`, { headers: { authorization: `Bearer ${key}` } }, (res) => {
      res.pause();
      resolve(res);
    });
    req.on('error', () => undefined);
    req.once('error', reject);
    open.push(req);
    req.end();
  });
}

describe('slow downloads of one tenant', () => {
  test('70 unread downloads: 4 stream, 66 get 429 + Retry-After; another tenant is answered meanwhile; all are closed once idle; the breaker stays closed', async () => {
    await start({ downloads: { idleMs: 800 } });
    const path = await bigPlanUrl('dev-key-b', '5555');
    const responses = await Promise.all(Array.from({ length: 70 }, () => stalledDownload(path, 'dev-key-b')));
    const statuses = responses.map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(4);
    expect(statuses.filter((s) => s === 429)).toHaveLength(66);
    for (const r of responses.filter((x) => x.statusCode === 429)) expect(r.headers['retry-after']).toBe('2');
    expect(svc.services.downloadSlots.inUse('client-b')).toBe(4);

    // Tenant A, while B's downloads are open: answered, and so is A's own download.
    const { data, errors } = await svc.gql(TitleQuery, { titleNumber: 'MID15313' }, 'dev-key-a');
    expect(errors).toBeUndefined();
    expect(data!.title!.titleNumber).toBe('MID15313');
    const mine = await fetch(`${origin}${await bigPlanUrl('dev-key-a', '0877')}`, { headers: { authorization: 'Bearer dev-key-a' } });
    expect(mine.status).toBe(200);
    expect((await mine.arrayBuffer()).byteLength).toBe(16 * 1024 * 1024);

    // B's readers never read: the service closes their downloads and frees the slots.
    await vi.waitFor(() => expect(svc.services.downloadSlots.inUse('client-b')).toBe(0), { timeout: 5_000 });
    expect(svc.services.transport.breakerState()).toBe('closed');
    const after = await stalledDownload(path, 'dev-key-b');
    expect(after.statusCode).toBe(200);
  });

  test('with no cap, tenant B filling its own download pool leaves tenant A’s title queries and downloads unaffected', async () => {
    await start({
      downloads: { perTenant: 100, idleMs: 60_000 },
      transport: { downloadConnections: 8, timeouts: { deadlineMs: 1_000 } },
    });
    const path = await bigPlanUrl('dev-key-b', '5555');
    const planOfA = await bigPlanUrl('dev-key-a', '0877');
    const pending = Array.from({ length: 70 }, () => stalledDownload(path, 'dev-key-b'));
    // B holds all 8 of its download connections; the rest of B's wait for one, inside the deadline.
    await vi.waitFor(() => expect(svc.emulator.calls.count({ route: 'downloadPlan', clientId: 'client-b' })).toBeGreaterThanOrEqual(8), {
      timeout: 5_000,
    });

    const { data } = await svc.gql(TitleQuery, { titleNumber: 'MID1234' }, 'dev-key-a');
    expect(data!.title!.titleNumber).toBe('MID1234');
    const mine = await fetch(`${origin}${planOfA}`, { headers: { authorization: 'Bearer dev-key-a' } });
    expect(mine.status).toBe(200);
    expect((await mine.arrayBuffer()).byteLength).toBe(16 * 1024 * 1024);

    const statuses = (await Promise.all(pending)).map((r) => r.statusCode);
    expect(statuses.filter((s) => s === 200)).toHaveLength(8);
    // Waiting for a pool connection is never sent and never a breaker failure.
    expect(svc.emulator.calls.count({ route: 'downloadPlan', clientId: 'client-b' })).toBe(8);
    expect(svc.services.transport.breakerState()).toBe('closed');
  });

  test('a download is closed after its time limit even while the caller reads: the caller gets a cut file', async () => {
    await start({ downloads: { maxMs: 300 } });
    const path = await bigPlanUrl('dev-key-a', '0877');
    const response = await stalledDownload(path, 'dev-key-a');
    expect(response.statusCode).toBe(200);
    // reading slowly (16 KiB every 50 ms) is far below 16 MiB in 300 ms
    const reader = setInterval(() => response.read(16 * 1024), 50);
    try {
      await vi.waitFor(() => expect(svc.services.downloadSlots.inUse('client-a')).toBe(0), { timeout: 3_000 });
    } finally {
      clearInterval(reader);
    }
    // What was sent before the cut drains; then the connection ends short of Content-Length.
    let received = 0;
    response.on('data', (chunk: Buffer) => (received += chunk.length));
    response.on('error', () => undefined);
    const closed = new Promise((resolve) => response.once('close', resolve));
    response.resume();
    await closed;
    expect(response.complete).toBe(false);
    expect(received).toBeLessThan(16 * 1024 * 1024);
  });
});
