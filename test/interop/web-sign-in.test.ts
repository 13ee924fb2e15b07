/**
 * The web example signing people in, in headless Chromium, against a real OpenID Provider (the
 * local one of `npm run idp`, scripts/idp/provider.ts) started here, and titlegraph trusting it
 * (an identity provider entry as in the tenants file), over real HTTP on three origins:
 * - Ann (titles:buy) signs in at the provider's form, looks up a title, sees the quote, orders,
 *   sees "bought by Ann Macleod" in the day's list (the emulator charged her organisation's
 *   client once), and signs out: the provider's session is over, so signing in asks again;
 * - Ben (no titles:buy) is refused a wrong password, then signs in, sees the quote, and his
 *   order is refused with FORBIDDEN naming titles:buy: nothing reached the register;
 * - a token titlegraph refuses (tampered in the tab's storage) signs the person out of the page.
 * Every titlegraph request carried the person's JWT access token, never a key.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PEOPLE } from '../../scripts/idp/people';
import { AUDIENCE } from '../../scripts/idp/defaults';
import { startIdp, type Idp } from '../../scripts/idp/provider';
import { createApp } from '../../src/server/app';
import { artifactPath, browserSkipReason, launchBrowser, listen, type Browser } from '../support/browser';
import { startService } from '../support/harness';
import { buildExample, staticFiles } from '../support/web-example';

const suite = browserSkipReason ? describe.skip : describe;
const [ann, ben] = PEOPLE as [(typeof PEOPLE)[number], (typeof PEOPLE)[number]];

suite(`web example sign-in with OpenID Connect in headless Chromium${browserSkipReason ? ` (skipped: ${browserSkipReason})` : ''}`, () => {
  let svc: Awaited<ReturnType<typeof startService>>;
  let idp: Idp;
  let siteUrl: string;
  let apiUrl: string;
  const out = mkdtempSync(join(tmpdir(), 'titlegraph-web-sign-in-'));
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    // The page's origin first: the provider's client returns there.
    const site = await listen(staticFiles(out));
    closers.push(site.close);
    siteUrl = site.url;
    idp = await startIdp({ port: 0, clientOrigins: [siteUrl] });
    closers.push(idp.close);
    svc = await startService({
      services: {
        identityProviders: [
          {
            name: 'local-idp',
            issuer: idp.issuer,
            audience: AUDIENCE,
            organisation: 'ORG-A',
            clientId: 'client-a',
            clientSecret: 'secret-a',
          },
        ],
      },
    });
    // a fixed register day, so that the page's dates are known
    svc.emulator.clock.set(new Date('2026-06-10T12:00:00Z'));
    const api = await listen(createApp(svc.services, { corsOrigins: [siteUrl] }));
    closers.push(api.close);
    apiUrl = api.url;
    await buildExample(out, { VITE_TITLEGRAPH_URL: apiUrl, VITE_OIDC_AUTHORITY: idp.issuer });
  }, 120_000);

  afterAll(async () => {
    for (const close of closers.reverse()) await close();
    await svc?.stop();
    rmSync(out, { recursive: true, force: true });
  });

  /** A fresh browser that records the Authorization header of every request to titlegraph. */
  async function browserRecordingCredentials() {
    const browser = await launchBrowser();
    closers.push(browser.close);
    const credentials: (string | undefined)[] = [];
    browser.page.on('request', (request) => {
      if (request.url() === `${apiUrl}/graphql` && request.method() === 'POST') credentials.push(request.headers().authorization);
    });
    return { browser, credentials };
  }

  /** From the page's "Sign in" to the provider's form and back, signed in. */
  async function signIn(browser: Browser, person: { login: string; password: string; name: string }) {
    const { page } = browser;
    await page.goto(siteUrl, { waitUntil: 'load' });
    await page.locator('#sign-in').waitFor({ state: 'visible' });
    expect(await page.locator('#app').isVisible()).toBe(false);
    await page.click('#sign-in');
    await page.waitForURL(`${idp.issuer}/interaction/**`);
    await page.fill('#login', person.login);
    await page.fill('#password', person.password);
    await page.click('#login-submit');
    await page.waitForURL(`${siteUrl}/`);
    await page.locator('#signed-in-as', { hasText: `Signed in as ${person.name}` }).waitFor({ timeout: 20_000 });
    // the code and state are out of the address bar
    expect(page.url()).toBe(`${siteUrl}/`);
  }

  async function lookUp({ page }: Browser, titleNumber: string) {
    await page.fill('#title-number', titleNumber);
    await page.click('#lookup-button');
    await page.locator('#result :is([data-testid="title"], .error)').waitFor({ timeout: 20_000 });
  }

  /** Each call to titlegraph carried a JWT access token for titlegraph, issued to this person. */
  function expectPersonTokens(credentials: (string | undefined)[], login: string) {
    expect(credentials.length).toBeGreaterThanOrEqual(3);
    for (const credential of credentials) {
      expect(credential).toMatch(/^Bearer ey[\w-]+\.[\w-]+\.[\w-]+$/);
      const claims = decodeJwt(credential!.slice('Bearer '.length));
      expect(claims).toMatchObject({ iss: idp.issuer, aud: AUDIENCE, sub: login });
    }
  }

  it('Ann signs in, looks up a title, sees the quote, orders, sees "bought by Ann Macleod", and signs out', {
    timeout: 120_000,
  }, async () => {
    const { browser, credentials } = await browserRecordingCredentials();
    const { page } = browser;
    await signIn(browser, ann);
    // signed in, nothing bought yet today
    await page.locator('#purchases li', { hasText: 'Nothing bought today.' }).waitFor({ timeout: 20_000 });

    svc.emulator.calls.reset();
    await lookUp(browser, 'MID15313');
    expect(await page.locator('[data-testid="title"]').innerText()).toContain('REGISTERED');
    // The page asks for the price once the card is shown: waited for, not read at once.
    await page.locator('#quote', { hasText: 'Title document:' }).waitFor({ timeout: 20_000 });
    expect(await page.locator('#quote').innerText()).toBe('Title document: £3.00 + VAT.');

    await page.click('#order');
    await page.locator('a#download').waitFor({ timeout: 20_000 });
    const bought = page.locator('#purchases li', { hasText: 'bought by Ann Macleod' });
    await bought.waitFor({ timeout: 20_000 });
    expect(await bought.innerText()).toBe('MID15313: orderTitleDocument, £3.00, bought by Ann Macleod');
    expect(await bought.getAttribute('data-caller')).toBe(ann.login);
    // one order reached the register, as the provider's register client
    expect(svc.emulator.calls.count({ route: 'orderDocument' })).toBe(1);
    expect(svc.emulator.calls.count({ route: 'orderDocument', clientId: 'client-a' })).toBe(1);
    await page.screenshot({ path: artifactPath('web-sign-in.png'), fullPage: true });
    expectPersonTokens(credentials, ann.login);

    // Sign out: the provider asks to confirm, then sends the browser back, signed out.
    await page.click('#sign-out');
    await page.waitForURL(`${idp.issuer}/**`);
    await page.click('#logout-yes');
    await page.waitForURL(`${siteUrl}/`);
    await page.locator('#sign-in').waitFor({ state: 'visible', timeout: 20_000 });
    expect(await page.locator('#app').isVisible()).toBe(false);
    expect(await page.locator('#signed-in-as').innerText()).toBe('');
    expect(await page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith('oidc.user')))).toEqual([]);
    // The provider's session is over too: signing in again asks for the password.
    await page.click('#sign-in');
    await page.waitForURL(`${idp.issuer}/interaction/**`);
    await page.locator('#password').waitFor({ state: 'visible' });
    expect(browser.problems).toEqual([]);
  });

  it('Ben, who may not buy, sees the quote and his order refused with FORBIDDEN; nothing reaches the register', {
    timeout: 120_000,
  }, async () => {
    const { browser, credentials } = await browserRecordingCredentials();
    const { page } = browser;
    // a wrong password first: the provider says so and signs nobody in
    await page.goto(siteUrl, { waitUntil: 'load' });
    await page.click('#sign-in');
    await page.waitForURL(`${idp.issuer}/interaction/**`);
    await page.fill('#login', ben.login);
    await page.fill('#password', 'not-his-password');
    await page.click('#login-submit');
    expect(await page.locator('#login-error').innerText()).toBe('Wrong login or password.');

    await signIn(browser, ben);
    svc.emulator.calls.reset();
    await lookUp(browser, 'MID1234');
    await page.locator('#quote', { hasText: 'Title document:' }).waitFor({ timeout: 20_000 });
    expect(await page.locator('#order').isDisabled()).toBe(false);

    const charges = svc.emulator.ledger.count();
    await page.click('#order');
    const refusal = page.locator('#order-result .error');
    await refusal.waitFor({ timeout: 20_000 });
    expect(await refusal.innerText()).toMatch(/^FORBIDDEN: .*titles:buy/);
    expect(await page.locator('a#download').count()).toBe(0);
    await page.screenshot({ path: artifactPath('web-sign-in-forbidden.png'), fullPage: true });
    // nothing was sent to the register for the order
    expect(svc.emulator.calls.count({ route: 'orderDocument' })).toBe(0);
    expect(svc.emulator.ledger.count()).toBe(charges);
    expectPersonTokens(credentials, ben.login);
    expect(browser.problems.filter((p) => !/status of 403/.test(p))).toEqual([]);
  });

  it('a token titlegraph refuses signs the person out of the page, which asks them to sign in again; nothing is sent', {
    timeout: 120_000,
  }, async () => {
    const { browser } = await browserRecordingCredentials();
    const { page } = browser;
    await signIn(browser, ann);
    // The token in this tab's storage, its payload changed (more scopes): its signature no longer matches.
    await page.evaluate(() => {
      const key = Object.keys(sessionStorage).find((k) => k.startsWith('oidc.user'))!;
      const user = JSON.parse(sessionStorage.getItem(key)!);
      const [header, payload, signature] = user.access_token.split('.');
      const fromBase64url = (text: string) => atob(text.replace(/-/g, '+').replace(/_/g, '/'));
      const toBase64url = (text: string) => btoa(text).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
      const claims = JSON.parse(fromBase64url(payload));
      const forged = toBase64url(JSON.stringify({ ...claims, scope: 'titles:read titles:buy charges:organisation' }));
      user.access_token = `${header}.${forged}.${signature}`;
      sessionStorage.setItem(key, JSON.stringify(user));
    });
    svc.emulator.calls.reset();
    await page.reload({ waitUntil: 'load' });
    await page.locator('#sign-in-needed', { hasText: 'Your sign-in was not accepted' }).waitFor({ timeout: 20_000 });
    expect(await page.locator('#sign-in-needed').innerText()).toMatch(/^Your sign-in was not accepted \(.*signature.*\): sign in again\.$/);
    expect(await page.locator('#sign-in').isVisible()).toBe(true);
    expect(await page.locator('#app').isVisible()).toBe(false);
    expect(await page.evaluate(() => Object.keys(sessionStorage).filter((k) => k.startsWith('oidc.user')))).toEqual([]);
    expect(svc.emulator.calls.count()).toBe(0);
  });
});
