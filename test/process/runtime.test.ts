/**
 * The process as an operator runs it: `npm start` writes only JSON lines to stdout, stops and
 * drains on a SIGTERM sent to npm itself (what a container stop does), names the setting when
 * a port is taken, and names the fix when the Node.js is too old.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { nodeVersionProblem } from '../../src/node-version';
import { EMBEDDED_ENV, ROOT, spawnTs } from '../support/processes';

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

/** Every process below `pid`, from the kernel's child lists (Linux /proc). */
function descendants(pid: number, deep = true): number[] {
  const children = readdirSync(`/proc/${pid}/task`).flatMap((task) =>
    readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').split(' ').filter(Boolean).map(Number),
  );
  return deep ? children.flatMap((child) => [child, ...descendants(child)]) : children;
}

const commandLine = (pid: number) => readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');

/** Still running as the same program: not gone, not a zombie, and its pid not reused. */
function running(pid: number, command: string): boolean {
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0];
    return state !== 'Z' && commandLine(pid) === command;
  } catch {
    return false;
  }
}

describe('npm start', () => {
  // --silent: npm itself prints a banner ("> titlegraph@… start") to stdout before the script
  // runs, which no script can prevent; the README says to start it this way where logs are shipped.
  test('every stdout line is JSON; SIGTERM to the npm process drains and stops the server and everything under npm', async () => {
    const npm = spawn('npm', ['start', '--silent'], { cwd: ROOT, env: environment({}), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    npm.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const exited = once(npm, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    cleanups.push(() => npm.exitCode === null && npm.signalCode === null && npm.kill('SIGKILL'));
    const out = lines(npm);
    const [, port] = await out.waitFor(/"msg":"titlegraph: GraphQL at http:\/\/localhost:(\d+)\/graphql"/);
    expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
    const tree = descendants(npm.pid!).map((pid) => ({ pid, command: commandLine(pid) }));
    // The script's shell exec's node, so npm's only child is the server: the process npm signals.
    expect(descendants(npm.pid!, false).map(commandLine)).toEqual([expect.stringMatching(/^node --import tsx src\/start\.ts/)]);
    const left = () => tree.filter((p) => running(p.pid, p.command));
    cleanups.push(() => {
      for (const p of left()) process.kill(p.pid, 'SIGKILL');
    });

    npm.kill('SIGTERM');
    const [code, signal] = await exited;
    expect(code === 0 || signal === 'SIGTERM', `npm exited with ${code ?? signal}; stderr:\n${stderr}`).toBe(true);
    const messages = out.seen.filter((l) => l.trim()).map((l) => (JSON.parse(l) as { msg: string }).msg);
    expect(messages).toEqual(expect.arrayContaining(['titlegraph: SIGTERM: draining 0 in-flight request(s)', 'titlegraph: stopped']));
    expect(left(), 'processes left running after npm exited').toEqual([]);
    expect(await refused(Number(port))).toBe(true);
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

  test.each(['PORT', 'EMULATOR_PORT'])(
    '%s: one line on stderr and one JSON line, naming the setting, exit 1',
    async (setting) => {
      const port = await hold();
      const child = spawnTs('src/start.ts', [], { ...environment({}), [setting]: String(port) } as Record<string, string>);
      cleanups.push(() => child.stop('SIGKILL'));
      expect((await child.exited).code).toBe(1);
      const records = child
        .output()
        .split('\n')
        .filter((l) => l.trim().startsWith('{'))
        .map((l) => JSON.parse(l) as { msg: string; level: number });
      expect(records.filter((r) => r.level >= 50)).toEqual([
        expect.objectContaining({
          level: 50,
          msg: `titlegraph cannot start: ${setting} ${port} is already in use: set ${setting} to a free port (0 picks one)`,
        }),
      ]);
      expect(child.output()).toMatch(new RegExp(`(^|\\n)titlegraph cannot start: ${setting} ${port} is already in use`));
      expect(child.output()).not.toMatch(/at .*\.ts:\d+|EADDRINUSE/);
    },
    60_000,
  );
});

describe('the Node.js version', () => {
  test('Node 26 and later start; older ones get one line naming the fix, for npm 11 and 12 alike', () => {
    expect(nodeVersionProblem('26.0.0')).toBeUndefined();
    expect(nodeVersionProblem('27.1.0')).toBeUndefined();
    expect(nodeVersionProblem('v26.10.0')).toBeUndefined();
    for (const old of ['20.20.2', '24.21.0', 'v18.19.0']) {
      expect(nodeVersionProblem(old)).toBe(
        `titlegraph needs Node.js 26 or later, and this is ${old}. ` +
          "Run 'npm install' without --ignore-scripts: it installs the project's own Node 26 (package.json's allowScripts lets its install script run, under npm 11 and 12 alike), which npm start then uses; or install Node 26.",
      );
    }
  });

  test('a compiled start (dist/start.js, a production install without the project’s Node) is told to run it with Node 26, not npm install', () => {
    expect(nodeVersionProblem('20.20.2', 'compiled')).toBe(
      'titlegraph needs Node.js 26 or later, and this is 20.20.2. ' +
        'Run dist/start.js with Node 26: install Node 26 on this machine and start it again with that node (node --enable-source-maps dist/start.js), or run the container image (Dockerfile, FROM node:26-slim), which has it.',
    );
    expect(nodeVersionProblem('26.1.0', 'compiled')).toBeUndefined();
  });

  // The machine's own Node, where it is older: what `npm install --ignore-scripts` leaves npm
  // start with (the project's node package is installed by its install script).
  const older = spawnSync('which', ['-a', 'node'], { encoding: 'utf8' })
    .stdout.split('\n')
    .filter(Boolean)
    .find((path) => {
      const version = spawnSync(path, ['--version'], { encoding: 'utf8' });
      return version.status === 0 && Number(version.stdout.trim().slice(1).split('.')[0]) < 26;
    });
  test.skipIf(!older)('the start script under the machine’s older Node: exit 1 with that line, no module error', () => {
    // What npm start runs when `node` on the PATH is the older one (npm puts node_modules/.bin
    // first, where the project's node is missing after --ignore-scripts).
    const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: { start: string } };
    const env = environment({ PATH: [dirname(older!), join(ROOT, 'node_modules/.bin'), process.env.PATH].join(delimiter) });
    const run = spawnSync('sh', ['-c', scripts.start], { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000 });
    expect(run.status, run.stderr).toBe(1);
    expect(run.stdout).toBe('');
    const [line, ...more] = run.stderr.split('\n').filter((l) => l.trim());
    expect(more).toEqual([]);
    expect(JSON.parse(line!)).toMatchObject({
      level: 60,
      msg: expect.stringMatching(
        /^titlegraph needs Node\.js 26 or later, and this is 2\d\.\d+\.\d+\. Run 'npm install' without --ignore-scripts/,
      ),
    });
  });

  test.skipIf(!older)('the compiled start under the machine’s older Node: exit 1 with the compiled start’s line', () => {
    const out = mkdtempSync(join(tmpdir(), 'titlegraph-old-node-'));
    try {
      const built = spawnSync(process.execPath, ['scripts/build.mjs', '--outdir', out], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
      expect(built.status, built.stderr).toBe(0);
      const run = spawnSync(older!, ['--enable-source-maps', join(out, 'start.js')], { cwd: ROOT, env: environment({}), encoding: 'utf8' });
      expect(run.status, run.stderr).toBe(1);
      expect(JSON.parse(run.stderr.trim())).toMatchObject({
        level: 60,
        msg: expect.stringMatching(
          /^titlegraph needs Node\.js 26 or later, and this is 2\d\.\d+\.\d+\. Run dist\/start\.js with Node 26: /,
        ),
      });
      expect(run.stderr).not.toContain('npm install');
    } finally {
      rmSync(out, { recursive: true, force: true });
    }
  });
});
