/**
 * The HTTP server's own limits, over a real socket: a body sent slowly is cut at the request
 * timeout, headers sent slowly at the headers timeout, and connections past the cap are refused;
 * an ordinary request is answered. The settings reach the server that `npm start` runs (src/start.ts).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import type { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, onTestFinished, test, vi } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config';
import { createHttpServer } from '../../src/server/serve';
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from '../../src/server/settings';
import { EMBEDDED_ENV, spawnTs } from '../support/processes';
import { startService } from '../support/harness';

type Svc = Awaited<ReturnType<typeof startService>>;
let svc: Svc | undefined;
let server: Server | undefined;
const sockets: Socket[] = [];

afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  if (server) {
    server.closeAllConnections();
    await new Promise<void>((resolve) => server!.close(() => resolve()));
  }
  await svc?.stop();
  server = undefined;
  svc = undefined;
});

async function listen(limits: Partial<HttpLimits>): Promise<number> {
  svc = await startService();
  server = createHttpServer(svc.yoga, { ...DEFAULT_HTTP_LIMITS, ...limits });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

/** A raw connection: `closed` settles when the server closes it; `received` is what it sent. */
function rawConnection(port: number) {
  const socket = connect(port, '127.0.0.1');
  sockets.push(socket);
  let received = '';
  socket.setEncoding('utf8').on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, closed, received: () => received };
}

/**
 * Sends the headers at once, then the body one byte every 200 ms (5 s for the whole of it), until
 * the server closes the connection: how many body bytes were sent by then, and what came back.
 */
async function slowBody(port: number): Promise<{ sent: number; received: string }> {
  const { socket, closed, received } = rawConnection(port);
  socket.write(`POST /graphql HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: ${BODY.length}\r\n\r\n`);
  let sent = 0;
  const drip = setInterval(() => {
    if (sent < BODY.length && !socket.destroyed) socket.write(BODY[sent++]!);
  }, 200);
  try {
    await closed;
    return { sent, received: received() };
  } finally {
    clearInterval(drip);
  }
}

