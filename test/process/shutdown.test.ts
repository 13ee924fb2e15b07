/**
 * Graceful shutdown of the real entry point (`tsx src/main.ts`, embedded emulator, PORT=0 and
 * EMULATOR_PORT=0): SIGTERM while a chargeable mutation is at the register → the mutation is
 * answered with its charge (even one the register takes 28 s to answer, on the default
 * settings), the register has recorded it, new connections are refused and the process exits 0.
 * A request still running at the deadline makes it exit 1. Each step waits on an event (the
 * emulator's ledger, a log line, a socket closing), never on the clock.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { londonDate } from '../../src/register/contract/london-day';
import { CHARGE_RECORDS, EMBEDDED_ENV, PURCHASE_DETAILS, spawnTs, type Child } from '../support/processes';
import { postRaw } from '../support/post-raw';

interface Started {
  child: Child;
  graphqlUrl: string;
  emulatorOrigin: string;
}

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function startMain(env: Record<string, string>): Promise<Started> {
  const dataDir = mkdtempSync(join(tmpdir(), 'titlegraph-shutdown-'));
  const child = spawnTs('src/main.ts', [], {
    // The embedded emulator and SQLite, whatever this shell has set.
    ...EMBEDDED_ENV,
    PORT: '0',
    EMULATOR_PORT: '0',
    DATA_DIR: dataDir,
    ...env,
  });
  cleanups.push(
    () => child.stop('SIGKILL'),
    () => rmSync(dataDir, { recursive: true, force: true }),
  );
  const [, port] = await child.waitFor(/"msg":"titlegraph: GraphQL at http:\/\/localhost:(\d+)\/graphql"/, 60_000);
  const [, emulatorOrigin] = await child.waitFor(/"msg":"register: embedded emulator at (http:\/\/[^"]+)\/v1"/);
  expect(Number(port)).toBeGreaterThan(0);
  expect(emulatorOrigin).not.toMatch(/:4010$/);
  return { child, graphqlUrl: `http://127.0.0.1:${port}/graphql`, emulatorOrigin: emulatorOrigin! };
}

/** A request on a NEW connection (no keep-alive pool): resolves with the status, or the connection error code. */
function freshRequest(url: string): Promise<number | string> {
  return new Promise((ok) => {
    const req = request(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json' } }, (res) => {
      res.resume();
      ok(res.statusCode ?? 0);
    });
    req.on('error', (error: NodeJS.ErrnoException) => ok(error.code ?? error.message));
    req.end(JSON.stringify({ query: '{ __typename }' }));
  });
}

/** A request through `agent` that leaves its connection kept alive and idle: its status, and when the connection closes. */
function keptAlive(url: string, agent: Agent): Promise<{ status: number; closed: Promise<void> }> {
  return new Promise((ok, fail) => {
    const headers = { 'content-type': 'application/json', authorization: 'Bearer dev-key-a' };
    const req = request(url, { method: 'POST', agent, headers }, (res) => {
      const closed = new Promise<void>((done) => res.socket.once('close', () => done()));
      res.resume();
      res.once('end', () => ok({ status: res.statusCode ?? 0, closed }));
    });
    req.on('error', fail);
    req.end(JSON.stringify({ query: '{ __typename }' }));
  });
}

const PURCHASE_PLANS = `mutation PurchaseTitlePlans($fas: FasNumber!, $input: PurchaseTitleInput!) {
  purchaseTitlePlans(fas: $fas, input: $input) { plans { downloadUrl } userErrors { code message } }
}`;

interface LedgerCharge {
  charge: { transactionNumber: string; fas: string };
  at: string;
}

async function ledgerOf(emulatorOrigin: string): Promise<LedgerCharge[]> {
  return ((await (await fetch(`${emulatorOrigin}/__control/ledger`)).json()) as { charges: LedgerCharge[] }).charges;
}

