/**
 * The emulator as its own process, as an operator runs it: `npm run emulator` ends on SIGTERM and
 * frees its port, and compose.yaml's emulator service has a health check of its own that passes
 * against a running emulator (the image's HEALTHCHECK probes the service's :4000/health, which
 * the emulator does not serve). And the Dockerfile's comment names a test that exists.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterEach, expect, test, vi } from 'vitest';
import { ROOT } from '../support/processes';

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** A port free now (listened on and closed). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Whether something accepts connections on the port. */
async function listening(port: number): Promise<boolean> {
  return fetch(`http://127.0.0.1:${port}/v1/openapi.json`).then(
    () => true,
    () => false,
  );
}

/** `npm run emulator` on `port`, resolved once it says it listens. */
async function npmRunEmulator(port: number, marker: string): Promise<ChildProcess> {
  const child = spawn('npm', ['run', '--silent', 'emulator'], {
    cwd: ROOT,
    env: { ...process.env, EMULATOR_PORT: String(port), EMULATOR_HOST: '127.0.0.1', EMULATOR_MARKER: marker },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let output = '';
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  await vi.waitFor(() => expect(output).toContain('register emulator listening on'), { timeout: 60_000, interval: 100 });
  return child;
}

/** Processes whose environment carries `marker`: the emulator's, whichever process holds it. */
const alive = (marker: string) =>
  spawnSync('bash', ['-c', `grep -l ${marker} /proc/[0-9]*/environ 2>/dev/null | wc -l`], { encoding: 'utf8' }).stdout.trim();

test('`npm run emulator` stops on SIGTERM: its node ends and the port is free again', { timeout: 90_000 }, async () => {
  const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
  expect(scripts.emulator).toMatch(/^exec /); // as npm start: the shell hands its place to node
  const port = await freePort();
  const marker = `titlegraph-emulator-${process.pid}-${Date.now()}`;
  const child = await npmRunEmulator(port, marker);
  expect(await listening(port)).toBe(true);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
  await vi.waitFor(() => expect(alive(marker)).toBe('0'), { timeout: 15_000, interval: 200 });
  expect(await listening(port)).toBe(false);
});

/** The emulator service's block of compose.yaml. */
function emulatorService(): string {
  const compose = readFileSync(join(ROOT, 'compose.yaml'), 'utf8');
  return /^ {2}emulator:\n((?: {4}.*\n|\s*\n)+)/m.exec(compose)![1]!;
}

test("compose.yaml's emulator has its own health check, which passes against a running emulator and fails without one", async () => {
  const block = emulatorService();
  const command = JSON.parse(/^ {6}test: (\[.*\])$/m.exec(block)![1]!) as string[];
  expect(command.slice(0, 2)).toEqual(['CMD', 'node']);
  expect(block).toMatch(/EMULATOR_PORT: "4010"/);

  const port = await freePort();
  const probe = () =>
    spawnSync(process.execPath, command.slice(2), { env: { EMULATOR_PORT: String(port) }, encoding: 'utf8', timeout: 10_000 }).status;
  expect(probe()).not.toBe(0); // nothing listens yet

  const emulator = spawn(process.execPath, ['--import', 'tsx', 'src/emulator/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, EMULATOR_PORT: String(port), EMULATOR_HOST: '127.0.0.1' },
    stdio: 'ignore',
  });
  children.push(emulator);
  await vi.waitFor(async () => expect(await listening(port)).toBe(true), { timeout: 30_000, interval: 100 });
  expect(probe()).toBe(0);
});

test('the Dockerfile’s comment names the test that performs its steps, and that test exists', () => {
  const dockerfile = readFileSync(join(ROOT, 'Dockerfile'), 'utf8');
  const named = [...dockerfile.matchAll(/(test\/[\w/.-]+\.test\.ts)/g)].map((m) => m[1]!);
  expect(named).toContain('test/process/container-image.test.ts');
  for (const file of named) expect(existsSync(join(ROOT, file)), file).toBe(true);
});
