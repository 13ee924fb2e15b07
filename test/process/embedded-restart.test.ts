/**
 * Restarting `npm start` (the real entry point, `tsx src/main.ts`, embedded emulator, PORT=0 and
 * EMULATOR_PORT=0) on the same DATA_DIR: the emulator's state comes back with the journal, so
 * the register and the journal still agree. The quote says already bought, `maxFee: "0"` is
 * charged nothing (the emulator's own ledger, through its control route, and the statement),
 * the next charge's transaction number is new and the statement lists each charge once. A
 * DATA_DIR of an earlier release (a journal, no emulator state) is said once in the log; a second
 * start on a DATA_DIR in use stops. With DATABASE_URL the state still lives in DATA_DIR. And the
 * emulator alone, killed while it charges, loses nothing it answered.
 */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { startEmulator } from '../../src/emulator/index';
import { londonDate } from '../../src/register/contract/london-day';
import { createTestDatabase, postgresSuite } from '../support/pg';
import { postRaw } from '../support/post-raw';
import { EMBEDDED_ENV, PURCHASE_DETAILS, spawnTs, type Child } from '../support/processes';

const pgSuite = await postgresSuite();
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

interface Started {
  child: Child;
  graphqlUrl: string;
  emulatorOrigin: string;
}

async function startMain(dataDir: string, env: Record<string, string> = {}): Promise<Started> {
  const child = spawnTs('src/main.ts', [], {
    ...EMBEDDED_ENV,
    PORT: '0',
    EMULATOR_PORT: '0',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'info',
    ...env,
  });
  cleanups.push(() => child.stop('SIGKILL'));
  const [, port] = await child.waitFor(/"msg":"titlegraph: GraphQL at http:\/\/localhost:(\d+)\/graphql"/, 60_000);
  const [, emulatorOrigin] = await child.waitFor(/"msg":"register: embedded emulator at (http:\/\/[^"]+)\/v1"/);
  return { child, graphqlUrl: `http://127.0.0.1:${port}/graphql`, emulatorOrigin: emulatorOrigin! };
}

async function stopMain(started: Started) {
  expect((await started.child.stop('SIGTERM')).code).toBe(0);
}

/** The log's warnings about the emulator's state. */
const stateWarnings = (child: Child) =>
  child
    .output()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { level: number; event?: string; msg: string })
    .filter((r) => r.level === 40 && r.event === 'register');

const QUOTE = `query Quote($fas: FasNumber!, $titleNumber: TitleNumber!) {
  chargeQuote(fas: $fas, titleNumber: $titleNumber, products: [TITLE_DATA_AND_PLANS]) {
    lines { product alreadyChargedToday expectedFee } expectedTotal
  }
}`;
const STATEMENT = `query Statement($day: Date!) {
  chargeStatement(from: $day, to: $day, first: 100) { records { status titleNumber charge { transactionNumber fee } } total unknownCount }
}`;

async function purchase(graphqlUrl: string, titleNumber: string, key: string, maxFee?: string) {
  const input = { titleNumber, idempotencyKey: `${key}-${process.pid}-${Date.now()}`, ...(maxFee !== undefined ? { maxFee } : {}) };
  const answer = await postRaw(graphqlUrl, { query: PURCHASE_DETAILS, variables: { fas: '0877', input } });
  expect(answer.body.errors).toBeUndefined();
  expect(answer.body.data.purchaseTitleDetails.userErrors).toEqual([]);
  return answer.body.data.purchaseTitleDetails.charges as { fee: string; transactionNumber: string }[];
}

async function ledgerNumbers(emulatorOrigin: string): Promise<string[]> {
  const { charges } = (await (await fetch(`${emulatorOrigin}/__control/ledger`)).json()) as {
    charges: { charge: { transactionNumber: string } }[];
  };
  return charges.map((e) => e.charge.transactionNumber);
}

