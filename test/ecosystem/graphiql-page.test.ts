/** The GraphiQL page (~9 MB of inlined assets) travels compressed and is revalidated with its ETag. */
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startService } from '../service/harness';

type Svc = Awaited<ReturnType<typeof startService>>;
let svc: Svc;
beforeAll(async () => {
  svc = await startService();
});
afterAll(() => svc.stop());

const page = (headers: Record<string, string>) => svc.yoga.fetch('http://titlegraph.test/graphql', { headers: { accept: 'text/html', ...headers } });

test('brotli or gzip as the browser accepts, far smaller than the page, and the same page', async () => {
  const plain = await page({});
  expect(plain.status).toBe(200);
  expect(plain.headers.get('content-encoding')).toBeNull();
  const html = Buffer.from(await plain.arrayBuffer());
  expect(html.toString('utf8')).toContain('<title>titlegraph</title>');

  const br = await page({ 'accept-encoding': 'gzip, deflate, br' });
  expect(br.headers.get('content-encoding')).toBe('br');
  const brBytes = Buffer.from(await br.arrayBuffer());
  expect(brBytes.length).toBeLessThan(html.length / 3);
  expect(brotliDecompressSync(brBytes).equals(html)).toBe(true);

  const gz = await page({ 'accept-encoding': 'gzip' });
  expect(gz.headers.get('content-encoding')).toBe('gzip');
  expect(gunzipSync(Buffer.from(await gz.arrayBuffer())).equals(html)).toBe(true);

  const refusesBr = await page({ 'accept-encoding': 'br;q=0, gzip' });
  expect(refusesBr.headers.get('content-encoding')).toBe('gzip');
});

test('an ETag, and 304 with no body when it still matches', async () => {
  const first = await page({ 'accept-encoding': 'br' });
  const etag = first.headers.get('etag')!;
  expect(etag).toMatch(/^".+"$/);
  expect(first.headers.get('cache-control')).toBe('no-cache');
  const again = await page({ 'accept-encoding': 'br', 'if-none-match': etag });
  expect(again.status).toBe(304);
  expect((await again.arrayBuffer()).byteLength).toBe(0);
});

test('a GET with a query is still a GraphQL request, not the page', async () => {
  const response = await svc.yoga.fetch(`http://titlegraph.test/graphql?query=${encodeURIComponent('{ __typename }')}`, {
    headers: { accept: 'application/json', 'x-graphql-yoga-csrf': '1' },
  });
  expect(await response.json()).toEqual({ data: { __typename: 'Query' } });
});
