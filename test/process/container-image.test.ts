/**
 * The Dockerfile's steps, performed without a container runtime: the build (`npm run build`),
 * a production-only install (`npm ci --omit=dev`) in a copy of its own, a start of the compiled
 * entry point with tsx and esbuild removed (nothing compiles at run time), the image's own
 * HEALTHCHECK command, a query, and SIGTERM ending in a clean exit.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { loadConfig } from '../../src/config';
import { postRaw } from '../support/post-raw';

const ROOT = join(import.meta.dirname, '..', '..');
const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');

let work: string;
let app: string;
let child: ChildProcess | undefined;

/** npm as this run's npm (npm test sets npm_execpath), on this Node. */
function npm(args: string[], cwd: string) {
  const execpath = process.env.npm_execpath;
  const [command, prefix] = execpath?.endsWith('.js') ? [process.execPath, [execpath]] : ['npm', []];
  return spawnSync(command, [...prefix, ...args], { cwd, encoding: 'utf8', timeout: 240_000 });
}

beforeAll(() => {
  work = mkdtempSync(join(tmpdir(), 'titlegraph-image-'));
  app = join(work, 'app');
  mkdirSync(app);
  const built = spawnSync(process.execPath, ['scripts/build.mjs', '--outdir', join(app, 'dist')], { cwd: ROOT, encoding: 'utf8' });
  expect(built.status, built.stderr).toBe(0);
  for (const file of ['package.json', 'package-lock.json', '.npmrc']) copyFileSync(join(ROOT, file), join(app, file));
  const installed = npm(['ci', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'], app);
  expect(installed.status, installed.stderr).toBe(0);
  // Nothing may compile TypeScript at run time: the image runs dist/ only.
  for (const tool of ['tsx', 'esbuild', '@esbuild', 'typescript', 'vitest'])
    rmSync(join(app, 'node_modules', tool), { recursive: true, force: true });
}, 300_000);

afterAll(() => {
  child?.kill('SIGKILL');
  if (work) rmSync(work, { recursive: true, force: true });
});

test('the Dockerfile builds on Node 26 slim, installs without dev dependencies, runs dist/start.js as a non-root user', () => {
  expect(dockerfile).toMatch(/^FROM node:26-slim AS build$/m);
  expect(dockerfile).toMatch(/^RUN npm ci --omit=dev/m);
  expect(dockerfile).toMatch(/^USER node$/m);
  expect(dockerfile).toMatch(/^VOLUME \["\/data"\]$/m);
  expect(dockerfile).toMatch(/^CMD \["node", "--enable-source-maps", "dist\/start.js"\]$/m);
  expect(existsSync(join(app, 'dist', 'start.js'))).toBe(true);
  expect(existsSync(join(app, 'node_modules', 'node'))).toBe(false); // the dev-only Node binary is not in the image
});

test("compose.yaml's replica settings are a valid production configuration, with its tenants file", () => {
  const compose = readFileSync(join(ROOT, 'compose.yaml'), 'utf8');
  const block = /^ {2}titlegraph:\n[\s\S]*?^ {4}environment:\n((?: {6}.*\n)+)/m.exec(compose)![1]!;
  const env: Record<string, string> = Object.fromEntries(
    [...block.matchAll(/^ {6}(\w+): (.*)$/gm)].map(([, name, value]) => [name!, value!.replace(/^\$\{\w+:\?.*\}$/, 'x'.repeat(40))]),
  );
  const mounted = /\.\/(examples\/deployment\/tenants\.json):\/run\/config\/tenants\.json/.exec(compose)![1]!;
  env.TITLEGRAPH_TENANTS_FILE = join(ROOT, mounted);
  const config = loadConfig(env);
  expect(config.env).toBe('production');
  expect(config.register?.baseUrl).toBe('http://emulator:4010/v1');
  expect(config.databaseUrl).toMatch(/^postgres:\/\//);
  expect(config.register?.tenants.map((t) => t.organisation)).toEqual(['ORG-A', 'ORG-A', 'ORG-B', undefined]);
  expect(compose).toMatch(/replicas: 2/);
  // The grace period outlasts the drain: the shutdown deadline, a purchase still at the register, and closing.
  const grace = Number(/stop_grace_period: (\d+)s/.exec(compose)![1]);
  expect(grace * 1000).toBeGreaterThanOrEqual(config.shutdownDeadlineMs + config.registerCallDeadlineMs + 5_000);
});

test('the compiled service starts in production, passes the image healthcheck, answers a query and exits cleanly on SIGTERM', async () => {
  child = spawn(process.execPath, ['--enable-source-maps', 'dist/start.js'], {
    cwd: app,
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      REGISTER: 'emulator',
      EMULATOR_PORT: '0',
      PORT: '0',
      DATA_DIR: join(work, 'data'),
      PUBLIC_URL: 'http://titlegraph.test',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  const port = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 30 s:\n${output}`)), 30_000);
    const look = () => {
      const m = /GraphQL at http:\/\/localhost:(\d+)\/graphql/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    };
    child!.stdout!.on('data', look);
    child!.on('exit', (code) => reject(new Error(`exited ${code}:\n${output}`)));
  });

  // The HEALTHCHECK's own command, as the container runtime runs it.
  const healthcheck = JSON.parse(/^\s*CMD (\[.*\])$/m.exec(dockerfile.slice(dockerfile.indexOf('HEALTHCHECK')))![1]!) as string[];
  expect(healthcheck[0]).toBe('node');
  const probe = spawnSync(process.execPath, healthcheck.slice(1), { env: { PORT: port }, encoding: 'utf8', timeout: 10_000 });
  expect(probe.status, probe.stderr).toBe(0);

  const response = await postRaw(
    `http://127.0.0.1:${port}/graphql`,
    { query: '{ title(titleNumber: "MID15313") { titleNumber status } }' },
    { accept: null },
  );
  expect(response.body).toEqual({ data: { title: { titleNumber: 'MID15313', status: 'REGISTERED' } } });

  const exited = new Promise<number | null>((resolve) => child!.on('exit', (code) => resolve(code)));
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  expect(output).not.toMatch(/\btsx\b|esbuild/);
}, 60_000);
