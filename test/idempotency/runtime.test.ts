/**
 * The process as an operator runs it: `npm start` writes only JSON lines to stdout, stops and
 * drains on a SIGTERM sent to npm itself (what a container stop does), names the setting when
 * a port is taken, and names the fix when the Node.js is too old.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { nodeVersionProblem } from '../../src/start';
import { EMBEDDED_ENV, ROOT, spawnTs } from './processes';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function environment(more: Record<string, string | undefined>): NodeJS.ProcessEnv {
  const dataDir = mkdtempSync(join(tmpdir(), 'titlegraph-runtime-'));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', EMULATOR_PORT: '0', DATA_DIR: dataDir };
  for (const [name, value] of Object.entries({ ...EMBEDDED_ENV, ...more })) {
    if (value === undefined) delete env[name];
    else env[name] = value;
  }
  return env;
}

/** Collects a child's stdout lines; `waitFor` resolves with the first line matching. */
function lines(child: ChildProcess) {
  const seen: string[] = [];
  let partial = '';
  const waiters: { pattern: RegExp; resolve: (m: RegExpMatchArray) => void }[] = [];
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    partial += chunk;
    const parts = partial.split('\n');
    partial = parts.pop()!;
    for (const line of parts) {
      seen.push(line);
      for (const w of [...waiters]) {
        const m = line.match(w.pattern);
        if (m) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(m);
        }
      }
    }
  });
  return {
    seen,
    waitFor: (pattern: RegExp) =>
      new Promise<RegExpMatchArray>((resolve) => {
        const m = seen.map((l) => l.match(pattern)).find(Boolean);
        if (m) resolve(m);
        else waiters.push({ pattern, resolve });
      }),
  };
}

const refused = (port: number) =>
  fetch(`http://127.0.0.1:${port}/health`).then(
    () => false,
    () => true,
  );

describe('npm start', () => {
  test('every stdout line is JSON; SIGTERM to the npm process drains and stops the server', async () => {
    const npm = spawn('npm', ['start', '--silent'], { cwd: ROOT, env: environment({}), stdio: ['ignore', 'pipe', 'pipe'] });
    cleanups.push(() => npm.exitCode === null && npm.kill('SIGKILL'));
    const out = lines(npm);
    const [, port] = await out.waitFor(/"msg":"titlegraph: GraphQL at http:\/\/localhost:(\d+)\/graphql"/);
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);

    npm.kill('SIGTERM');
    await once(npm, 'exit');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(out.seen.some((l) => l.includes('"msg":"titlegraph: stopped"'))).toBe(true);
    expect(await refused(Number(port))).toBe(true);
    for (const line of out.seen.filter((l) => l.trim())) expect(() => JSON.parse(line), line).not.toThrow();
  }, 90_000);
});

describe('a port that is taken', () => {
  let holder: Server;
  const hold = async () => {
    holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => holder.close(resolve)));
    return (holder.address() as { port: number }).port;
  };

  test.each(['PORT', 'EMULATOR_PORT'])('%s: one JSON line naming the setting, exit 1', async (setting) => {
    const port = await hold();
    const child = spawnTs('src/start.ts', [], { ...environment({}), [setting]: String(port) } as Record<string, string>);
    cleanups.push(() => child.stop('SIGKILL'));
    expect((await child.exited).code).toBe(1);
    const stdout = child.output().split('\n').filter((l) => l.trim().startsWith('{'));
    const messages = stdout.map((l) => JSON.parse(l) as { msg: string; level: number });
    expect(messages).toContainEqual(expect.objectContaining({ level: 50, msg: `${setting} ${port} is already in use: set ${setting} to a free port (0 picks one)` }));
    expect(child.output()).not.toMatch(/at .*\.ts:\d+|EADDRINUSE/);
  }, 60_000);
});

describe('the Node.js version', () => {
  test('Node 24 and later start; older ones get one line naming the fix', () => {
    expect(nodeVersionProblem('24.0.0')).toBeUndefined();
    expect(nodeVersionProblem('25.1.0')).toBeUndefined();
    expect(nodeVersionProblem('20.20.2')).toMatch(/needs Node\.js 24 or later, and this is 20\.20\.2\. Run "npm install" \(without --ignore-scripts\)/);
  });

  // The machine's own Node, where it is older (what `npm install --ignore-scripts` leaves in use).
  const system = spawnSync('/usr/bin/node', ['--version'], { encoding: 'utf8' });
  const old = system.status === 0 && Number(system.stdout.trim().slice(1).split('.')[0]) < 24;
  test.skipIf(!old)('the start entry under the machine’s older Node: exit 1 with that line, no module error', () => {
    const run = spawnSync('/usr/bin/node', ['--import', 'tsx', 'src/start.ts'], { cwd: ROOT, env: environment({}), encoding: 'utf8', timeout: 60_000 });
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/titlegraph needs Node\.js 24 or later/);
    expect(run.stderr + run.stdout).not.toMatch(/node:sqlite|ERR_UNKNOWN_BUILTIN_MODULE/);
  });
});
