/**
 * The HTTP server's own limits, over a real socket: a body sent slowly is cut at the request
 * timeout, headers sent slowly at the headers timeout, and connections past the cap are refused;
 * an ordinary request is answered.
 */
import type { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import { createHttpServer, type HttpLimits } from '../../src/server/serve';
import { startService } from '../service/harness';

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
  server = createHttpServer(svc.yoga, { requestTimeoutMs: 30_000, headersTimeoutMs: 15_000, keepAliveTimeoutMs: 5_000, maxConnections: 1_024, ...limits });
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

const BODY = JSON.stringify({ query: '{ __typename }' });

describe('HTTP server limits', () => {
  test('an ordinary request is answered', async () => {
    const port = await listen({ requestTimeoutMs: 1_000 });
    const response = await fetch(`http://127.0.0.1:${port}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ data: { __typename: 'Query' } });
  });

  test('a body sent slowly is cut at the request timeout (408), long before it would finish', async () => {
    const port = await listen({ requestTimeoutMs: 1_000, headersTimeoutMs: 1_000 });
    const { socket, closed, received } = rawConnection(port);
    socket.write(`POST /graphql HTTP/1.1\r\nHost: t\r\nContent-Type: application/json\r\nContent-Length: ${BODY.length}\r\n\r\n`);
    // one byte every 200 ms: the whole body would take 5 s
    let sent = 0;
    const drip = setInterval(() => {
      if (sent < BODY.length && !socket.destroyed) socket.write(BODY[sent++]!);
    }, 200);
    try {
      await closed;
      // cut while the body was still arriving
      expect(sent).toBeLessThan(BODY.length);
      expect(received()).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      clearInterval(drip);
    }
  });

  test('headers sent slowly are cut at the headers timeout', async () => {
    const port = await listen({ requestTimeoutMs: 5_000, headersTimeoutMs: 500 });
    const { socket, closed, received } = rawConnection(port);
    socket.write('POST /graphql HTTP/1.1\r\nHost: t\r\n');
    const drip = setInterval(() => !socket.destroyed && socket.write('X-Slow: 1\r\n'), 200);
    try {
      await closed;
      expect(received()).toMatch(/^HTTP\/1\.1 408/);
    } finally {
      clearInterval(drip);
    }
  });

  test('connections past the cap are refused; those within it are served', async () => {
    const port = await listen({ maxConnections: 2 });
    const held = [rawConnection(port), rawConnection(port)];
    await Promise.all(held.map(({ socket }) => new Promise((resolve) => socket.once('connect', resolve))));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const third = rawConnection(port);
    await third.closed;
    expect(third.received()).toBe('');
    held[0]!.socket.destroy();
    await held[0]!.closed;
    await new Promise((resolve) => setTimeout(resolve, 100));
    const response = await fetch(`http://127.0.0.1:${port}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: BODY });
    expect(response.status).toBe(200);
  });
});
