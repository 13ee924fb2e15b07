/** Downloads over a real socket: streamed with back-pressure, and a caller leaving mid-file harms nothing. */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { PurchaseTitlePlansMutation, TitleQuery } from '../support/documents';
import { newKey, startService } from '../support/harness';

let svc: Awaited<ReturnType<typeof startService>>;
let server: Server;
let origin: string;
const SIZE = 8 * 1024 * 1024;

beforeAll(async () => {
  svc = await startService({ emulator: { largePlanBytes: SIZE } });
  server = createServer(svc.yoga);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
  await svc.stop();
});

async function bigPlanUrl(): Promise<string> {
  const { data } = await svc.gql(PurchaseTitlePlansMutation, {
    fas: '0877',
    input: { titleNumber: 'LAN50', idempotencyKey: newKey('lan') },
  });
  // the signed link's path and query, to follow on this test's own server
  const link = new URL(data!.purchaseTitlePlans.plans[0]!.downloadUrl);
  return link.pathname + link.search;
}

it('streams a large plan whole, with its length', async () => {
  const response = await fetch(`${origin}${await bigPlanUrl()}`, { headers: { authorization: 'Bearer dev-key-a' } });
  expect(response.status).toBe(200);
  expect(Number(response.headers.get('content-length'))).toBe(SIZE);
  const bytes = new Uint8Array(await response.arrayBuffer());
  expect(bytes.length).toBe(SIZE);
  expect(new TextDecoder().decode(bytes.slice(0, 5))).toBe('%PDF-');
});

it('a caller that disconnects mid-download leaves the service healthy', async () => {
  const path = await bigPlanUrl();
  await new Promise<void>((resolve, reject) => {
    const req = httpRequest(`${origin}${path}`, { headers: { authorization: 'Bearer dev-key-a' } }, (res) => {
      res.once('data', () => {
        req.destroy();
        resolve();
      });
    });
    req.on('error', () => undefined);
    req.once('error', reject);
    req.end();
  });
  // The service has let go of the stream it was sending: its download slot is free again.
  await vi.waitFor(() => expect(svc.services.downloadSlots.inUse('client-a')).toBe(0));
  const { data } = await svc.gql(TitleQuery, { titleNumber: 'MID1234' });
  expect(data!.title!.titleNumber).toBe('MID1234');
  const again = await fetch(`${origin}${path}`, { headers: { authorization: 'Bearer dev-key-a' } });
  expect((await again.arrayBuffer()).byteLength).toBe(SIZE);
});
