/**
 * The lifecycle of serve() in-process, over real sockets: draining lets a request already being
 * answered finish, refuses new connections, closes idle kept-alive connections, and reports a request that outlives the deadline;
 * a register call that charges outlives the deadline and is answered.
 */
import { connect } from 'node:net';
import { Agent, request } from 'undici';
import { afterEach, describe, expect, test, vi } from 'vitest';
import pino from 'pino';
import { print } from 'graphql';
import { londonDate } from '../../src/register/contract/london-day';
import { serve, shutdownOnSignals, type Serving } from '../../src/server/serve';
import { PurchaseTitleDetailsMutation } from '../support/documents';
import { newKey, serviceForTest } from '../support/harness';
import { postRaw } from '../support/post-raw';

const servings: Serving[] = [];
const agents: Agent[] = [];
afterEach(async () => {
  for (const s of servings.splice(0)) {
    s.server.closeAllConnections();
    s.server.close();
  }
  for (const a of agents.splice(0)) await a.close();
});

/** A handler that answers each request when the test says so. */
function gatedHandler() {
  const waiting: (() => void)[] = [];
  let started = 0;
  const handler = async (_req: unknown, res: import('node:http').ServerResponse) => {
    started += 1;
    await new Promise<void>((resolve) => waiting.push(resolve));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"data":{"ok":true}}');
  };
  return {
    handler,
    release: () => {
      for (const go of waiting.splice(0)) go();
    },
    started: () => started,
  };
}

const until = (check: () => boolean) => vi.waitFor(() => expect(check()).toBe(true), { interval: 5, timeout: 10_000 });

const refused = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });

describe('serve(): drain', () => {
  test('an in-flight request finishes; new connections are refused; drain resolves true', async () => {
    const gate = gatedHandler();
    const serving = await serve(gate.handler, { port: 0, host: '127.0.0.1' });
    servings.push(serving);
    const answer = request(`http://127.0.0.1:${serving.port}/graphql`);
    await until(() => gate.started() === 1);

    let closedWith: number | undefined;
    const drained = serving.drain({ deadlineMs: 10_000, onListenerClosed: (n) => (closedWith = n) });
    await until(() => closedWith !== undefined);
    expect(closedWith).toBe(1);
    expect(await refused(serving.port)).toBe(true);

    gate.release();
    const response = await answer;
    expect(response.statusCode).toBe(200);
    expect(await response.body.json()).toEqual({ data: { ok: true } });
    expect(await drained).toBe(true);
    expect(serving.inflightCount()).toBe(0);
  });

  test('an idle kept-alive connection is closed when the drain begins', async () => {
    const serving = await serve((_req, res) => (res as import('node:http').ServerResponse).end('{}'), { port: 0, host: '127.0.0.1' });
    servings.push(serving);
    const agent = new Agent({ connections: 1 });
    agents.push(agent);
    let connection: import('node:net').Socket | undefined;
    serving.server.once('connection', (socket) => (connection = socket));
    const first = await request(`http://127.0.0.1:${serving.port}/graphql`, { dispatcher: agent });
    await first.body.text();
    expect(connection?.destroyed).toBe(false);
    const closed = new Promise<void>((resolve) => connection!.once('close', () => resolve()));
    expect(await serving.drain({ deadlineMs: 10_000 })).toBe(true);
    await closed;
    expect(connection?.destroyed).toBe(true);
  });

  test('a request still running at the deadline makes drain resolve false', async () => {
    const gate = gatedHandler();
    const serving = await serve(gate.handler, { port: 0, host: '127.0.0.1' });
    servings.push(serving);
    const answer = request(`http://127.0.0.1:${serving.port}/graphql`).catch(() => undefined);
    await until(() => gate.started() === 1);
    expect(await serving.drain({ deadlineMs: 50 })).toBe(false);
    expect(serving.inflightCount()).toBe(1);
    gate.release();
    await answer;
  });

  test('a port in use is refused with EADDRINUSE', async () => {
    const first = await serve(() => undefined, { port: 0, host: '127.0.0.1' });
    servings.push(first);
    await expect(serve(() => undefined, { port: first.port, host: '127.0.0.1' })).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });
});

