/**
 * The Dockerfile's stages performed without a container runtime (test/support/dockerfile-steps.ts:
 * its instructions carried out in a folder per stage), then the targets started as the image
 * starts them: the service (the default target) in production against a register with GraphiQL
 * off, from a node_modules without tsx, esbuild, pdf-lib and GraphiQL's page; its refusals when a
 * start needs one of those; the full target (compose's emulator, the embedded emulator, GraphiQL);
 * and the telemetry target exporting spans to an OTLP receiver with the SDK in a folder of its own.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { loadConfig } from '../../src/config';
import { type Emulator, startEmulator } from '../../src/emulator';
import { DockerfileBuild, inStage, sizeOf, type Stage } from '../support/dockerfile-steps';
import { closeServer, listen } from '../support/http-service';
import { type Child, spawnNode } from '../support/processes';
import { documentation } from '../support/docs';

const ROOT = join(import.meta.dirname, '..', '..');
const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
const MB = 1024 * 1024;

/** What the running service never loads: the default target must not carry them. */
const LEFT_OUT = ['tsx', 'esbuild', '@esbuild', 'pdf-lib', '@pdf-lib', 'pako', '@graphql-yoga/render-graphiql'];
/** A package, or a scope with a package in it (npm uninstall leaves a scope's folder behind, empty). */
const holds = (modules: string, name: string) =>
  existsSync(join(modules, name)) && (!name.startsWith('@') || name.includes('/') || readdirSync(join(modules, name)).length > 0);
/** Dev-only: no target carries them. */
const DEV_ONLY = ['node', 'typescript', 'vitest', '@opentelemetry/sdk-node'];

let work: string;
let docker: DockerfileBuild;
let service: Stage;
let full: Stage;
let telemetry: Stage;
let register: Emulator;
const children: Child[] = [];
/** An OTLP/HTTP (JSON) receiver, and the spans it was sent. */
let receiver: Server;
let otlp: string;
const spans: { name: string; kind: number }[] = [];

/** npm as this run's npm (npm test sets npm_execpath), on this Node. */
function npm(args: string[], cwd: string): void {
  const execpath = process.env.npm_execpath;
  const [command, prefix] = execpath?.endsWith('.js') ? [process.execPath, [execpath]] : ['npm', []];
  const run = spawnSync(command, [...prefix, ...args], { cwd, encoding: 'utf8', timeout: 240_000 });
  if (run.status !== 0) throw new Error(`npm ${args.join(' ')} in ${cwd} failed:\n${run.stderr}`);
}

/** A path of the image given as an argument or a setting, if the stage holds it, in the stage's folder. */
const mapped = (stage: Stage, value: string) =>
  value.startsWith('/') && existsSync(inStage(stage, value)) ? inStage(stage, value) : value;

/** Starts the stage's CMD (or `cmd`) as the image would: its ENV, its WORKDIR, plus `env`. */
function start(stage: Stage, env: Record<string, string>, cmd = stage.cmd!): Child {
  expect(cmd[0]).toBe('node');
  const imageEnv = Object.fromEntries(Object.entries(stage.env).map(([name, value]) => [name, mapped(stage, value)]));
  const child = spawnNode(
    cmd.slice(1).map((arg) => mapped(stage, arg)),
    { cwd: inStage(stage, stage.workdir), env: { PATH: process.env.PATH, ...imageEnv, ...env } },
  );
  children.push(child);
  return child;
}

async function startService(stage: Stage, env: Record<string, string>): Promise<{ child: Child; port: string }> {
  const child = start(stage, { PORT: '0', ...env });
  const [, port] = await child.waitFor(/GraphQL at http:\/\/localhost:(\d+)\/graphql/, 30_000);
  return { child, port: port! };
}

/** The settings of a production replica on the test's register (the deployment example's tenants). */
const onRegister = () => ({
  REGISTER_BASE_URL: register.url,
  TITLEGRAPH_TENANTS_FILE: join(ROOT, 'examples/deployment/tenants.json'),
  PUBLIC_URL: 'http://titlegraph.test',
});

