/**
 * A proxy in front of the emulator that can hold one answer: the request reaches the register
 * (a purchase is charged there), and its answer waits in the proxy until the test releases it or
 * resets the connection (the answer lost after the request reached the register). What a test
 * does meanwhile happens while the call is, for the service, still at the register, however long
 * that takes: no timer decides it.
 */
import { createServer, type IncomingMessage, request } from 'node:http';
import { closeServer, listen } from './http-service';

/** An answer the register gave and the proxy holds. */
export interface HeldAnswer {
  /** The register's status for the held call. */
  status: number;
  /** Sends the answer on, as the register gave it. */
  release(): void;
  /** Drops the connection instead: the caller never hears the answer. */
  reset(): void;
}

export interface HoldingRegister {
  /** Where the service sends its register calls. */
  url: string;
  /** The register the proxy forwards to (set once the emulator is up). */
  target: string;
  /** Holds the answer of the next call whose method and path match; resolves once the register has answered it. */
  holdNext(match: (method: string, path: string) => boolean): Promise<HeldAnswer>;
  close(): Promise<void>;
}

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length']);

async function bodyOf(stream: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

export async function holdingRegister(): Promise<HoldingRegister> {
  const holds: { match: (method: string, path: string) => boolean; held: (answer: HeldAnswer) => void }[] = [];
  const proxy: HoldingRegister = {
    url: '',
    target: '',
    holdNext: (match) => new Promise((held) => holds.push({ match, held })),
    close: () => closeServer(server),
  };
  const server = createServer(async (req, res) => {
    const body = await bodyOf(req);
    const upstream = await new Promise<IncomingMessage>((resolve, reject) => {
      const target = new URL(req.url ?? '/', proxy.target);
      const headers = { ...req.headers, host: target.host };
      request(target, { method: req.method, headers }, resolve).on('error', reject).end(body);
    });
    const answer = await bodyOf(upstream);
    const headers = Object.fromEntries(Object.entries(upstream.headers).filter(([name]) => !HOP_BY_HOP.has(name)));
    const send = () => res.writeHead(upstream.statusCode ?? 502, { ...headers, 'content-length': String(answer.length) }).end(answer);
    const index = holds.findIndex((hold) => hold.match(req.method ?? 'GET', req.url ?? '/'));
    if (index < 0) return send();
    const [hold] = holds.splice(index, 1);
    hold!.held({ status: upstream.statusCode ?? 0, release: send, reset: () => req.socket.destroy() });
  });
  proxy.url = await listen(server);
  return proxy;
}
