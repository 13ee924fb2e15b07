/**
 * GraphiQL served from the bundled `@graphql-yoga/render-graphiql` package: its JS, CSS, editor
 * workers and favicon are inlined in the page, so it needs no CDN (yoga's default page loads them
 * from unpkg.com, which offline and many corporate networks cannot reach). The page is ~9 MB, so
 * it is served compressed (brotli or gzip, made once per process, off the event loop) with an
 * ETag, and revalidated with a 304.
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { GraphiQLOptions, Plugin } from 'graphql-yoga';

type Encoding = 'br' | 'gzip';

interface Page {
  html: Buffer;
  /** Weak: the br, gzip and plain bodies differ byte for byte but are the same page. */
  etag: string;
  encoded: Partial<Record<Encoding, Promise<Buffer>>>;
}

// zlib's callback API runs on the libuv thread pool: brotli of 9 MB takes a CPU for a while
// (about 0.3 s at quality 6, 3 s at 9), and done synchronously it would stall every request.
const compress: Record<Encoding, (html: Buffer) => Promise<Buffer>> = {
  // Quality 6: within 3% of quality 9's size at a tenth of its time.
  br: (html) =>
    promisify(brotliCompress)(html, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 6,
        [constants.BROTLI_PARAM_SIZE_HINT]: html.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    }),
  gzip: (html) => promisify(gzip)(html, { level: 9 }),
};

type RenderGraphiQL = (options: GraphiQLOptions) => string;

let renderer: Promise<RenderGraphiQL> | undefined;

/**
 * The bundled page's package, loaded on first use: it is 18 MB, and the production image leaves it
 * out (GraphiQL is off there unless GRAPHIQL=true), so nothing may import it before GraphiQL is on.
 * main.ts awaits this at start when GraphiQL is on, so a missing package stops the start instead
 * of the first page view.
 */
export function loadGraphiQL(): Promise<RenderGraphiQL> {
  renderer ??= import('@graphql-yoga/render-graphiql').then((module) => module.renderGraphiQL);
  return renderer;
}

/** The page is rendered once per distinct options, and each encoding compressed once. */
const pages = new Map<string, Page>();

async function pageFor(options: GraphiQLOptions): Promise<Page> {
  const key = JSON.stringify(options);
  let page = pages.get(key);
  if (!page) {
    const html = Buffer.from((await loadGraphiQL())(options), 'utf8');
    page = { html, etag: `W/"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"`, encoded: {} };
    if (pages.size > 16) pages.clear();
    pages.set(key, page);
  }
  return page;
}

/** The encoding to send: brotli, then gzip, when the client accepts them (q=0 refuses). */
function encodingFor(acceptEncoding: string | null): Encoding | undefined {
  const accepted = new Map(
    (acceptEncoding ?? '').split(',').map((part) => {
      const [name, ...params] = part.trim().toLowerCase().split(';');
      const q = params.map((p) => /^\s*q=([\d.]+)/.exec(p)?.[1]).find(Boolean);
      return [name!, q === undefined ? 1 : Number(q)] as const;
    }),
  );
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  return ok('br') ? 'br' : ok('gzip') ? 'gzip' : undefined;
}

function body(page: Page, encoding: Encoding | undefined): Promise<Buffer> {
  if (!encoding) return Promise.resolve(page.html);
  let made = page.encoded[encoding];
  if (!made) {
    made = page.encoded[encoding] = compress[encoding](page.html);
    // A failure is not cached: the next request tries again.
    made.catch(() => delete page.encoded[encoding]);
  }
  return made;
}

/** If-None-Match against the page's tag, by weak comparison (RFC 9110 13.1.2). */
function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return ifNoneMatch.trim() === '*' || ifNoneMatch.split(',').some((tag) => opaque(tag) === opaque(etag));
}

/**
 * Serves GraphiQL at GET `endpoint` for a browser (Accept: text/html), in place of Yoga's own
 * rendering, which sends the 9 MB uncompressed and without a validator. A deep link
 * (`/graphql?query=…`) gets the page too, which reads the query from its own address: a browser
 * sends no CSRF header, so running it as an API GET could only answer 403. API clients ask for
 * JSON, and their GETs still need a CSRF header.
 */
export function useGraphiQLPage(endpoint: string, options: GraphiQLOptions): Plugin {
  return {
    onRequest({ request, url, endResponse, fetchAPI }) {
      if (request.method !== 'GET' || url.pathname !== endpoint) return;
      if (!(request.headers.get('accept') ?? '').includes('text/html')) return;
      return pageFor(options).then((page) => {
        const encoding = encodingFor(request.headers.get('accept-encoding'));
        const headers: Record<string, string> = {
          'content-type': 'text/html; charset=utf-8',
          etag: page.etag,
          // the page changes only with a new version of the service: revalidate, then reuse
          'cache-control': 'no-cache',
          vary: 'Accept, Accept-Encoding',
        };
        if (matches(request.headers.get('if-none-match'), page.etag)) {
          endResponse(new fetchAPI.Response(null, { status: 304, headers }));
          return;
        }
        if (encoding) headers['content-encoding'] = encoding;
        return body(page, encoding).then(
          (bytes) =>
            endResponse(
              new fetchAPI.Response(new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength), {
                status: 200,
                headers,
              }),
            ),
          // Compression failed (out of memory, say): the page uncompressed rather than an error.
          () => {
            delete headers['content-encoding'];
            endResponse(
              new fetchAPI.Response(new Uint8Array(page.html.buffer as ArrayBuffer, page.html.byteOffset, page.html.byteLength), {
                status: 200,
                headers,
              }),
            );
          },
        );
      });
    },
  };
}

/** What a browser opening the endpoint reads when GraphiQL is off, instead of a blank 406. */
export const GRAPHIQL_OFF_MESSAGE =
  'GraphiQL is off on this service: it is off by default in production (NODE_ENV=production). Set GRAPHIQL=true to turn it on (on a service only your own people can reach), then reload this page. This address is the GraphQL API itself: clients POST application/json to it.';

/**
 * With GraphiQL off, a browser's GET of the endpoint (Accept: text/html) is answered with a page
 * that says so and how to turn it on. The status stays 406: there is no HTML to give here, and
 * API clients that asked for JSON are not affected.
 */
export function useGraphiQLOffPage(endpoint: string): Plugin {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>titlegraph: GraphiQL is off</title></head><body><h1>GraphiQL is off</h1><p>${GRAPHIQL_OFF_MESSAGE}</p></body></html>`;
  return {
    onRequest({ request, url, endResponse, fetchAPI }) {
      if (request.method !== 'GET' || url.pathname !== endpoint) return;
      if (!(request.headers.get('accept') ?? '').includes('text/html')) return;
      endResponse(
        new fetchAPI.Response(html, {
          status: 406,
          headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-cache', vary: 'Accept' },
        }),
      );
    },
  };
}