describe('shutdownOnSignals: what SIGTERM does, in-process', () => {
  const silent = pino({ level: 'silent' });

  /** A server whose one route waits for the test, with SIGTERM handling that records what it closes and how it exits. */
  async function servingWithShutdown(deadlineMs: number) {
    const gate = gatedHandler();
    const serving = await serve(gate.handler, { port: 0, host: '127.0.0.1' });
    servings.push(serving);
    const steps: string[] = [];
    const stop = shutdownOnSignals({
      serving,
      deadlineMs,
      logger: silent,
      close: async () => {
        steps.push('closed');
      },
      exit: (code) => steps.push(`exit ${code}`),
    });
    return { gate, serving, steps, stop };
  }

  test('drains the request in flight, then closes the stores, then exits 0', async () => {
    const { gate, serving, steps, stop } = await servingWithShutdown(5_000);
    try {
      const answered = fetch(`http://127.0.0.1:${serving.port}/`).then((r) => r.status);
      await until(() => gate.started() === 1);
      const stopping = stop('SIGTERM');
      await until(() => serving.inflightCount() === 1);
      expect(steps).toEqual([]); // nothing closes while the request runs
      gate.release();
      expect(await answered).toBe(200);
      await stopping;
      expect(steps).toEqual(['closed', 'exit 0']);
    } finally {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
    }
  });

  test('a request still running at the deadline: exit 1, and the stores are not closed under it', async () => {
    const { gate, serving, steps, stop } = await servingWithShutdown(100);
    try {
      void fetch(`http://127.0.0.1:${serving.port}/`).catch(() => undefined);
      await until(() => gate.started() === 1);
      await stop('SIGTERM');
      expect(steps).toEqual(['exit 1']);
    } finally {
      gate.release();
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
    }
  });
});

describe('shutdownOnSignals: a register call that charges is never cut by the deadline', () => {
  /** A logger whose lines the test can wait on. */
  function recordingLogger() {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(line) });
    return { logger, lines };
  }

  test('SIGTERM during a purchase the register answers after the shutdown deadline: the caller gets its charge, the journal has it, exit 0', async () => {
    const svc = await serviceForTest({ services: { transport: { timeouts: { deadlineMs: 5_000 } } } });
    const serving = await serve(svc.yoga, { port: 0, host: '127.0.0.1' });
    servings.push(serving);
    const { logger, lines } = recordingLogger();
    const steps: string[] = [];
    const journal: unknown[] = [];
    const stop = shutdownOnSignals({
      serving,
      deadlineMs: 100,
      mustFinish: { inFlight: () => [...svc.services.inflight.values()], maxMs: 5_000 },
      logger,
      close: async () => {
        // What the journal holds once every request has answered, before the stores close.
        journal.push(...(await svc.services.idempotency.chargeRecords('client-a', londonDate(svc.services.registerNow()))));
        steps.push('closed');
      },
      exit: (code) => steps.push(`exit ${code}`),
    });
    try {
      // The register charges at once and sends its answer's body 1.5 s later, long after the 100 ms deadline.
      svc.emulator.faults.inject('titleDetails', { kind: 'drip', chunkBytes: 1_000_000, intervalMs: 1_500 });
      const idempotencyKey = newKey('drain');
      const answered = postRaw(`http://127.0.0.1:${serving.port}/graphql`, {
        query: print(PurchaseTitleDetailsMutation),
        variables: { fas: '0877', input: { titleNumber: 'MID15313', idempotencyKey } },
      });
      await until(() => svc.emulator.ledger.charges.length === 1);
      const stopping = stop('SIGTERM');
      await until(() => lines.some((l) => l.includes('register call(s) that charge or create')));

      const { status, body } = await answered;
      expect(status).toBe(200);
      const transactionNumber = svc.emulator.ledger.charges[0]!.charge.transactionNumber;
      expect(body.data.purchaseTitleDetails.userErrors).toEqual([]);
      expect(body.data.purchaseTitleDetails.charges).toEqual([expect.objectContaining({ transactionNumber })]);
      await stopping;
      expect(steps).toEqual(['closed', 'exit 0']);
      expect(journal).toEqual([
        expect.objectContaining({ status: 'CHARGED', idempotencyKey, charge: expect.objectContaining({ transactionNumber }) }),
      ]);
      expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(1);
    } finally {
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
    }
  });

  test('work that must finish is waited for only up to its own bound, then the exit is 1', async () => {
    const gate = gatedHandler();
    const serving = await serve(gate.handler, { port: 0, host: '127.0.0.1' });
    servings.push(serving);
    const never = new Promise<never>(() => undefined);
    const steps: string[] = [];
    const stop = shutdownOnSignals({
      serving,
      deadlineMs: 50,
      mustFinish: { inFlight: () => [never], maxMs: 100 },
      logger: pino({ level: 'silent' }),
      close: async () => {
        steps.push('closed');
      },
      exit: (code) => steps.push(`exit ${code}`),
    });
    try {
      void fetch(`http://127.0.0.1:${serving.port}/`).catch(() => undefined);
      await until(() => gate.started() === 1);
      await stop('SIGTERM');
      expect(steps).toEqual(['exit 1']);
    } finally {
      gate.release();
      process.off('SIGTERM', stop);
      process.off('SIGINT', stop);
    }
  });
});
