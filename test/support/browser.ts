/**
 * Browser test support: Debian's Chromium (/usr/bin/chromium) driven by playwright-core, which
 * never downloads a browser of its own. Without Chromium the browser tests are skipped locally
 * (with the reason in the suite name) but run, and fail, when CI is set: .ci/run installs it.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_PATH = '/usr/bin/chromium';
const inCI = !!process.env.CI && process.env.CI !== 'false' && process.env.CI !== '0';

/** Why the browser tests are skipped here, or undefined when they run. */
export const browserSkipReason: string | undefined =
  existsSync(CHROMIUM_PATH) || inCI
    ? undefined
    : `Chromium not installed at ${CHROMIUM_PATH} (apt-get install chromium); CI=true makes this a failure`;

/** Flags that keep Chromium off the (closed) network and quiet as root in a container. */
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

export const ARTIFACTS = 'test-artifacts';

export interface Browser {
  context: BrowserContext;
  page: Page;
  /** Console errors and failed requests seen by the page, for assertions and diagnosis. */
  problems: string[];
  close(): Promise<void>;
}

/** A fresh headless Chromium with an empty profile (its own --user-data-dir). */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium not found at ${CHROMIUM_PATH}: CI is set, so browser tests must run (.ci/run installs it)`);
  }
  const profile = mkdtempSync(join(tmpdir(), 'titlegraph-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 800 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`request failed: ${request.url().slice(0, 200)}`));
  return {
    context,
    page,
    problems,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** Serves a request listener (a yoga instance, a static folder) on 127.0.0.1 and a free port. */
export async function listen(handler: RequestListener): Promise<{ server: Server; url: string; close(): Promise<void> }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address !== 'object') throw new Error('no address');
  return {
    server,
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export function artifactPath(name: string): string {
  mkdirSync(ARTIFACTS, { recursive: true });
  return join(ARTIFACTS, name);
}