const packagesOf = (stage: Stage) => join(inStage(stage, stage.workdir), 'node_modules');

/** The OTEL_* settings that send spans to this test's receiver, promptly. */
const exportingHere = () => ({
  OTEL_SERVICE_NAME: 'titlegraph-image',
  OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
  OTEL_EXPORTER_OTLP_ENDPOINT: otlp,
  OTEL_BSP_SCHEDULE_DELAY: '50',
  OTEL_METRICS_EXPORTER: 'none',
  OTEL_LOGS_EXPORTER: 'none',
});

async function query(port: string, body: string) {
  const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer dev-key-a' },
    body: JSON.stringify({ query: body }),
  });
  return response.json();
}

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'titlegraph-image-'));
  docker = new DockerfileBuild(dockerfile, { context: ROOT, work, npm });
  service = docker.build(docker.defaultTarget);
  full = docker.build('full');
  telemetry = docker.build('telemetry');
  register = await startEmulator();
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const parsed = JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: { name: string; kind: number }[] }[] }[] };
        for (const r of parsed.resourceSpans) for (const s of r.scopeSpans) spans.push(...s.spans);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  otlp = await listen(receiver);
}, 400_000);

afterAll(async () => {
  await Promise.all(children.map((child) => child.stop('SIGKILL')));
  await register?.close();
  if (receiver) await closeServer(receiver);
  if (work) rmSync(work, { recursive: true, force: true }); // four node_modules: slow on a busy disk
}, 120_000);

test('every stage is on Node 26 slim; the default target is the service: dist/start.js in production, as the node user, with the /data volume', () => {
  for (const stage of docker.stages) expect([...docker.stages.map((s) => s.name), 'node:26-slim']).toContain(stage.from);
  expect(service.name).toBe('service');
  expect(service.image).toBe('node:26-slim');
  expect(service.cmd).toEqual(['node', '--enable-source-maps', 'dist/start.js']);
  expect(service.user).toBe('node');
  expect(service.volumes).toEqual(['/data']);
  expect(service.env).toMatchObject({ NODE_ENV: 'production', PORT: '4000', DATA_DIR: '/data' });
  expect(existsSync(join(inStage(service, '/app'), 'dist', 'start.js'))).toBe(true);
});

test('the service target leaves out tsx, esbuild, pdf-lib and the GraphiQL page, half of a production install; the full target has them', () => {
  for (const name of [...LEFT_OUT, ...DEV_ONLY]) expect(holds(packagesOf(service), name), name).toBe(false);
  for (const name of LEFT_OUT) expect(holds(packagesOf(full), name), name).toBe(true);
  for (const name of DEV_ONLY) expect(holds(packagesOf(full), name), name).toBe(false);
  const lean = sizeOf(packagesOf(service));
  const everything = sizeOf(packagesOf(full));
  // 50 MB of 104 MB when this was written: the packages left out are more than 40 MB of it.
  expect(lean).toBeLessThan(64 * MB);
  expect(everything - lean).toBeGreaterThan(40 * MB);
});