/** Resolves once the server itself counts `n` open connections (a client's `connect` comes first). */
async function openConnections(n: number): Promise<void> {
  for (;;) {
    const count = await new Promise<number>((resolve, reject) =>
      server!.getConnections((error, c) => (error ? reject(error) : resolve(c))),
    );
    if (count === n) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const BODY = JSON.stringify({ query: '{ __typename }' });

describe('HTTP server limits', () => {
  test('an ordinary request is answered', async () => {
    const port = await listen({ requestTimeoutMs: 1_000 });
    const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: BODY,
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { __typename: 'Query' } });
  });

  test('a body sent slowly is cut at the request timeout (408), long before it would finish', async () => {
    const port = await listen({ requestTimeoutMs: 1_000, headersTimeoutMs: 1_000 });
    const cut = await slowBody(port);
    expect(cut.sent).toBeLessThan(BODY.length);
    expect(cut.received).toMatch(/^HTTP\/1\.1 408/);
  });

  test('headers sent slowly are cut at the headers timeout', async () => {
    const port = await listen({ requestTimeoutMs: 5_000, headersTimeoutMs: 500 });
    const { socket, closed, received } = rawConnection(port);
    socket.write('POST /graphql HTTP/1.1\r\nHost: t\r\n');
    const drip = setInterval(() => !socket.destroyed && socket.write('X-Slow: 1\r\n'), 200);
    onTestFinished(() => clearInterval(drip));
    await closed;
    expect(received()).toMatch(/^HTTP\/1\.1 408/);
  });

  test('connections past the cap are refused; those within it are served', async () => {
    const port = await listen({ maxConnections: 2 });
    const held = [rawConnection(port), rawConnection(port)];
    await openConnections(2);
    const third = rawConnection(port);
    await third.closed;
    expect(third.received()).toBe('');
    held[0]!.socket.destroy();
    await openConnections(1);
    const response = await fetch(`http://127.0.0.1:${port}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: BODY,
    });
    expect(response.status).toBe(200);
  });
});

describe('one address cannot take every connection', () => {
  test('1,100 sockets from 127.0.0.2: past the per-address limit they are closed at once, and /health from 127.0.0.3 answers 200', async () => {
    const port = await listen({});
    const from = (localAddress: string) => {
      const socket = connect({ port, host: '127.0.0.1', localAddress });
      sockets.push(socket);
      socket.on('error', () => undefined);
      return new Promise<void>((resolve) => {
        socket.once('connect', () => resolve());
        socket.once('close', () => resolve());
      });
    };
    await Promise.all(Array.from({ length: 1_100 }, () => from('127.0.0.2')));
    // The server keeps the limit's worth from that address; the rest it closed on arrival.
    const open = () => new Promise<number>((resolve, reject) => server!.getConnections((e, n) => (e ? reject(e) : resolve(n))));
    await vi.waitFor(async () => expect(await open()).toBe(DEFAULT_HTTP_LIMITS.maxConnectionsPerAddress), {
      timeout: 20_000,
      interval: 50,
    });
    const health = await new Promise<number>((resolve, reject) => {
      const socket = connect({ port, host: '127.0.0.1', localAddress: '127.0.0.3' }, () =>
        socket.write('GET /health HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n'),
      );
      sockets.push(socket);
      let text = '';
      socket.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      socket.on('error', reject);
      socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1] ?? 0)));
    });
    expect(health).toBe(200);
  }, 60_000);
});

describe('HTTP server settings', () => {
  const config = (env: Record<string, string>) => loadConfig({ ...EMBEDDED_ENV, ...env } as NodeJS.ProcessEnv).http;

  test('defaults: 30 s for a request, 15 s for its headers, 5 s keep-alive, 1024 connections, 256 from one address', () => {
    expect(config({})).toEqual({
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 15_000,
      keepAliveTimeoutMs: 5_000,
      maxConnections: 1_024,
      maxConnectionsPerAddress: 256,
    });
    expect(config({ HTTP_MAX_CONNECTIONS_PER_ADDRESS: '64' }).maxConnectionsPerAddress).toBe(64);
  });

  test('a request timeout shorter than 15 s shortens the default headers timeout with it', () => {
    expect(config({ HTTP_REQUEST_TIMEOUT_MS: '5000' })).toMatchObject({ requestTimeoutMs: 5_000, headersTimeoutMs: 5_000 });
  });

  test.each([
    [{ HTTP_HEADERS_TIMEOUT_MS: '20000', HTTP_REQUEST_TIMEOUT_MS: '10000' }, 'HTTP_HEADERS_TIMEOUT_MS'],
    [{ HTTP_HEADERS_TIMEOUT_MS: 'soon' }, 'HTTP_HEADERS_TIMEOUT_MS'],
    [{ HTTP_KEEP_ALIVE_TIMEOUT_MS: '-1' }, 'HTTP_KEEP_ALIVE_TIMEOUT_MS'],
    [{ HTTP_MAX_CONNECTIONS: '1.5' }, 'HTTP_MAX_CONNECTIONS'],
  ])('%o fails naming %s', (env, name) => {
    expect(() => config(env)).toThrow(ConfigError);
    expect(() => config(env)).toThrow(new RegExp(`^Invalid configuration: ${name} must `));
  });

  test('the server src/start.ts runs (npm start) takes them: a slow body is cut at HTTP_REQUEST_TIMEOUT_MS', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'titlegraph-http-limits-'));
    onTestFinished(() => rmSync(dataDir, { recursive: true, force: true }));
    const child = spawnTs('src/start.ts', [], {
      ...EMBEDDED_ENV,
      PORT: '0',
      EMULATOR_PORT: '0',
      DATA_DIR: dataDir,
      HTTP_REQUEST_TIMEOUT_MS: '1000',
      HTTP_HEADERS_TIMEOUT_MS: '1000',
    });
    onTestFinished(async () => {
      await child.stop('SIGKILL');
    });
    const [, port] = await child.waitFor(/GraphQL at http:\/\/localhost:(\d+)\/graphql/);
    const cut = await slowBody(Number(port));
    expect(cut.sent).toBeLessThan(BODY.length);
    expect(cut.received).toMatch(/^HTTP\/1\.1 408/);
  }, 60_000);
});
