/**
 * Download links a browser can follow: absolute, signed for the client that got the file, no
 * Authorization needed; tampered or expired links are refused before anything is fetched.
 */
import { describe, expect, test } from 'vitest';
import { DownloadLinks, LINK_VALIDITY_MS } from '../../src/server/download-links';
import { OrderTitleDocumentMutation, PurchaseTitlePlansMutation } from './documents';
import { newKey, startService, type Service } from './harness';

const SECRET = 'a-test-signing-key-of-at-least-32-characters';

async function order(svc: Service, key = 'dev-key-b', fas = '5555', idempotencyKey = newKey('link')) {
  const { data } = await svc.gql(OrderTitleDocumentMutation, { fas, input: { titleNumber: 'MID15313', titleSheet: { include: true }, idempotencyKey } }, key);
  return data!.orderTitleDocument.document!;
}

async function refusal(response: Response) {
  return { status: response.status, body: (await response.json()) as { error: { code: string; message: string } } };
}

describe('signed download links', () => {
  test('absolute from PUBLIC_URL, and a plain GET with no Authorization streams the PDF as the client that ordered it', async () => {
    const svc = await startService({}, { publicUrl: 'https://titlegraph.example.com/', downloadLinkSecret: SECRET });
    try {
      const document = await order(svc);
      expect(document.downloadUrl).toMatch(/^https:\/\/titlegraph\.example\.com\/downloads\/titles\/MID15313\/documents\/[^?]+\?client=client-b&expires=\d+&signature=/);
      const link = new URL(document.downloadUrl);
      const response = await svc.get(link.pathname + link.search, null);
      expect(response.status).toBe(200);
      expect(new TextDecoder().decode(new Uint8Array(await response.arrayBuffer()).slice(0, 5))).toBe('%PDF-');
      expect(svc.emulator.calls.count({ route: 'downloadDocument', clientId: 'client-b' })).toBe(1);
    } finally {
      await svc.stop();
    }
  });

  test('a link never outlives 15 minutes, nor the file’s own expiry', () => {
    const now = Date.parse('2026-03-10T12:00:00Z');
    const links = new DownloadLinks(SECRET, undefined, () => now);
    const file = { tenant: 'client-a', titleNumber: 'MID15313', kind: 'documents' as const, id: 'abc' };
    const expiresOf = (url: string) => Number(new URL(url).searchParams.get('expires')) * 1000;
    expect(expiresOf(links.link('http://x', file, new Date(now + 3_600_000)))).toBe(now + LINK_VALIDITY_MS);
    expect(expiresOf(links.link('http://x', file, new Date(now + 60_000)))).toBe(now + 60_000);
    const later = new DownloadLinks(SECRET, undefined, () => now + LINK_VALIDITY_MS + 1);
    expect(later.check(file, new URL(links.link('http://x', file, new Date(now + 3_600_000))).searchParams)).toMatchObject({ ok: false, code: 'DOWNLOAD_LINK_EXPIRED' });
  });

  test('tampered links (signature, file, expiry or client changed), and expired ones, are refused with no register call', async () => {
    const svc = await startService({}, { downloadLinkSecret: SECRET });
    try {
      const document = await order(svc);
      const good = new URL(document.downloadUrl);
      const variants: [string, (u: URL) => void, string][] = [
        ['signature', (u) => u.searchParams.set('signature', `${u.searchParams.get('signature')!.slice(0, -2)}AA`), 'DOWNLOAD_LINK_INVALID'],
        ['file', (u) => (u.pathname = u.pathname.replace(/documents\/.*/, 'documents/other-id')), 'DOWNLOAD_LINK_INVALID'],
        ['expiry', (u) => u.searchParams.set('expires', String(Number(u.searchParams.get('expires')) + 3600)), 'DOWNLOAD_LINK_INVALID'],
        ['client', (u) => u.searchParams.set('client', 'client-a'), 'DOWNLOAD_LINK_INVALID'],
        ['kind', (u) => (u.pathname = u.pathname.replace('/documents/', '/plans/')), 'DOWNLOAD_LINK_INVALID'],
      ];
      svc.emulator.calls.reset();
      for (const [what, change, code] of variants) {
        const url = new URL(good);
        change(url);
        const { status, body } = await refusal(await svc.get(url.pathname + url.search, 'dev-key-b'));
        expect({ what, status, code: body.error.code }).toEqual({ what, status: 403, code });
      }
      // an expired link, signed with the service's own key an hour ago
      const past = new DownloadLinks(SECRET, undefined, () => Date.now() - 3_600_000);
      const id = decodeURIComponent(good.pathname.split('/').pop()!);
      const expired = new URL(past.link('http://x', { tenant: 'client-b', titleNumber: 'MID15313', kind: 'documents', id }, new Date(Date.now() + 3_600_000)));
      const { status, body } = await refusal(await svc.get(expired.pathname + expired.search, null));
      expect([status, body.error.code]).toEqual([403, 'DOWNLOAD_LINK_EXPIRED']);
      expect(svc.emulator.calls.count({ route: 'downloadDocument' })).toBe(0);
    } finally {
      await svc.stop();
    }
  });

  test('a replay of the order gets a fresh link to the same document', async () => {
    const svc = await startService({}, { downloadLinkSecret: SECRET });
    try {
      const key = newKey('replay-link');
      const first = await order(svc, 'dev-key-b', '5555', key);
      await new Promise((resolve) => setTimeout(resolve, 1_100)); // expiries are in whole seconds
      const replay = await order(svc, 'dev-key-b', '5555', key);
      expect(replay.documentId).toBe(first.documentId);
      expect(replay.downloadUrl).not.toBe(first.downloadUrl);
      expect(Number(new URL(replay.downloadUrl).searchParams.get('expires'))).toBeGreaterThan(Number(new URL(first.downloadUrl).searchParams.get('expires')));
      expect(svc.emulator.calls.count({ route: 'orderDocument' })).toBe(1);
    } finally {
      await svc.stop();
    }
  });

  test('plans get signed links too', async () => {
    const svc = await startService();
    try {
      const { data } = await svc.gql(PurchaseTitlePlansMutation, { fas: '5555', input: { titleNumber: 'MID15313', idempotencyKey: newKey('plan-link') } }, 'dev-key-b');
      for (const plan of data!.purchaseTitlePlans.plans) {
        const link = new URL(plan.downloadUrl);
        expect(link.searchParams.get('client')).toBe('client-b');
        expect((await svc.get(link.pathname + link.search, null)).status).toBe(200);
      }
    } finally {
      await svc.stop();
    }
  });
});
