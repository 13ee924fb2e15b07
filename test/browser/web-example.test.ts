/**
 * The example front end (examples/web) in a real browser, built with Vite's programmatic build():
 * - served from its own origin, calling the service cross-origin (CORS allows that origin);
 * - built with VITE_PERSISTED_OPERATIONS=true and served from the service's origin, against a
 *   service that accepts only the example's persisted operations.
 * Both look up a title, order its title document and follow the download link to a PDF.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { promisify } from 'node:util';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import { loadPersistedOperations } from '../../src/server/persisted-operations';
import { startService } from '../service/harness';
import { artifactPath, browserSkipReason, launchBrowser, listen, type Browser } from './browser';

const EXAMPLE = resolve('examples/web');
const suite = browserSkipReason ? describe.skip : describe;

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** Serves a built folder; anything else goes to `fallback` (the service, for a same-origin setup). */
function staticFiles(dir: string, fallback?: (req: IncomingMessage, res: ServerResponse) => void) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const file = normalize(join(dir, path === '/' ? 'index.html' : path));
    if (file.startsWith(dir) && req.method === 'GET') {
      try {
        if (statSync(file).isFile()) {
          res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
          res.end(readFileSync(file));
          return;
        }
      } catch {
        // not a built file
      }
    }
    if (fallback) return fallback(req, res);
    res.writeHead(404).end();
  };
}

async function buildExample(outDir: string, env: Record<string, string>) {
  await build({
    configFile: join(EXAMPLE, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
    define: Object.fromEntries(Object.entries(env).map(([k, v]) => [`import.meta.env.${k}`, JSON.stringify(v)])),
  });
}

async function lookUpAndOrder(browser: Browser, pageUrl: string, screenshot: string) {
  const { page } = browser;
  await page.goto(pageUrl, { waitUntil: 'load' });
  await page.fill('#title-number', 'mid15313');
  await page.click('#lookup-button');
  const card = page.locator('[data-testid="title"]');
  await card.waitFor({ timeout: 20_000 });
  const text = await card.innerText();
  expect(text).toContain('MID15313');
  expect(text).toContain('REGISTERED');
  expect(text).toContain('Dalhousie Road, Dalkeith, EH22 3AB');
  expect(text).toContain('Title plan');

  await page.click('#order');
  const link = page.locator('a#download');
  await link.waitFor({ timeout: 20_000 });
  const href = await link.getAttribute('href');
  expect(href).toMatch(/\/downloads\/titles\/MID15313\/documents\//);
  // The first order of the day is charged; a repeat for the same FAS and title is not.
  expect(await page.locator('#order-result').innerText()).toMatch(/Charged: (.*£\d+\.\d\d|nothing)/);
  await page.screenshot({ path: artifactPath(screenshot), fullPage: true });

  // The link is the service's: with the dev key it is the PDF.
  const download = await fetch(new URL(href!, pageUrl), { headers: { authorization: 'Bearer dev-key-a' } });
  expect(download.status).toBe(200);
  expect(download.headers.get('content-type')).toMatch(/application\/pdf/);
  expect(
    Buffer.from(await download.arrayBuffer())
      .subarray(0, 5)
      .toString('latin1'),
  ).toBe('%PDF-');
  expect(browser.problems.filter((p) => !/favicon/.test(p))).toEqual([]);
}

suite(`example front end in headless Chromium${browserSkipReason ? ` (skipped: ${browserSkipReason})` : ''}`, () => {
  let svc: Awaited<ReturnType<typeof startService>>;
  const out = mkdtempSync(join(tmpdir(), 'titlegraph-web-'));
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    svc = await startService();
  });
  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    await svc?.stop();
    rmSync(out, { recursive: true, force: true });
  });

  it('type-checks against the generated typed client', { timeout: 60_000 }, async () => {
    await promisify(execFile)(process.execPath, [resolve('node_modules/typescript/bin/tsc'), '-p', EXAMPLE]);
  });

  it('cross-origin: looks up a title, orders its document, the link is the PDF', { timeout: 120_000 }, async () => {
    const dist = join(out, 'cross-origin');
    const site = await listen(staticFiles(dist));
    closers.push(site.close);
    const api = await listen(createApp(svc.services, { corsOrigins: [site.url] }));
    closers.push(api.close);
    await buildExample(dist, { VITE_TITLEGRAPH_URL: api.url });

    const browser = await launchBrowser();
    closers.push(browser.close);
    const graphqlRequests: string[] = [];
    browser.page.on('request', (r) => r.url().endsWith('/graphql') && graphqlRequests.push(r.url()));
    await lookUpAndOrder(browser, site.url, 'web-example.png');
    expect(graphqlRequests.length).toBeGreaterThanOrEqual(2);
    expect(graphqlRequests.every((u) => u === `${api.url}/graphql`)).toBe(true);
  });

  it('persisted operations only: the page sends operation ids, never query text', { timeout: 120_000 }, async () => {
    const dist = join(out, 'persisted');
    const persistedOperations = loadPersistedOperations([join(EXAMPLE, 'src/gql/persisted-documents.json')], true);
    const yoga = createApp(svc.services, { persistedOperations });
    const site = await listen(staticFiles(dist, yoga));
    closers.push(site.close);
    await buildExample(dist, { VITE_PERSISTED_OPERATIONS: 'true' });

    const browser = await launchBrowser();
    closers.push(browser.close);
    const bodies: Record<string, unknown>[] = [];
    browser.page.on('request', (r) => {
      if (r.url().endsWith('/graphql') && r.method() === 'POST') bodies.push(JSON.parse(r.postData() ?? '{}'));
    });
    await lookUpAndOrder(browser, site.url, 'web-example-persisted.png');
    expect(bodies.length).toBeGreaterThanOrEqual(2);
    for (const body of bodies) {
      expect(body.documentId).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(body.query).toBeUndefined();
    }
  });
});
