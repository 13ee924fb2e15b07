/**
 * Test fixtures for the emulator: a fresh emulator on port 0 per test (options overridable with
 * `test.override({ emuOptions })`) and a small HTTP helper that speaks to it over real HTTP.
 */
import { inflateSync } from 'node:zlib';
import { test as base } from 'vitest';
import { startEmulator, type Emulator, type EmulatorOptions } from '../../src/emulator/index';

export type ClientId = 'client-a' | 'client-a2' | 'client-b';
const SECRETS: Record<ClientId, string> = { 'client-a': 'secret-a', 'client-a2': 'secret-a2', 'client-b': 'secret-b' };

export interface Res {
  status: number;
  headers: Headers;
  text: string;
  bytes: Uint8Array;
  /** Parsed JSON body (undefined when the body is empty or not JSON). */
  json: any;
}

export interface CallOptions {
  client?: ClientId | null;
  body?: unknown;
  rawBody?: string;
  headers?: Record<string, string>;
  token?: string;
  signal?: AbortSignal;
}

export class Api {
  private readonly tokens = new Map<ClientId, string>();
  constructor(readonly emu: Emulator) {}

  static basic(clientId: string, secret: string): string {
    return `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}`;
  }

  async tokenFor(client: ClientId): Promise<string> {
    let t = this.tokens.get(client);
    if (!t) {
      const r = await this.raw('POST', '/oauth/token?grant_type=client_credentials', {
        client: null,
        headers: { authorization: Api.basic(client, SECRETS[client]) },
      });
      if (r.status !== 200) throw new Error(`token for ${client}: ${r.status} ${r.text}`);
      t = r.json.access_token as string;
      this.tokens.set(client, t);
    }
    return t;
  }

  forgetTokens() {
    this.tokens.clear();
  }

  /** A call as `client` (default client-a); `client: null` sends no credentials. */
  async call(method: string, path: string, opts: CallOptions = {}): Promise<Res> {
    const client = opts.client === undefined ? 'client-a' : opts.client;
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    const token = opts.token ?? (client ? await this.tokenFor(client) : undefined);
    if (token && !headers.authorization) headers.authorization = `Bearer ${token}`;
    return this.raw(method, path, { ...opts, headers });
  }

  private async raw(method: string, path: string, opts: CallOptions): Promise<Res> {
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    let body: string | undefined = opts.rawBody;
    if (opts.body !== undefined) {
      body = JSON.stringify(opts.body);
      headers['content-type'] = 'application/json';
    }
    const r = await fetch(this.emu.url + path, { method, headers, body, signal: opts.signal });
    const bytes = new Uint8Array(await r.arrayBuffer());
    const text = Buffer.from(bytes).toString('utf8');
    let json: unknown;
    if ((r.headers.get('content-type') ?? '').includes('json') && text) {
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined; // a malformed body (fault injection); `text` still has it
      }
    }
    return { status: r.status, headers: r.headers, text, bytes, json };
  }

  get(path: string, opts?: CallOptions) {
    return this.call('GET', path, opts);
  }
  post(path: string, body?: unknown, opts: CallOptions = {}) {
    return this.call('POST', path, { ...opts, ...(body === undefined ? {} : { body }) });
  }
}

export const test = base.extend<{ emuOptions: EmulatorOptions; emu: Emulator; api: Api }>({
  // Override per describe block with `test.override({ emuOptions: {...} })`.
  emuOptions: {},
  emu: async ({ emuOptions }, use) => {
    const emu = await startEmulator({ port: 0, ...emuOptions });
    await use(emu);
    await emu.close();
  },
  api: async ({ emu }, use) => {
    await use(new Api(emu));
  },
});

export { describe, expect } from 'vitest';

/** A fixed instant: 10:00 London time (BST) on a Tuesday. */
export const NOON_ISH = new Date('2025-06-10T09:00:00Z');

/** The Latin-1 boundaries of spec 1: [label, character, accepted]. */
export const LATIN1_BOUNDARIES = [
  ['U+00A0', '\u00A0', false],
  ['U+00AD', '\u00AD', false],
  ['U+0100', '\u0100', false],
  ['U+001F', '\u001F', false],
  ['U+007F', '\u007F', false],
  ['U+00A1', '\u00A1', true],
  ['U+00AC', '\u00AC', true],
  ['U+00AE', '\u00AE', true],
  ['U+00FF', '\u00FF', true],
] as const;

/** The text drawn on a pdf-lib PDF: inflates the content streams and decodes the hex strings. */
export function pdfText(bytes: Uint8Array): string {
  const raw = Buffer.from(bytes);
  const out: string[] = [];
  let at = 0;
  for (;;) {
    const start = raw.indexOf('stream\n', at);
    if (start < 0) break;
    const end = raw.indexOf('\nendstream', start);
    if (end < 0) break;
    const data = raw.subarray(start + 7, end);
    let content: string;
    try {
      content = inflateSync(data).toString('latin1');
    } catch {
      content = data.toString('latin1');
    }
    for (const m of content.matchAll(/<([0-9A-Fa-f]*)>\s*Tj/g)) out.push(Buffer.from(m[1]!, 'hex').toString('latin1'));
    at = end + 10;
  }
  return out.join('\n');
}