describe('npm start restarted on the same DATA_DIR', () => {
  test('the register remembers what the journal remembers: free stays free, numbers never repeat, each charge listed once', {
    timeout: 180_000,
  }, async () => {
    const dataDir = tempDir('titlegraph-restart-');
    const first = await startMain(dataDir);
    const [bought] = await purchase(first.graphqlUrl, 'MID15313', 'first');
    expect(bought).toMatchObject({ fee: '3.00' });
    expect(await ledgerNumbers(first.emulatorOrigin)).toEqual([bought!.transactionNumber]);
    expect(stateWarnings(first.child)).toEqual([]); // a new DATA_DIR: nothing to warn about
    await stopMain(first);

    const second = await startMain(dataDir);
    expect(stateWarnings(second.child)).toEqual([]);
    const quote = await postRaw(second.graphqlUrl, { query: QUOTE, variables: { fas: '0877', titleNumber: 'MID15313' } });
    expect(quote.body.data.chargeQuote).toEqual({
      lines: [{ product: 'TITLE_DATA_AND_PLANS', alreadyChargedToday: true, expectedFee: '0.00' }],
      expectedTotal: '0.00',
    });
    expect(await purchase(second.graphqlUrl, 'MID15313', 'again', '0')).toEqual([]);
    expect(await ledgerNumbers(second.emulatorOrigin)).toEqual([bought!.transactionNumber]);

    const [fresh] = await purchase(second.graphqlUrl, 'MID1234', 'fresh');
    expect(fresh!.transactionNumber).not.toBe(bought!.transactionNumber);
    expect(await ledgerNumbers(second.emulatorOrigin)).toEqual([bought!.transactionNumber, fresh!.transactionNumber]);

    const statement = await postRaw(second.graphqlUrl, { query: STATEMENT, variables: { day: londonDate(new Date()) } });
    const { records, total, unknownCount } = statement.body.data.chargeStatement as {
      records: { status: string; titleNumber: string; charge: { transactionNumber: string; fee: string } | null }[];
      total: string;
      unknownCount: number;
    };
    const listed = records.flatMap((r) => (r.charge ? [r.charge.transactionNumber] : []));
    expect(listed.toSorted()).toEqual([bought!.transactionNumber, fresh!.transactionNumber].toSorted());
    expect(total).toBe('6.00');
    expect(unknownCount).toBe(0);
    await stopMain(second);
  });

  test('a DATA_DIR with a journal but no emulator state (an earlier release) is said once in the log, naming DATA_DIR', {
    timeout: 180_000,
  }, async () => {
    const dataDir = tempDir('titlegraph-upgrade-');
    const earlier = await startMain(dataDir);
    await purchase(earlier.graphqlUrl, 'MID15313', 'earlier');
    await stopMain(earlier);
    // What a release without the state file leaves: the journal alone.
    for (const name of readdirSync(dataDir)) if (name.startsWith('register-emulator.sqlite')) rmSync(join(dataDir, name));

    const upgraded = await startMain(dataDir);
    const warnings = stateWarnings(upgraded.child);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]!.msg).toContain(`DATA_DIR ${dataDir} may hold charges from an earlier start`);
    expect(warnings[0]!.msg).toContain(`To start clean, stop titlegraph and delete ${dataDir}.`);
    expect(existsSync(join(dataDir, 'register-emulator.sqlite'))).toBe(true);
    // A second start on the same DATA_DIR (other ports) would hand out the same transaction numbers: it stops.
    const twin = spawnTs('src/main.ts', [], { ...EMBEDDED_ENV, PORT: '0', EMULATOR_PORT: '0', DATA_DIR: dataDir });
    cleanups.push(() => twin.stop('SIGKILL'));
    expect((await twin.exited).code).toBe(1);
    expect(twin.output()).toContain(
      `titlegraph cannot start: DATA_DIR: the register emulator's state file ${join(dataDir, 'register-emulator.sqlite')} cannot be used: it is in use by another running emulator (another start on the same DATA_DIR?)\n`,
    );
    await stopMain(upgraded);

    const next = await startMain(dataDir);
    expect(stateWarnings(next.child)).toEqual([]);
    await stopMain(next);
  });
});

