/**
 * The GraphiQL page (~9 MB of inlined assets) over a real socket: it travels compressed as the
 * browser accepts, and is revalidated with its ETag.
 */
import { get } from 'node:http';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startHttpService, type HttpService } from '../support/harness';

let svc: HttpService;
beforeAll(async () => {
  svc = await startHttpService({ app: { graphiql: true } });
});
afterAll(() => svc.stop());

/** The page's bytes as they cross the wire (fetch would decode them). */
function raw(
  headers: Record<string, string>,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(svc.url, { headers: { accept: 'text/html', ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    }).on('error', reject);
  });
}

test('brotli or gzip as the browser accepts, far smaller than the page, and the same page', async () => {
  const plain = await raw({ 'accept-encoding': 'identity' });
  expect(plain.status).toBe(200);
  expect(plain.headers['content-encoding']).toBeUndefined();
  expect(plain.body.toString('utf8')).toContain('<title>titlegraph</title>');
  expect(plain.body.length).toBeGreaterThan(5_000_000);

  const br = await raw({ 'accept-encoding': 'gzip, deflate, br, zstd' });
  expect(br.headers['content-encoding']).toBe('br');
  expect(br.headers.vary).toMatch(/Accept-Encoding/);
  expect(br.body.length).toBeLessThan(plain.body.length / 3);
  expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);

  const gz = await raw({ 'accept-encoding': 'gzip' });
  expect(gz.headers['content-encoding']).toBe('gzip');
  expect(gz.body.length).toBeLessThan(plain.body.length / 3);
  expect(gunzipSync(gz.body).equals(plain.body)).toBe(true);

  const refusesBr = await raw({ 'accept-encoding': 'br;q=0, gzip' });
  expect(refusesBr.headers['content-encoding']).toBe('gzip');
  expect(refusesBr.body.equals(gz.body)).toBe(true);
});

test('an ETag, and 304 with no body when it still matches, whatever the encoding', async () => {
  // fetch asks for compression and decodes it, as a browser does.
  const first = await fetch(svc.url, { headers: { accept: 'text/html' } });
  expect(first.status).toBe(200);
  expect(first.headers.get('content-encoding')).toMatch(/^(br|gzip)$/);
  expect(await first.text()).toContain('<title>titlegraph</title>');
  const etag = first.headers.get('etag')!;
  expect(etag).toMatch(/^W\/".+"$/);
  expect(first.headers.get('cache-control')).toBe('no-cache');

  const again = await fetch(svc.url, { headers: { accept: 'text/html', 'if-none-match': etag } });
  expect(again.status).toBe(304);
  expect(again.headers.get('etag')).toBe(etag);
  expect((await again.arrayBuffer()).byteLength).toBe(0);

  // The tag a gzip or an uncompressed response gave revalidates as well.
  const plain = await raw({ 'accept-encoding': 'identity', 'if-none-match': `"other", ${etag}` });
  expect(plain.status).toBe(304);
  expect(plain.body.length).toBe(0);

  const stale = await fetch(svc.url, { headers: { accept: 'text/html', 'if-none-match': 'W/"not-this-page"' } });
  expect(stale.status).toBe(200);
  expect(await stale.text()).toContain('<title>titlegraph</title>');
});

test('a GET with a query is still a GraphQL request, not the page', async () => {
  const response = await fetch(`${svc.url}?query=${encodeURIComponent('{ __typename }')}`, {
    headers: { accept: 'application/json', 'x-graphql-yoga-csrf': '1' },
  });
  expect(await response.json()).toEqual({ data: { __typename: 'Query' } });
});

test('a deep link opened in a browser is the page, while an API GET without a CSRF header stays refused', async () => {
  const deepLink = `${svc.url}?query=${encodeURIComponent('{ __typename }')}`;
  const page = await fetch(deepLink, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toMatch(/^text\/html/);
  expect(await page.text()).toContain('<title>titlegraph</title>');
  const api = await fetch(deepLink, { headers: { accept: 'application/json' } });
  expect(api.status).toBe(403);
  expect(((await api.json()) as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code).toBe('CSRF_HEADER_REQUIRED');
});
