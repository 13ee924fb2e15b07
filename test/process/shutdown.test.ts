/**
 * Graceful shutdown of the real entry point (`tsx src/main.ts`, embedded emulator, PORT=0 and
 * EMULATOR_PORT=0): SIGTERM while a chargeable mutation is at the register → the mutation is
 * answered with its charge, the register has recorded it, new connections are refused and the
 * process exits 0. A request still running at the deadline makes it exit 1.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { EMBEDDED_ENV, PURCHASE_DETAILS, postGraphql, spawnTs, type Child } from '../support/processes';

const sleep = (ms: number) => new Promise((ok) => setTimeout(ok, ms));

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

const TITLE = `query Title($titleNumber: TitleNumber!) { title(titleNumber: $titleNumber) { titleNumber } }`;

describe('graceful shutdown of npm start', () => {
  test('SIGTERM while a charge is in flight: it is answered with its charge, new requests are refused, exit 0', async () => {
    const { child, graphqlUrl, emulatorOrigin } = await startMain({ EMULATOR_LATENCY_MS: '2500' });
    // Warm up (register token), so the mutation below is one slow register call.
    const warm = await postGraphql(graphqlUrl, TITLE, { titleNumber: 'MID15313' });
    expect(warm.data.title.titleNumber).toBe('MID15313');

    const idempotencyKey = `shutdown-${process.pid}-${Date.now()}`;
    const inFlight = postGraphql(graphqlUrl, PURCHASE_DETAILS, { fas: '0877', input: { titleNumber: 'MID15313', idempotencyKey } });
    await sleep(500); // the mutation is now waiting on the emulator's latency
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
    expect(answered.data.purchaseTitleDetails.userErrors).toEqual([]);
    expect(answered.data.purchaseTitleDetails.details.titleNumber).toBe('MID15313');
    expect(answered.data.purchaseTitleDetails.charges).toEqual([
      expect.objectContaining({ fas: '0877', transactionNumber: ledger.charges[0]!.charge.transactionNumber }),
    ]);

    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(child.output()).toContain('"msg":"titlegraph: stopped"');
  }, 90_000);

  test('a request still running at the shutdown deadline: exit 1', async () => {
    const { child, graphqlUrl, emulatorOrigin } = await startMain({ SHUTDOWN_DEADLINE_MS: '800' });
    // The register never answers this call (until the client's own timeout, long after the deadline).
    const fault = await fetch(`${emulatorOrigin}/__control/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ route: 'titleDetails', fault: { kind: 'hang' }, times: 1 }),
    });
    expect(fault.status).toBe(204);
    const hanging = postGraphql(graphqlUrl, PURCHASE_DETAILS, {
      fas: '0877',
      input: { titleNumber: 'MID15313', idempotencyKey: `deadline-${Date.now()}` },
    }).catch((error: Error) => error);
    await sleep(500);
    const started = Date.now();
    child.process.kill('SIGTERM');
    expect(await child.exited).toEqual({ code: 1, signal: null });
    expect(Date.now() - started).toBeGreaterThanOrEqual(700);
    expect(child.output()).toContain('requests still running after 800 ms');
    expect(await hanging).toBeInstanceOf(Error); // its connection died with the process
  }, 90_000);

  test('with no request in flight, SIGTERM exits 0 at once', async () => {
    const { child, graphqlUrl } = await startMain({});
    const ok = await postGraphql(graphqlUrl, TITLE, { titleNumber: 'MID15313' }); // leaves an idle keep-alive connection
    expect(ok.status).toBe(200);
    const started = Date.now();
    child.process.kill('SIGTERM');
    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(Date.now() - started).toBeLessThan(5_000);
  }, 90_000);
});
