/**
 * @defer and @stream over a real socket, read with meros (the multipart/mixed reader urql and
 * Relay use): a page of titles arrives item by item as the register answers, and a deferred
 * securities listing after the summary.
 */
import { meros } from 'meros/browser';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { startHttpService, type HttpService } from '../support/harness';
import { postRaw } from '../support/post-raw';

let svc: HttpService;
let url: string;
beforeAll(async () => {
  // Register latency, and two calls at a time: 12 titles come back in six rounds.
  svc = await startHttpService({ emulator: { latencyMs: 40 }, services: { reads: { concurrency: 2 } } });
  url = svc.url;
});
afterAll(() => svc.stop());

interface Part {
  data?: unknown;
  incremental?: { items?: { titleNumber: string }[]; data?: unknown; path: (string | number)[] }[];
  hasNext: boolean;
}

async function parts(query: string, variables: unknown): Promise<{ parts: Part[]; callsAtFirstItem: number }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'multipart/mixed', authorization: 'Bearer dev-key-a' },
    body: JSON.stringify({ query, variables }),
  });
  expect(response.headers.get('content-type')).toMatch(/^multipart\/mixed/);
  const stream = await meros<Part>(response);
  const out: Part[] = [];
  let callsAtFirstItem = -1;
  for await (const part of stream as AsyncIterable<{ json: boolean; body: Part }>) {
    out.push(part.body);
    if (callsAtFirstItem < 0 && part.body.incremental?.some((i) => i.items?.length))
      callsAtFirstItem = svc.emulator.calls.count({ route: 'titleSummary' });
  }
  return { parts: out, callsAtFirstItem };
}

test('@stream on titles: items arrive one by one, in order, before the whole page is fetched', async () => {
  svc.emulator.calls.reset();
  const titleNumbers = Array.from({ length: 12 }, (_, i) => `BLK${300 + i}`);
  const { parts: received, callsAtFirstItem } = await parts(
    'query($n: [TitleNumber!]!) { titles(titleNumbers: $n) @stream(initialCount: 0) { titleNumber status } }',
    { n: titleNumbers },
  );
  expect(received[0]).toMatchObject({ data: { titles: [] }, hasNext: true });
  const streamed = received.flatMap((p) => p.incremental ?? []).flatMap((i) => i.items ?? []);
  expect(streamed.map((t) => t.titleNumber)).toEqual(titleNumbers);
  expect(received.length).toBeGreaterThan(2);
  expect(received.at(-1)!.hasNext).toBe(false);
  // the first item was on its way while most of the page was still at the register
  expect(callsAtFirstItem).toBeGreaterThan(0);
  expect(callsAtFirstItem).toBeLessThan(titleNumbers.length);
});

test('@defer: the summary first, the securities listing after it', async () => {
  const { parts: received } = await parts(
    'query($t: TitleNumber!) { title(titleNumber: $t) { titleNumber ... @defer { securities { id } } } }',
    { t: 'MID15313' },
  );
  expect(received[0]).toMatchObject({ data: { title: { titleNumber: 'MID15313' } }, hasNext: true });
  expect(received[0]!.data).not.toHaveProperty('title.securities');
  const deferred = received.flatMap((p) => p.incremental ?? []);
  expect(deferred).toEqual([
    expect.objectContaining({ path: ['title'], data: { securities: [{ id: expect.any(String) }, { id: expect.any(String) }] } }),
  ]);
});

test('without @stream the same query is one ordinary JSON answer', async () => {
  const response = await postRaw(url, { query: '{ titles(titleNumbers: ["BLK1", "BLK2"]) { titleNumber } }' }, { accept: null });
  expect(response.headers.get('content-type')).toMatch(/^application\/(graphql-response\+)?json/);
  expect(response.body).toEqual({ data: { titles: [{ titleNumber: 'BLK1' }, { titleNumber: 'BLK2' }] } });
});
