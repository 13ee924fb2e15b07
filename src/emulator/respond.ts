/** Writing replies to the socket: JSON, whole PDFs and streamed PDFs (with backpressure). */
import type { ServerResponse } from 'node:http';
import type { Reply } from './context';

export interface WireResponse {
  status: number;
  headers: Record<string, string>;
  length: number;
  body: AsyncIterable<Uint8Array>;
}

async function* once(bytes: Uint8Array): AsyncIterable<Uint8Array> {
  if (bytes.length) yield bytes;
}

/** A reply as status, headers (with Content-Length) and body chunks. */
export function toWire(reply: Reply): WireResponse {
  const headers: Record<string, string> = { ...(reply.headers ?? {}) };
  if (reply.status === 304 || reply.status === 204) return { status: reply.status, headers, length: 0, body: once(new Uint8Array()) };
  if (reply.pdf) {
    headers['Content-Type'] = 'application/pdf';
    if (reply.filename) headers['Content-Disposition'] = `attachment; filename="${reply.filename}"`;
    const pdf = reply.pdf;
    if ('bytes' in pdf) return { status: reply.status, headers, length: pdf.bytes.length, body: once(pdf.bytes) };
    return { status: reply.status, headers, length: pdf.length, body: pdf.chunks() };
  }
  const text = reply.jsonText ?? JSON.stringify(reply.json ?? null);
  const bytes = Buffer.from(text, 'utf8');
  headers['Content-Type'] = 'application/json; charset=utf-8';
  return { status: reply.status, headers, length: bytes.length, body: once(bytes) };
}

function drain(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Writes a wire response, chunk by chunk, respecting backpressure; stops if the client goes away. */
export async function writeWire(res: ServerResponse, wire: WireResponse): Promise<void> {
  res.writeHead(wire.status, { ...wire.headers, 'Content-Length': String(wire.length) });
  for await (const chunk of wire.body) {
    if (res.destroyed) return;
    if (!res.write(chunk)) await drain(res);
  }
  if (!res.destroyed) res.end();
}
