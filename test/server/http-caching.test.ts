/**
 * Queries sent by GET are cacheable per caller: Cache-Control private with the summary cache's
 * max-age, an ETag per caller and body, and 304 on a matching If-None-Match.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { startService } from '../support/harness';
import { postRaw } from '../support/post-raw';

type Svc = Awaited<ReturnType<typeof startService>>;
const running: Svc[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((s) => s.stop()));
});
async function service(summaryCacheTtlMs = 0) {
  const svc = await startService({ services: { reads: { summaryCacheTtlMs } } });
  running.push(svc);
  return svc;
}

const QUERY = encodeURIComponent('{ title(titleNumber: "MID15313") { titleNumber status } }');
const get = (svc: Svc, key: string, headers: Record<string, string> = {}, query = QUERY) =>
  svc.yoga.fetch(`http://titlegraph.test/graphql?query=${query}`, {
    headers: { authorization: `Bearer ${key}`, 'x-graphql-yoga-csrf': '1', accept: 'application/graphql-response+json', ...headers },
  });

describe('GET queries', () => {
  test('an ETag per caller, 304 when it still matches, and private caching only', async () => {
    const svc = await service();
    const first = await get(svc, 'dev-key-a');
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/".+"$/);
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    expect(first.headers.get('vary')).toMatch(/Authorization/);
    expect(await first.json()).toEqual({ data: { title: { titleNumber: 'MID15313', status: 'REGISTERED' } } });

    const again = await get(svc, 'dev-key-a', { 'if-none-match': etag });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');

    // another caller, same answer, same validator: not theirs to revalidate
    const other = await get(svc, 'dev-key-b', { 'if-none-match': etag });
    expect(other.status).toBe(200);
    expect(other.headers.get('etag')).not.toBe(etag);
  });

  test('the max-age follows the summary cache', async () => {
    const svc = await service(60_000);
    const response = await get(svc, 'dev-key-a');
    expect(response.headers.get('cache-control')).toBe('private, max-age=60');
  });

  test('answers with errors, and POSTs, carry no validator', async () => {
    const svc = await service();
    const failed = await get(svc, 'dev-key-a', {}, encodeURIComponent('{ title(titleNumber: "MID15313") { nope } }'));
    expect(failed.headers.get('etag')).toBeNull();
    const posted = await postRaw(svc.yoga, { query: '{ title(titleNumber: "MID15313") { titleNumber } }' }, { accept: null });
    expect(posted.status).toBe(200);
    expect(posted.headers.get('etag')).toBeNull();
  });
});
