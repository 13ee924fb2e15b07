/**
 * The caller's going away as the register client follows it (server/caller-gone.ts), read from
 * Node's response over a real socket: a response that finished is never "gone"; a connection cut
 * before the end is, once, with an AbortError, whether the listener came before or after.
 */
import { createServer, request, type Server, type ServerResponse } from 'node:http';
import { afterEach, expect, test } from 'vitest';
import { CallerGone } from '../../src/server/caller-gone';

let server: Server | undefined;
afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

/** Serves one request, handing its response to `handle`; resolves with the port. */
async function serveOne(handle: (res: ServerResponse) => void): Promise<number> {
  server = createServer((_req, res) => handle(res));
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return (server.address() as { port: number }).port;
}

test('a response that finished is not a caller gone, and its listeners never hear an abort', async () => {
  let gone: CallerGone | undefined;
  const heard: Event[] = [];
  const port = await serveOne((res) => {
    gone = new CallerGone(res);
    gone.addEventListener('abort', (event) => heard.push(event));
    res.end('done');
  });
  const body = await new Promise<string>((resolve) =>
    request({ port, host: '127.0.0.1', agent: false }, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve(text));
    }).end(),
  );
  expect(body).toBe('done');
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(gone!.aborted).toBe(false);
  expect(gone!.reason).toBeUndefined();
  expect(heard).toEqual([]);
});

test('a connection cut before the response ends: aborted, an AbortError, each listener (function or object) told once, a removed one not at all', async () => {
  let gone: CallerGone | undefined;
  const heard: string[] = [];
  const closed = new Promise<void>((resolveClosed) => {
    void serveOne((res) => {
      gone = new CallerGone(res);
      const removed = () => heard.push('removed');
      const removedObject = { handleEvent: () => heard.push('removed object') };
      gone.addEventListener('abort', () => heard.push('first'));
      gone.addEventListener('abort', { handleEvent: () => heard.push('object') });
      gone.addEventListener('abort', removed);
      gone.addEventListener('abort', removedObject);
      gone.removeEventListener('abort', removed);
      gone.removeEventListener('abort', removedObject);
      res.write('partial');
      res.once('close', () => setImmediate(resolveClosed));
    }).then((port) => {
      const req = request({ port, host: '127.0.0.1', agent: false }, (res) => res.once('data', () => req.destroy()));
      req.on('error', () => undefined);
      req.end();
    });
  });
  await closed;
  expect(gone!.aborted).toBe(true);
  expect(gone!.reason).toBeInstanceOf(DOMException);
  expect((gone!.reason as DOMException).name).toBe('AbortError');
  expect(heard).toEqual(['first', 'object']);
});
