/**
 * Reading register responses: JSON bodies parsed with the route's zod schema, small JSON
 * error bodies, and the headers of streamed downloads. Nothing here ever echoes body content
 * into an error message.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { Dispatcher } from 'undici';
import type { z } from 'zod';
import { ErrorBody } from '../contract/wire';
import { CLIENT_ERROR_CODES, RegisterError } from './errors';

export interface RawResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Dispatcher.ResponseData['body'];
  /** A call that charges: the register's `Date` at the start of this answer (the charge's register day). */
  answeredAt?: Date;
}

/**
 * The answer to a call that charges, and when the register began to give it by its own clock:
 * the register charges as it answers, so that names the charge's register day, however late
 * the body ends and whatever this machine's clock says.
 */
export interface Answered<T> {
  body: T;
  answeredAt?: Date;
}

/** Error bodies are `{code, message, field?}`: anything bigger than this is not one. */
const ERROR_BODY_CAP = 64 * 1024;

export function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

function issuePath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  return path.map((p, i) => (typeof p === 'number' ? `[${p}]` : `${i === 0 ? '' : '.'}${String(p)}`)).join('');
}

export function contractError(route: string, status: number, what: string): RegisterError {
  return new RegisterError({ status, route, code: CLIENT_ERROR_CODES.contract, detail: what });
}

/** Reads a JSON body and parses it with `schema`; any mismatch is REGISTER_CONTRACT_ERROR. */
export async function readJson<S extends z.ZodType>(res: RawResponse, route: string, schema: S): Promise<z.output<S>> {
  const text = await res.body.text();
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw contractError(route, res.status, 'response body is not valid JSON');
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? `${issuePath(issue.path)} (${issue.code})` : '(root)';
    throw contractError(route, res.status, `response does not match the contract at ${where}`);
  }
  return parsed.data;
}

/** Reads a small error body; undefined when it is too big, not JSON or not `{code,message}`. */
export async function readErrorBody(body: RawResponse['body']): Promise<ErrorBody | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > ERROR_BODY_CAP) {
      body.destroy();
      return undefined;
    }
    chunks.push(chunk);
  }
  try {
    const parsed = ErrorBody.safeParse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Discards a body we do not need, keeping the socket reusable when it is small. */
export async function discard(body: RawResponse['body']): Promise<void> {
  try {
    await body.dump({ limit: ERROR_BODY_CAP });
  } catch {
    body.destroy();
  }
}

/** Drops a download the caller will not read: frees the socket without an unhandled stream error. */
export function abandon(body: Readable): void {
  body.once('error', () => undefined);
  body.destroy();
}

/** The file name of a Content-Disposition header (RFC 6266; `filename*` preferred), made path-safe. */
export function parseContentDispositionFilename(value: string | undefined): string | undefined {
  if (!value) return undefined;
  let name: string | undefined;
  const star = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(value);
  if (star?.[2]) {
    try {
      name = decodeURIComponent(star[2].trim());
    } catch {
      name = undefined;
    }
  }
  if (name === undefined) {
    const quoted = /(?:^|;)\s*filename\s*=\s*"((?:\\.|[^"\\])*)"/i.exec(value);
    const plain = /(?:^|;)\s*filename\s*=\s*([^;\s"]+)/i.exec(value);
    name = quoted?.[1]?.replace(/\\(.)/g, '$1') ?? plain?.[1];
  }
  if (name === undefined) return undefined;
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what a file name must lose
  const safe = (name.split(/[/\\]/).pop() ?? '').replace(/[\u0000-\u001f\u007f]/g, '').trim();
  return safe === '' || safe === '.' || safe === '..' ? undefined : safe;
}

export function parseContentLength(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value.trim());
}

/**
 * A streamed download: the body is NEVER buffered. It is the HTTP client's own Node stream, so
 * a server can pipe it straight into its response. Consume or destroy it, or the socket stays busy.
 */
export interface RegisterDownload {
  status: number;
  contentType: string;
  contentLength?: number;
  filename?: string;
  body: Readable;
}

const PDF_MAGIC = '%PDF-';

/** Reads at least `bytes` from the start of a stream (less if it ends) and puts them back. */
async function peek(stream: Readable, bytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  while (size < bytes) {
    const chunk = stream.read() as Buffer | null;
    if (chunk !== null) {
      chunks.push(chunk);
      size += chunk.length;
      continue;
    }
    if (stream.readableEnded || stream.destroyed) break;
    await new Promise<void>((resolve, reject) => {
      const done = () => {
        stream.off('readable', done).off('end', done).off('error', fail);
        resolve();
      };
      const fail = (error: Error) => {
        stream.off('readable', done).off('end', done).off('error', fail);
        reject(error);
      };
      stream.once('readable', done).once('end', done).once('error', fail);
    });
  }
  const head = Buffer.concat(chunks);
  if (head.length > 0) stream.unshift(head);
  return head;
}

/**
 * Hands the body over without buffering it. Only the first few bytes are read up front: a
 * body labelled application/pdf must start with `%PDF-`, or the call is a
 * REGISTER_CONTRACT_ERROR (other media types, e.g. plan images, pass unchecked).
 */
export async function readDownload(res: RawResponse, route: string): Promise<RegisterDownload> {
  const contentType = header(res.headers, 'content-type') ?? 'application/octet-stream';
  const contentLength = parseContentLength(header(res.headers, 'content-length'));
  const filename = parseContentDispositionFilename(header(res.headers, 'content-disposition'));
  const body = res.body as unknown as Readable;
  if (/^application\/pdf\b/i.test(contentType)) {
    const head = await peek(body, PDF_MAGIC.length);
    if (head.subarray(0, PDF_MAGIC.length).toString('latin1') !== PDF_MAGIC) {
      abandon(body);
      throw contractError(route, res.status, 'download labelled application/pdf is not a PDF');
    }
  }
  return {
    status: res.status,
    contentType,
    ...(contentLength !== undefined ? { contentLength } : {}),
    ...(filename !== undefined ? { filename } : {}),
    body,
  };
}
