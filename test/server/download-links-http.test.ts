/**
 * Download links over a real socket, as a browser follows an `<a href>`: the link names the
 * service's own address (or PUBLIC_URL) and needs no Authorization header.
 */
import { print } from 'graphql';
import { afterEach, describe, expect, test } from 'vitest';
import { OrderTitleDocumentMutation, PurchaseTitlePlansMutation } from '../support/documents';
import { EMBEDDED_ENV, spawnTs } from '../support/processes';
import { newKey, startHttpService, type HttpService } from '../support/harness';
import { postRaw } from '../support/post-raw';
import { parseMetrics, sum } from '../support/prometheus';

const SECRET = 'a-test-signing-key-of-at-least-32-characters';

let svc: HttpService | undefined;
afterEach(async () => {
  await svc?.stop();
  svc = undefined;
});

async function orderedLink(service: HttpService): Promise<string> {
  const { body } = await postRaw(
    service.url,
    {
      query: print(OrderTitleDocumentMutation),
      variables: { fas: '5555', input: { titleNumber: 'MID15313', titleSheet: { include: true }, idempotencyKey: newKey('http-link') } },
    },
    { authorization: 'Bearer dev-key-b' },
  );
  expect(body.errors).toBeUndefined();
  return body.data.orderTitleDocument.document.downloadUrl as string;
}

const startsWithPdf = async (response: Response) =>
  new TextDecoder().decode(new Uint8Array(await response.arrayBuffer()).slice(0, 5)) === '%PDF-';

describe('download links over HTTP', () => {
  test('without PUBLIC_URL the link is at the address the request came to, and a plain GET downloads the PDF', async () => {
    svc = await startHttpService({ services: { downloadLinkSecret: SECRET } });
    const link = await orderedLink(svc);
    expect(link.startsWith(`${svc.origin}/downloads/titles/MID15313/documents/`)).toBe(true);
    const response = await fetch(link); // no Authorization, as a browser following a link
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/pdf');
    expect(await startsWithPdf(response)).toBe(true);
    expect(svc.emulator.calls.count({ route: 'downloadDocument', clientId: 'client-b' })).toBe(1);
  });

  test('with PUBLIC_URL the link is at that address; its path and query work behind the proxy', async () => {
    svc = await startHttpService({ services: { downloadLinkSecret: SECRET, publicUrl: 'https://titlegraph.example.com' } });
    const link = new URL(await orderedLink(svc));
    expect(link.origin).toBe('https://titlegraph.example.com');
    // what the proxy at PUBLIC_URL forwards: the same path and query, to this server
    const response = await fetch(`${svc.origin}${link.pathname}${link.search}`);
    expect(response.status).toBe(200);
    expect(await startsWithPdf(response)).toBe(true);
  });

  test('plans too, and a changed link is a 403 JSON problem with nothing fetched from the register', async () => {
    svc = await startHttpService({ services: { downloadLinkSecret: SECRET } });
    const { body } = await postRaw(
      svc.url,
      {
        query: print(PurchaseTitlePlansMutation),
        variables: { fas: '5555', input: { titleNumber: 'MID15313', idempotencyKey: newKey('http-plans') } },
      },
      { authorization: 'Bearer dev-key-b' },
    );
    expect(body.data.purchaseTitlePlans.userErrors).toEqual([]);
    const links = (body.data.purchaseTitlePlans.plans as { downloadUrl: string }[]).map((p) => p.downloadUrl);
    expect(links.length).toBeGreaterThan(0);
    svc.emulator.calls.reset();
    const changed = new URL(links[0]!);
    changed.pathname = changed.pathname.replace(/[^/]+$/, 'another-plan');
    const refused = await fetch(changed);
    expect(refused.status).toBe(403);
    expect(refused.headers.get('content-type')).toMatch(/^application\/json/);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('DOWNLOAD_LINK_INVALID');
    expect(svc.emulator.calls.count()).toBe(0);
    for (const link of links) {
      const response = await fetch(link);
      expect(response.status).toBe(200);
      expect(await startsWithPdf(response)).toBe(true);
    }
  });

  test('every /downloads request is counted by outcome, with its duration: a whole file, a changed link, a wrong key, a cap reached, an unknown id', async () => {
    svc = await startHttpService({ services: { downloads: { perTenant: 1 } } });
    const link = await orderedLink(svc);
    expect(await startsWithPdf(await fetch(link))).toBe(true);
    expect((await fetch(link.replace(/signature=[^&]+/, 'signature=forged'))).status).toBe(403);
    const path = new URL(link).pathname;
    expect((await fetch(`${svc.origin}${path}`, { headers: { authorization: 'Bearer not-a-key' } })).status).toBe(401);
    expect(
      (await fetch(`${svc.origin}${path.replace(/[^/]+$/, 'no-such-id')}`, { headers: { authorization: 'Bearer dev-key-b' } })).status,
    ).toBe(404);
    // One download at a time for this client: a second while the first is still open (the
    // register sending it slowly) is refused.
    svc.emulator.faults.inject('downloadDocument', { kind: 'drip', chunkBytes: 256, intervalMs: 20 }, 1);
    const open = await fetch(link);
    expect((await fetch(link)).status).toBe(429);
    expect(await startsWithPdf(open)).toBe(true);

    const scrape = async () => parseMetrics(await (await fetch(`${svc!.origin}/metrics`)).text());
    // A file is counted when its stream closes, just after its last byte went out.
    await expect.poll(async () => sum(await scrape(), 'titlegraph_downloads_total', { outcome: 'ok' })).toBe(2);
    const metrics = await scrape();
    const count = (outcome: string) => sum(metrics, 'titlegraph_downloads_total', { outcome });
    expect(count('download_link_invalid')).toBe(1);
    expect(count('unauthenticated')).toBe(1);
    expect(count('document_not_found')).toBe(1);
    expect(count('too_many_downloads')).toBe(1);
    expect(sum(metrics, 'titlegraph_download_duration_seconds_count')).toBe(6);
  });

  test('replicas (DATABASE_URL) without DOWNLOAD_LINK_SECRET: the service does not start, and says which setting is missing', async () => {
    const child = spawnTs('src/start.ts', [], {
      ...EMBEDDED_ENV,
      PORT: '0',
      EMULATOR_PORT: '0',
      DATABASE_URL: 'postgres://127.0.0.1:1/titlegraph',
      DOWNLOAD_LINK_SECRET: undefined,
    });
    const { code } = await child.exited;
    expect(code).toBe(1);
    const lines = child.output().trim().split('\n');
    // one plain line on stderr, one JSON line in the log: both say it
    expect(lines.filter((line) => !line.startsWith('{'))).toEqual([
      expect.stringMatching(/DOWNLOAD_LINK_SECRET is required when DATABASE_URL is set/),
    ]);
    expect(lines.filter((line) => line.startsWith('{')).map((line) => (JSON.parse(line) as { msg: string }).msg)).toContainEqual(
      expect.stringMatching(/DOWNLOAD_LINK_SECRET is required when DATABASE_URL is set/),
    );
    expect(child.output()).not.toMatch(/listening/i);
  });
});
