/**
 * GraphiQL in a real browser: the page the service serves at /graphql loads with no CDN (every
 * request the page makes stays on the service's origin or is inline), runs the example query
 * and shows the fixture title in the result pane.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import { startService } from '../support/harness';
import { artifactPath, browserSkipReason, launchBrowser, listen, type Browser } from '../support/browser';

const suite = browserSkipReason ? describe.skip : describe;

suite(`GraphiQL in headless Chromium${browserSkipReason ? ` (skipped: ${browserSkipReason})` : ''}`, () => {
  let svc: Awaited<ReturnType<typeof startService>>;
  let http: Awaited<ReturnType<typeof listen>>;
  let browser: Browser;
  const requested: string[] = [];

  beforeAll(async () => {
    svc = await startService();
    const yoga = createApp(svc.services, {
      graphiql: true,
      graphiqlNote: 'Embedded register emulator: requests without credentials act as dev-key-a.',
    });
    http = await listen(yoga);
    browser = await launchBrowser();
    browser.page.on('request', (request) => requested.push(request.url()));
  });

  afterAll(async () => {
    await browser?.close();
    await http?.close();
    await svc?.stop();
  });

  it('loads offline, runs the example query and shows the title', { timeout: 120_000 }, async () => {
    const { page } = browser;
    const response = await page.goto(`${http.url}/graphql`, { waitUntil: 'load', timeout: 60_000 });
    expect(response?.status()).toBe(200);
    expect(await page.title()).toBe('titlegraph');

    // The query editor holds the example query and the dev-key note.
    const run = page.locator('.graphiql-execute-button');
    await run.waitFor({ state: 'visible', timeout: 60_000 });
    const editor = page.locator('.graphiql-query-editor');
    await expect.poll(() => editor.innerText(), { timeout: 30_000 }).toContain('TitleWithSecurities');
    expect(await editor.innerText()).toContain('dev-key-a');

    await run.click();
    const result = page.locator('.graphiql-response');
    await expect.poll(() => result.innerText(), { timeout: 30_000 }).toContain('MID15313');
    const text = await result.innerText();
    expect(text).toContain('REGISTERED');
    expect(text).not.toContain('"errors"');

    await page.screenshot({ path: artifactPath('graphiql.png') });

    // Nothing left the machine: every request was to the service itself, a blob: worker or inline data.
    const external = requested.filter((url) => !url.startsWith(http.url) && !/^(blob|data):/.test(url));
    expect(external).toEqual([]);
    expect(browser.problems.filter((p) => !/favicon/.test(p))).toEqual([]);
  });

  it('a deep link (/graphql?query=…) opens GraphiQL with that query in the editor', { timeout: 120_000 }, async () => {
    const { page } = browser;
    const query = 'query DeepLinked { title(titleNumber: "MID1234") { titleNumber status } }';
    const response = await page.goto(`${http.url}/graphql?query=${encodeURIComponent(query)}`, { waitUntil: 'load', timeout: 60_000 });
    expect(response?.status()).toBe(200);
    expect(response?.headers()['content-type']).toMatch(/^text\/html/);
    const editor = page.locator('.graphiql-query-editor');
    await expect.poll(() => editor.innerText(), { timeout: 30_000 }).toContain('DeepLinked');
    await page.locator('.graphiql-execute-button').click();
    const result = page.locator('.graphiql-response');
    await expect.poll(() => result.innerText(), { timeout: 30_000 }).toContain('MID1234');
  });
});