async function injectFault(emulatorOrigin: string, route: string, fault: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${emulatorOrigin}/__control/faults`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ route, fault }),
  });
  expect(response.status).toBe(204);
}

const TITLE = `query Title($titleNumber: TitleNumber!) { title(titleNumber: $titleNumber) { titleNumber } }`;

describe('graceful shutdown of npm start', () => {
  test('SIGTERM while a charge is in flight: it is answered with its charge, new requests are refused, exit 0', async () => {
    const { child, graphqlUrl, emulatorOrigin } = await startMain({ EMULATOR_LATENCY_MS: '2500' });
    // Warm up (register token), so the mutation below is one slow register call.
    const warm = await postRaw(graphqlUrl, { query: TITLE, variables: { titleNumber: 'MID15313' } });
    expect(warm.body.data.title.titleNumber).toBe('MID15313');

    const idempotencyKey = `shutdown-${process.pid}-${Date.now()}`;
    const inFlight = postRaw(graphqlUrl, {
      query: PURCHASE_DETAILS,
      variables: { fas: '0877', input: { titleNumber: 'MID15313', idempotencyKey } },
    });
    // The register has charged and holds its answer for its latency: the mutation is in flight.
    await vi.waitFor(async () => expect(await ledgerOf(emulatorOrigin)).toHaveLength(1), { timeout: 20_000, interval: 50 });
    child.process.kill('SIGTERM');
    await child.waitFor(/"msg":"titlegraph: SIGTERM: draining 1 in-flight request\(s\)"/);

    // While draining: new connections are refused; the register (still up) has the charge.
    expect(await freshRequest(graphqlUrl)).toBe('ECONNREFUSED');
    const ledger = (await (await fetch(`${emulatorOrigin}/__control/ledger`)).json()) as {
      charges: { charge: { transactionNumber: string; fas: string } }[];
    };
    expect(ledger.charges).toHaveLength(1);

    const answered = await inFlight;
    expect(answered.status).toBe(200);
    expect(answered.body.data.purchaseTitleDetails.userErrors).toEqual([]);
    expect(answered.body.data.purchaseTitleDetails.details.titleNumber).toBe('MID15313');
    expect(answered.body.data.purchaseTitleDetails.charges).toEqual([
      expect.objectContaining({ fas: '0877', transactionNumber: ledger.charges[0]!.charge.transactionNumber }),
    ]);

    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(child.output()).toContain('"msg":"titlegraph: stopped"');
  }, 90_000);

  test('a purchase whose register answer takes 28 s, SIGTERM once the register has charged, default settings: the caller gets its charge, the journal has it CHARGED', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'titlegraph-shutdown-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const { child, graphqlUrl, emulatorOrigin } = await startMain({ DATA_DIR: dataDir });
    const warm = await postRaw(graphqlUrl, { query: TITLE, variables: { titleNumber: 'MID15313' } });
    expect(warm.body.data.title.titleNumber).toBe('MID15313');
    // The register charges at once, then sends its answer's body 28 s later: within the 30 s
    // register call deadline, beyond the old 25 s shutdown deadline.
    await injectFault(emulatorOrigin, 'titleDetails', { kind: 'drip', chunkBytes: 1_000_000, intervalMs: 28_000 });

    const idempotencyKey = `slow-answer-${process.pid}-${Date.now()}`;
    const inFlight = postRaw(graphqlUrl, {
      query: PURCHASE_DETAILS,
      variables: { fas: '0877', input: { titleNumber: 'MID15313', idempotencyKey } },
    });
    const ledger = await vi.waitFor(
      async () => {
        const charges = await ledgerOf(emulatorOrigin);
        expect(charges).toHaveLength(1);
        return charges;
      },
      { timeout: 20_000, interval: 100 },
    );
    // 28 s of answer still to come: more than the old 25 s shutdown deadline.
    child.process.kill('SIGTERM');
    await child.waitFor(/"msg":"titlegraph: SIGTERM: draining 1 in-flight request\(s\)"/);

    const answered = await inFlight;
    expect(answered.status).toBe(200);
    expect(answered.body.data.purchaseTitleDetails.userErrors).toEqual([]);
    expect(answered.body.data.purchaseTitleDetails.charges).toEqual([
      expect.objectContaining({ fas: '0877', transactionNumber: ledger[0]!.charge.transactionNumber }),
    ]);
    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(child.output()).toContain('"msg":"titlegraph: stopped"');

    // Started again on the same data: the journal has the charge, not an unknown outcome.
    const again = await startMain({ DATA_DIR: dataDir });
    const records = await postRaw(again.graphqlUrl, { query: CHARGE_RECORDS, variables: { day: londonDate(new Date(ledger[0]!.at)) } });
    expect(records.body.data.chargeRecords).toEqual([
      expect.objectContaining({
        status: 'CHARGED',
        idempotencyKey,
        charge: expect.objectContaining({ transactionNumber: ledger[0]!.charge.transactionNumber }),
      }),
    ]);
  }, 120_000);

  test('a purchase the register never answers is answered OUTCOME_UNKNOWN at its own deadline, before the process exits 0', async () => {
    const { child, graphqlUrl, emulatorOrigin } = await startMain({ REGISTER_CALL_DEADLINE_MS: '1000', SHUTDOWN_DEADLINE_MS: '6000' });
    await injectFault(emulatorOrigin, 'titleDetails', { kind: 'hang', phase: 'after' });
    const hanging = postRaw(graphqlUrl, {
      query: PURCHASE_DETAILS,
      variables: {
        fas: '0877',
        input: { titleNumber: 'MID15313', idempotencyKey: `hang-${Date.now()}` },
      },
    });
    await vi.waitFor(async () => expect(await ledgerOf(emulatorOrigin)).toHaveLength(1), { timeout: 20_000, interval: 50 });
    child.process.kill('SIGTERM');
    const answered = await hanging;
    expect(answered.body.data.purchaseTitleDetails.userErrors).toEqual([expect.objectContaining({ code: 'OUTCOME_UNKNOWN' })]);
    expect(await child.exited).toEqual({ code: 0, signal: null });
  }, 90_000);

  test('a request still running at the shutdown deadline (a download its caller stopped reading): exit 1', async () => {
    const { child, graphqlUrl } = await startMain({
      REGISTER_CALL_DEADLINE_MS: '1000',
      SHUTDOWN_DEADLINE_MS: '6000',
      DOWNLOAD_IDLE_TIMEOUT_MS: '600000',
    });
    const bought = await postRaw(graphqlUrl, {
      query: PURCHASE_PLANS,
      variables: {
        fas: '0877',
        input: { titleNumber: 'LAN50', idempotencyKey: `plans-${Date.now()}` },
      },
    });
    const link = new URL(bought.body.data.purchaseTitlePlans.plans[0].downloadUrl);
    // Reads the first bytes of the 50 MiB plan, then nothing more: the response stays in flight.
    const paused = await new Promise<import('node:http').IncomingMessage>((ok, fail) => {
      const req = request(
        new URL(link.pathname + link.search, graphqlUrl),
        { agent: false, headers: { authorization: 'Bearer dev-key-a' } },
        (res) => {
          res.once('data', () => {
            res.pause();
            ok(res);
          });
        },
      );
      req.on('error', fail);
      req.end();
    });
    paused.on('error', () => undefined);
    const started = Date.now();
    child.process.kill('SIGTERM');
    expect(await child.exited).toEqual({ code: 1, signal: null });
    expect(Date.now() - started).toBeGreaterThanOrEqual(5_900);
    expect(child.output()).toContain('requests still running after 6000 ms');
    paused.destroy();
  }, 90_000);

  test('with no request in flight, SIGTERM exits 0 without waiting out an idle kept-alive connection', async () => {
    // Neither side would close the idle connection for ten minutes, nor would the drain give up
    // before then: the process can exit within this test only by closing it at once.
    const { child, graphqlUrl } = await startMain({ HTTP_KEEP_ALIVE_TIMEOUT_MS: '600000', SHUTDOWN_DEADLINE_MS: '600000' });
    const agent = new Agent({ keepAlive: true });
    cleanups.push(() => agent.destroy());
    const idle = await keptAlive(graphqlUrl, agent);
    expect(idle.status).toBe(200);
    child.process.kill('SIGTERM');
    expect(await child.exited).toEqual({ code: 0, signal: null });
    await idle.closed; // by the server
    expect(child.output()).toContain('"msg":"titlegraph: stopped"');
  }, 90_000);
});
