/**
 * The example front end (examples/web) in a real browser, built with Vite's programmatic build():
 * - served from its own origin, calling the service cross-origin (CORS allows that origin);
 * - built with VITE_PERSISTED_OPERATIONS=true and served from the service's origin, against a
 *   service that accepts only the example's persisted operations.
 * Both look up a title, order its title document, say how long the link and the document last,
 * follow the download link to a PDF, and refuse to order for a draft or unknown title.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import { loadPersistedOperations } from '../../src/config';
import { startService } from '../support/harness';
import { artifactPath, browserSkipReason, launchBrowser, listen, type Browser } from '../support/browser';
import { buildExample, EXAMPLE, staticFiles } from '../support/web-example';

const suite = browserSkipReason ? describe.skip : describe;

/** Looks a title up and waits for the page to finish with it (a card or a refusal). */
async function lookUp(browser: Browser, titleNumber: string) {
  const { page } = browser;
  await page.fill('#title-number', titleNumber);
  await page.click('#lookup-button');
  await page.locator('#result :is([data-testid="title"], .error)').waitFor({ timeout: 20_000 });
}

/** `serviceUrl`: where the page sends its requests; '' when that is the page's own origin. */
async function lookUpAndOrder(browser: Browser, pageUrl: string, serviceUrl: string, screenshot: string) {
  const { page } = browser;
  await page.goto(pageUrl, { waitUntil: 'load' });
  await lookUp(browser, 'mid15313');
  const card = page.locator('[data-testid="title"]');
  const text = await card.innerText();
  expect(text).toContain('MID15313');
  expect(text).toContain('REGISTERED');
  expect(text).toContain('Dalhousie Road, Dalkeith, EH22 3AB');
  expect(text).toContain('Title plan');
  // The price before the click: the list fee, or nothing when this FAS bought the title today. The
  // page asks for it once the card is shown, so it is waited for, not read at once.
  const price = /^Title document: (£3\.00 \+ VAT|already bought today: no charge)\.$/;
  await page.locator('#quote', { hasText: price }).waitFor({ timeout: 20_000 });
  expect(await page.locator('#quote').innerText()).toMatch(price);

  await page.click('#order');
  const link = page.locator('a#download');
  await link.waitFor({ timeout: 20_000 });
  const href = await link.getAttribute('href');
  // through the service the page talks to: its own origin (the page's proxy) when same-origin
  expect(href?.startsWith(`${serviceUrl}/downloads/titles/MID15313/documents/`)).toBe(true);
  // The first order of the day is charged; a repeat for the same FAS and title is not. The
  // register's clock is at 10 June 2026, so the document's day is that one, in UK form.
  expect(await page.locator('#order-result').innerText()).toMatch(
    /Charged: (.*£\d+\.\d\d|nothing).*\. The link works for 15 minutes; the document until the end of 10\/06\/2026 \(midnight, London time\)\./,
  );
  // Bought now: ordering it again today would be free, and the page says so.
  await page.locator('#quote', { hasText: 'already bought today: no charge' }).waitFor({ timeout: 20_000 });
  // The day's list names who bought: with a key (here none, so the emulator's dev-key-a), the key's name.
  await page
    .locator('#purchases li', { hasText: /^MID15313: orderTitleDocument, £\d+\.\d\d, bought by dev-key-a$/ })
    .first()
    .waitFor({ timeout: 20_000 });
  await page.screenshot({ path: artifactPath(screenshot), fullPage: true });

  // The link is signed: with no Authorization header, as a browser follows it, it is the PDF.
  const download = await fetch(new URL(href!, pageUrl));
  expect(download.status).toBe(200);
  expect(download.headers.get('content-type')).toMatch(/application\/pdf/);
  expect(
    Buffer.from(await download.arrayBuffer())
      .subarray(0, 5)
      .toString('latin1'),
  ).toBe('%PDF-');

  // A draft title is shown, but documents cannot be ordered for it; an unknown title resets the button.
  await lookUp(browser, 'GLA5001');
  expect(await page.locator('[data-testid="title"]').innerText()).toContain('DRAFT');
  expect(await page.locator('#order').isDisabled()).toBe(true);
  expect(await page.locator('#order').innerText()).toBe('Title documents are for registered titles only (GLA5001 is draft)');
  await lookUp(browser, 'ZZZ999');
  expect(await page.locator('#result').innerText()).toContain('No title ZZZ999 in the register.');
  expect(await page.locator('#order').isDisabled()).toBe(true);
  expect(await page.locator('#order').innerText()).toBe('Order title document');
  expect(browser.problems.filter((p) => !/favicon/.test(p))).toEqual([]);
}

suite(`example front end in headless Chromium${browserSkipReason ? ` (skipped: ${browserSkipReason})` : ''}`, () => {
  let svc: Awaited<ReturnType<typeof startService>>;
  const out = mkdtempSync(join(tmpdir(), 'titlegraph-web-'));
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    svc = await startService();
    // a fixed register day, so that the page's UK date is known
    svc.emulator.clock.set(new Date('2026-06-10T12:00:00Z'));
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
    await lookUpAndOrder(browser, site.url, api.url, 'web-example.png');
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
    await lookUpAndOrder(browser, site.url, '', 'web-example-persisted.png');
    expect(bodies.length).toBeGreaterThanOrEqual(2);
    for (const body of bodies) {
      expect(body.documentId).toMatch(/^sha256:[0-9a-f]{64}$/);
      expect(body.query).toBeUndefined();
    }
  });

  it('a spent daily limit: the quote says so and the order button is off', { timeout: 120_000 }, async () => {
    const limited = await startService({
      services: { spend: { feesPence: { TITLE_DATA_AND_PLANS: 300, PENDING_APPLICATIONS: 300 }, clientLimitPence: 100 } },
    });
    closers.push(() => limited.stop());
    const dist = join(out, 'limited');
    const site = await listen(staticFiles(dist, createApp(limited.services)));
    closers.push(site.close);
    await buildExample(dist, {});
    const browser = await launchBrowser();
    closers.push(browser.close);
    await browser.page.goto(site.url, { waitUntil: 'load' });
    await lookUp(browser, 'MID1234');
    await browser.page.locator('#quote', { hasText: 'limit' }).waitFor({ timeout: 20_000 });
    expect(await browser.page.locator('#quote').innerText()).toBe(
      "Title document: £3.00 + VAT, but today's spending limit has no room for it: ordering is off until midnight (London time).",
    );
    expect(await browser.page.locator('#order').isDisabled()).toBe(true);
    expect(limited.emulator.calls.count({ route: 'orderDocument' })).toBe(0);
  });

  it("with the service down behind the page's proxy (502), the page says to start it", { timeout: 120_000 }, async () => {
    const dist = join(out, 'no-service');
    // what Vite's proxy answers when nothing listens at TITLEGRAPH_URL
    const site = await listen(staticFiles(dist, (_req, res) => res.writeHead(502).end()));
    closers.push(site.close);
    await buildExample(dist, {});

    const browser = await launchBrowser();
    closers.push(browser.close);
    await browser.page.goto(site.url, { waitUntil: 'load' });
    await lookUp(browser, 'MID15313');
    expect(await browser.page.locator('#result').innerText()).toBe('The service did not answer: is `npm start` running?');
    expect(await browser.page.locator('#order').isDisabled()).toBe(true);
  });
});