describe.skipIf(!pgSuite.run)(pgSuite.title('npm start with DATABASE_URL and the embedded emulator'), () => {
  test('the journal is in PostgreSQL, the emulator keeps its state in DATA_DIR: a restart still agrees', { timeout: 180_000 }, async () => {
    const database = await createTestDatabase('embedded_restart');
    cleanups.push(() => database.drop());
    const dataDir = tempDir('titlegraph-restart-pg-');
    const env = { DATABASE_URL: database.url, DOWNLOAD_LINK_SECRET: 'embedded-restart-secret-of-at-least-32-chars' };
    const first = await startMain(dataDir, env);
    // A new state file beside a database it cannot look into: said once, naming both.
    const [warning, ...more] = stateWarnings(first.child);
    expect(more).toEqual([]);
    expect(warning!.msg).toContain(`state file, ${join(dataDir, 'register-emulator.sqlite')}, but the database at DATABASE_URL may hold`);
    const [bought] = await purchase(first.graphqlUrl, 'MID15313', 'pg-first');
    await stopMain(first);

    const second = await startMain(dataDir, env);
    expect(stateWarnings(second.child)).toEqual([]);
    expect(await purchase(second.graphqlUrl, 'MID15313', 'pg-again', '0')).toEqual([]);
    expect(await ledgerNumbers(second.emulatorOrigin)).toEqual([bought!.transactionNumber]);
    await stopMain(second);
  });
});

describe('the emulator killed while it charges', () => {
  test('every charge it answered is kept, the file opens, and the next number is new', { timeout: 90_000 }, async () => {
    const file = join(tempDir('titlegraph-emulator-kill-'), 'state.sqlite');
    const child = spawnTs('test/support/emulator-state-child.ts', [file]);
    cleanups.push(() => child.stop('SIGKILL'));
    const [, url] = await child.waitFor(/^listening (\S+)$/, 60_000);
    const basic = `Basic ${Buffer.from('client-a:secret-a').toString('base64')}`;
    const token = (
      await (await fetch(`${url}/oauth/token?grant_type=client_credentials`, { method: 'POST', headers: { authorization: basic } })).json()
    ).access_token as string;
    const buy = (titleNumber: string) =>
      fetch(`${url}/titles/${titleNumber}/details?fas=0877`, { headers: { authorization: `Bearer ${token}` } });

    // Eight callers charging new titles without pause: the kill lands among commits under way.
    const answered: string[] = [];
    let title = 0;
    await new Promise<void>((killed) => {
      const caller = async () => {
        for (;;) {
          const response = await buy(`BLK${++title}`).catch(() => undefined);
          if (!response) return;
          const body = (await response.json().catch(() => undefined)) as { charges?: { transactionNumber: string }[] } | undefined;
          answered.push(...(body?.charges ?? []).map((c) => c.transactionNumber));
          if (answered.length >= 60 && child.process.exitCode === null && child.process.signalCode === null) {
            child.process.kill('SIGKILL');
            killed();
          }
        }
      };
      for (let i = 0; i < 8; i++) void caller();
    });
    expect((await child.exited).signal).toBe('SIGKILL');
    // The killed process's write-ahead log is still there: the next open recovers from it.
    expect(existsSync(`${file}-wal`)).toBe(true);

    const emu = await startEmulator({ port: 0, stateFile: file });
    cleanups.push(() => emu.close());
    const kept = emu.ledger.charges.map((e) => e.charge.transactionNumber);
    expect(answered.length).toBeGreaterThanOrEqual(60);
    expect(answered.filter((n) => !kept.includes(n))).toEqual([]);
    expect(new Set(kept).size).toBe(kept.length);
    const basicNext = await fetch(`${emu.url}/oauth/token?grant_type=client_credentials`, {
      method: 'POST',
      headers: { authorization: basic },
    });
    const next = await fetch(`${emu.url}/titles/MID15313/details?fas=0877`, {
      headers: { authorization: `Bearer ${((await basicNext.json()) as { access_token: string }).access_token}` },
    });
    const [charge] = ((await next.json()) as { charges: { transactionNumber: string }[] }).charges;
    expect(kept).not.toContain(charge!.transactionNumber);
  });
});
