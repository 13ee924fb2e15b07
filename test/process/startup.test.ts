/**
 * A misconfigured start stops: the real entry point (`node --import tsx src/start.ts`, what
 * `npm start` runs), one case per mistake, each asserting the exit code, the one line on stderr
 * (no stack trace) and the JSON line on stdout. And a process told to stop exits whatever its
 * stdout: `npm start | head`, whose reader has gone, used to park it for good.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, onTestFinished, test, vi } from 'vitest';
import { EMBEDDED_ENV, ROOT } from '../support/processes';

const dir = mkdtempSync(join(tmpdir(), 'titlegraph-startup-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function start(env: Record<string, string | undefined>) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, PORT: '0', EMULATOR_PORT: '0', DATA_DIR: join(dir, 'data'), LOG_LEVEL: 'info' };
  for (const [name, value] of Object.entries({ ...EMBEDDED_ENV, ...env })) {
    if (value === undefined) delete childEnv[name];
    else childEnv[name] = value;
  }
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/start.ts'], {
    cwd: ROOT,
    env: childEnv,
    encoding: 'utf8',
    timeout: 60_000,
  });
  const stderrLines = run.stderr.split('\n').filter((l) => l.trim());
  const stdoutLines = run.stdout.split('\n').filter((l) => l.trim());
  return { status: run.status, stderrLines, stdoutLines };
}

const tenantsFile = (name: string, content: string) => {
  const file = join(dir, name);
  writeFileSync(file, content);
  return file;
};
const VALID_TENANTS = JSON.stringify({ tenants: [{ name: 'firm', apiKeySha256: 'a'.repeat(64), clientId: 'c', clientSecret: 's' }] });

test('a DATABASE_URL nobody answers on stops the start before it listens, with one line naming it and not its password', {
  timeout: 60_000,
}, () => {
  const run = start({ DATABASE_URL: 'postgres://titlegraph:s3cret-pw@127.0.0.1:9/titlegraph', DOWNLOAD_LINK_SECRET: 'x'.repeat(40) });
  expect(run.status).toBe(1);
  expect(run.stderrLines).toHaveLength(1);
  expect(run.stderrLines[0]).toMatch(/^titlegraph cannot start: DATABASE_URL: cannot open the idempotency store \(ECONNREFUSED\)/);
  const all = [...run.stderrLines, ...run.stdoutLines].join('\n');
  expect(all).not.toContain('s3cret-pw');
  expect(all).not.toMatch(/GraphQL at http/);
});

describe('a misconfigured start stops with one line naming the setting', () => {
  const cases: [string, Record<string, string | undefined>, string][] = [
    [
      'production with a tenants file but no register',
      { NODE_ENV: 'production', TITLEGRAPH_TENANTS_FILE: tenantsFile('valid.json', VALID_TENANTS) },
      'TITLEGRAPH_TENANTS_FILE is set but REGISTER_BASE_URL is not',
    ],
    ['production with no register at all', { NODE_ENV: 'production' }, 'NODE_ENV is production but no register is set'],
    ['a lone REGISTER_CLIENT_ID', { REGISTER_CLIENT_ID: 'client-x' }, 'REGISTER_CLIENT_ID is set but REGISTER_BASE_URL is not'],
    [
      'a tenants file that does not exist',
      { REGISTER_BASE_URL: 'http://127.0.0.1:9/v1', TITLEGRAPH_TENANTS_FILE: join(dir, 'nowhere.json') },
      'TITLEGRAPH_TENANTS_FILE',
    ],
    [
      'a tenants file that is not JSON',
      { REGISTER_BASE_URL: 'http://127.0.0.1:9/v1', TITLEGRAPH_TENANTS_FILE: tenantsFile('bad.json', 'tenants: []') },
      'is not JSON',
    ],
    ['REGISTER_BASE_URL without /v1', { REGISTER_BASE_URL: 'http://127.0.0.1:9' }, 'REGISTER_BASE_URL must end in /v1'],
    ['PORT=abc', { PORT: 'abc' }, 'PORT must be a whole number from 0 to 65535 (got "abc")'],
    ['DATA_DIR that is a file', { DATA_DIR: tenantsFile('a-file', 'x') }, 'DATA_DIR'],
  ];
  test.for(cases)('%s', { timeout: 60_000 }, ([, env, expected]) => {
    const run = start(env);
    expect(run.status).toBe(1);
    expect(run.stderrLines).toHaveLength(1);
    expect(run.stderrLines[0]).toMatch(/^titlegraph cannot start: Invalid configuration: /);
    expect(run.stderrLines[0]).toContain(expected);
    expect(run.stderrLines[0]).not.toMatch(/\bat .*:\d+:\d+|Invalid input/);
    const json = run.stdoutLines.map((l) => JSON.parse(l) as { level: number; msg: string });
    expect(json.filter((l) => l.level >= 50)).toEqual([expect.objectContaining({ msg: run.stderrLines[0] })]);
  });

  test('PORT= (empty) starts on the default port', { timeout: 60_000 }, async () => {
    // Held here, so the suite never leaves a service on a developer's 4000; taken already by something else, it is held all the same.
    const holder = createServer();
    await new Promise<void>((resolve) => holder.once('error', () => resolve()).listen(4000, '127.0.0.1', () => resolve()));
    onTestFinished(() => new Promise<void>((resolve) => holder.close(() => resolve())));
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/start.ts'], {
      cwd: ROOT,
      env: {
        ...process.env,
        ...EMBEDDED_ENV,
        NODE_ENV: 'test',
        PORT: '',
        EMULATOR_PORT: '0',
        DATA_DIR: join(dir, 'data-empty-port'),
        HOST: '127.0.0.1',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    }) as ReturnType<typeof spawn>;
    onTestFinished(() => {
      child.kill('SIGKILL');
    });
    let out = '';
    child.stdout!.on('data', (c: Buffer) => (out += c));
    child.stderr!.on('data', (c: Buffer) => (out += c));
    await vi.waitFor(() => expect(out).toMatch(/PORT 4000 is already in use/), { timeout: 30_000 });
  });
});

describe('it exits when told, whatever its stdout', () => {
  test('`timeout 8 npm start | head -c 300`: after the SIGTERM the process is gone, not parked on a stdout nobody reads', {
    timeout: 90_000,
  }, async () => {
    const marker = `titlegraph-pipe-${process.pid}-${Date.now()}`;
    const script = `cd ${JSON.stringify(ROOT)} && timeout 8 npm start --silent 2>&1 | head -c 300 > /dev/null`;
    const env: Record<string, string | undefined> = {
      ...process.env,
      ...EMBEDDED_ENV,
      NODE_ENV: 'test',
      PORT: '0',
      EMULATOR_PORT: '0',
      DATA_DIR: join(dir, 'data-pipe'),
      SHUTDOWN_DEADLINE_MS: '6000',
      REGISTER_CALL_DEADLINE_MS: '1000',
      PIPE_MARKER: marker,
    };
    for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
    const shell = spawn('bash', ['-c', script], { env: env as NodeJS.ProcessEnv, stdio: 'ignore' });
    await new Promise((resolve) => shell.once('exit', resolve));
    // The pipeline has ended; the service's node process must end too, well before the 25 minutes seen.
    const alive = () =>
      spawnSync('bash', ['-c', `grep -l ${marker} /proc/[0-9]*/environ 2>/dev/null | wc -l`], { encoding: 'utf8' }).stdout.trim();
    await vi.waitFor(() => expect(alive()).toBe('0'), { timeout: 30_000, interval: 500 });
  });
});