test("compose.yaml's replica settings are a valid production configuration, with its tenants file; its emulator builds the full target", () => {
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
  // The replicas run the default target; the emulator needs pdf-lib, so the full one.
  expect(/^ {2}titlegraph:\n {4}build: \.\n/m.test(compose)).toBe(true);
  expect(compose).toMatch(/^ {2}emulator:\n(?: {4}#.*\n)* {4}build:\n {6}context: \.\n {6}target: full\n/m);
});

test('the service target starts in production on a register with GraphiQL off: the image healthcheck, a query, the GraphiQL-off page, SIGTERM and a clean exit', async () => {
  const { child, port } = await startService(service, onRegister());

  // The HEALTHCHECK's own command, as the container runtime runs it.
  const healthcheck = service.healthcheck!;
  expect(healthcheck[0]).toBe('node');
  const probe = spawnSync(process.execPath, healthcheck.slice(1), { env: { PORT: port }, encoding: 'utf8', timeout: 10_000 });
  expect(probe.status, probe.stderr).toBe(0);

  const before = register.calls.count({ route: 'titleSummary' });
  expect(await query(port, '{ title(titleNumber: "MID15313") { titleNumber status } }')).toEqual({
    data: { title: { titleNumber: 'MID15313', status: 'REGISTERED' } },
  });
  expect(register.calls.count({ route: 'titleSummary' })).toBe(before + 1);

  const page = await fetch(`http://127.0.0.1:${port}/graphql`, { headers: { accept: 'text/html' } });
  expect(page.status).toBe(406);
  expect(await page.text()).toContain('Set GRAPHIQL=true');

  expect((await child.stop('SIGTERM')).code).toBe(0);
  expect(child.output()).not.toMatch(/\btsx\b|esbuild|pdf-lib|render-graphiql/);
}, 60_000);

test('a start of the service target that needs a package it leaves out names the package and the full target', async () => {
  const embedded = start(service, { REGISTER: 'emulator', PORT: '0', EMULATOR_PORT: '0' });
  expect((await embedded.exited).code).toBe(1);
  expect(embedded.output()).toContain(
    'titlegraph cannot start: The embedded register emulator (REGISTER=emulator, or no REGISTER_BASE_URL outside production) needs the package pdf-lib, which is not installed here',
  );
  expect(embedded.output()).toContain(
    "set REGISTER_BASE_URL to the register (ending in /v1), or build the image's full target (docker build --target full .)",
  );
  expect(embedded.output()).not.toMatch(/\n\s+at /); // no stack

  const graphiql = start(service, { ...onRegister(), GRAPHIQL: 'true', PORT: '0' });
  expect((await graphiql.exited).code).toBe(1);
  expect(graphiql.output()).toContain('needs the package @graphql-yoga/render-graphiql');
  expect(graphiql.output()).toContain("set GRAPHIQL=false, or build the image's full target");
}, 60_000);

test("the full target: compose's emulator command passes compose's health check, and the service runs the embedded emulator with GraphiQL", async () => {
  const compose = readFileSync(join(ROOT, 'compose.yaml'), 'utf8');
  const emulatorBlock = compose.slice(compose.indexOf('\n  emulator:'));
  const command = JSON.parse(/^ {4}command: (\[.*\])$/m.exec(emulatorBlock)![1]!) as string[];
  const emulator = start(full, { EMULATOR_HOST: '127.0.0.1', EMULATOR_PORT: '0' }, command);
  const [, emulatorPort] = await emulator.waitFor(/listening on http:\/\/[\d.]+:(\d+)\/v1/);
  const check = JSON.parse(/^ {6}test: (\[.*\])$/m.exec(emulatorBlock)![1]!) as string[];
  expect(check.slice(0, 2)).toEqual(['CMD', 'node']);
  const probe = spawnSync(process.execPath, check.slice(2), { env: { EMULATOR_PORT: emulatorPort! }, encoding: 'utf8', timeout: 10_000 });
  expect(probe.status, probe.stderr).toBe(0);
  expect((await emulator.stop('SIGTERM')).code).toBe(0);

  const { child, port } = await startService(full, { REGISTER: 'emulator', EMULATOR_PORT: '0', GRAPHIQL: 'true' });
  expect(await query(port, '{ title(titleNumber: "MID15313") { status } }')).toEqual({ data: { title: { status: 'REGISTERED' } } });
  const page = await fetch(`http://127.0.0.1:${port}/graphql`, { headers: { accept: 'text/html' } });
  expect(page.status).toBe(200);
  expect(await page.text()).toMatch(/graphiql/i);
  expect((await child.stop('SIGTERM')).code).toBe(0);
}, 90_000);

test('the telemetry target: the SDK in /otel beside the service packages, not in them, and the preload exports the spans of a query', async () => {
  expect(readdirSync(packagesOf(telemetry)).sort()).toEqual(readdirSync(packagesOf(service)).sort());
  const sdk = join(inStage(telemetry, '/otel'), 'node_modules');
  for (const name of ['@opentelemetry/sdk-node', '@opentelemetry/instrumentation-http', '@opentelemetry/instrumentation-undici'])
    expect(existsSync(join(sdk, name)), name).toBe(true);
  expect(sizeOf(sdk)).toBeLessThan(64 * MB); // 45 MB when this was written, where a production install beside it grew 1 GB
  // The SDK's lockfile is at the versions titlegraph's own lockfile tests.
  const ours = (JSON.parse(readFileSync(join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { version: string }> })
    .packages;
  const its = JSON.parse(readFileSync(join(ROOT, 'examples/deployment/telemetry/package.json'), 'utf8')) as {
    dependencies: Record<string, string>;
  };
  for (const [name, version] of Object.entries(its.dependencies)) expect(ours[`node_modules/${name}`]?.version, name).toBe(version);

  const { child, port } = await startService(telemetry, { ...onRegister(), ...exportingHere() });
  expect(await query(port, 'query ImageTrace { title(titleNumber: "MID15313") { status } }')).toEqual({
    data: { title: { status: 'REGISTERED' } },
  });
  await expect.poll(() => spans.some((s) => s.kind === 2 && s.name === 'query ImageTrace'), { timeout: 15_000 }).toBe(true);
  await expect.poll(() => spans.some((s) => s.name === 'register titleSummary'), { timeout: 15_000 }).toBe(true);
  expect((await child.stop('SIGTERM')).code).toBe(0);
}, 90_000);

test("the README's recipe outside a container: the SDK in a folder of its own, preloaded into the compiled service's production install", async () => {
  const readme = documentation();
  const block = /Outside a container, do what the image does[^`]*```sh\n([\s\S]*?)```/.exec(readme)![1]!;
  const folder = join(work, 'titlegraph-otel');
  const lines = block
    .replaceAll('/opt/titlegraph-otel', folder)
    .replace(/\\\n\s*/g, '')
    .trim()
    .split('\n');
  const run = lines.slice(0, -1);
  expect(run.map((line) => line.split(' ')[0])).toEqual(['mkdir', 'cp', 'npm']);
  const setup = spawnSync('bash', ['-euc', run.map((line) => line.replace(/^npm ci /, 'npm ci --prefer-offline ')).join('\n')], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 240_000,
  });
  expect(setup.status, setup.stderr).toBe(0);
  // The last line starts the service: its settings, then node and its arguments, run in a production install.
  const [, settings, command] = /^((?:\w+=\S+ )*)(node .*)$/.exec(lines.at(-1)!)!;
  const env = Object.fromEntries(
    settings!
      .trim()
      .split(' ')
      .map((pair) => pair.split('=') as [string, string]),
  );
  const child = spawnNode(command!.split(' ').slice(1), {
    cwd: inStage(service, service.workdir),
    env: {
      PATH: process.env.PATH,
      ...service.env,
      DATA_DIR: join(work, 'recipe-data'),
      PORT: '0',
      ...onRegister(),
      ...exportingHere(),
      ...env,
    },
  });
  children.push(child);
  const [, port] = await child.waitFor(/GraphQL at http:\/\/localhost:(\d+)\/graphql/, 30_000);
  expect(await query(port!, 'query RecipeTrace { title(titleNumber: "MID15313") { status } }')).toEqual({
    data: { title: { status: 'REGISTERED' } },
  });
  await expect.poll(() => spans.some((s) => s.kind === 2 && s.name === 'query RecipeTrace'), { timeout: 15_000 }).toBe(true);
  expect((await child.stop('SIGTERM')).code).toBe(0);
}, 120_000);
