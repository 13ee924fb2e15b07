/**
 * GraphiQL served from the bundled `@graphql-yoga/render-graphiql` package: its JS, CSS, editor
 * workers and favicon are inlined in the page, so it needs no CDN (yoga's default page loads them
 * from unpkg.com, which offline and many corporate networks cannot reach). The page is ~9 MB, so
 * it is served compressed (brotli or gzip, made once) with an ETag, and revalidated with a 304.
 */
import { createHash } from 'node:crypto';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { renderGraphiQL as renderBundledGraphiQL } from '@graphql-yoga/render-graphiql';
import type { GraphiQLOptions, Plugin } from 'graphql-yoga';

interface Page {
  html: Buffer;
  etag: string;
  br?: Buffer;
  gzip?: Buffer;
}

/** The page is rendered once per distinct options, and each encoding compressed once. */
const pages = new Map<string, Page>();

function pageFor(options: GraphiQLOptions): Page {
  const key = JSON.stringify(options);
  let page = pages.get(key);
  if (!page) {
    const html = Buffer.from(renderBundledGraphiQL(options), 'utf8');
    page = { html, etag: `"${createHash('sha256').update(html).digest('base64url').slice(0, 27)}"` };
    if (pages.size > 16) pages.clear();
    pages.set(key, page);
  }
  return page;
}

/** The encoding to send: brotli, then gzip, when the client accepts them (q=0 refuses). */
function encodingFor(acceptEncoding: string | null): 'br' | 'gzip' | undefined {
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

function body(page: Page, encoding: 'br' | 'gzip' | undefined): Buffer {
  if (encoding === 'br') return (page.br ??= brotliCompressSync(page.html, { params: { [constants.BROTLI_PARAM_QUALITY]: 9 } }));
  if (encoding === 'gzip') return (page.gzip ??= gzipSync(page.html, { level: 9 }));
  return page.html;
}

/**
 * Serves GraphiQL at GET `endpoint` for a browser (Accept: text/html, no `query` parameter), in
 * place of Yoga's own rendering, which sends the 9 MB uncompressed and without a validator.
 */
export function useGraphiQLPage(endpoint: string, options: GraphiQLOptions): Plugin {
  return {
    onRequest({ request, url, endResponse, fetchAPI }) {
      if (request.method !== 'GET' || url.pathname !== endpoint || url.searchParams.has('query')) return;
      if (!(request.headers.get('accept') ?? '').includes('text/html')) return;
      const page = pageFor(options);
      const encoding = encodingFor(request.headers.get('accept-encoding'));
      const headers: Record<string, string> = {
        'content-type': 'text/html; charset=utf-8',
        etag: page.etag,
        // the page changes only with a new version of the service: revalidate, then reuse
        'cache-control': 'no-cache',
        vary: 'Accept, Accept-Encoding',
      };
      const tags = request.headers.get('if-none-match');
      if (tags && tags.split(',').some((t) => t.trim().replace(/^W\//, '') === page.etag)) {
        endResponse(new fetchAPI.Response(null, { status: 304, headers }));
        return;
      }
      if (encoding) headers['content-encoding'] = encoding;
      const bytes = body(page, encoding);
      endResponse(new fetchAPI.Response(new Uint8Array(bytes.buffer as ArrayBuffer, bytes.byteOffset, bytes.byteLength), { status: 200, headers }));
    },
  };
}
