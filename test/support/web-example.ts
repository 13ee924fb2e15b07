/**
 * What the web example's browser tests share: a Vite build of examples/web with build-time
 * settings, and a tiny static server for the built folder.
 */
import { readFileSync, statSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize, resolve } from 'node:path';
import { build } from 'vite';

export const EXAMPLE = resolve('examples/web');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** Serves a built folder; anything else goes to `fallback` (the service, for a same-origin setup). */
export function staticFiles(dir: string, fallback?: (req: IncomingMessage, res: ServerResponse) => void) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const file = normalize(join(dir, path === '/' ? 'index.html' : path));
    if (file.startsWith(dir) && req.method === 'GET') {
      try {
        if (statSync(file).isFile()) {
          res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
          res.end(readFileSync(file));
          return;
        }
      } catch {
        // not a built file
      }
    }
    if (fallback) return fallback(req, res);
    res.writeHead(404).end();
  };
}

/** Builds the example into `outDir` with these Vite settings (VITE_…), as `vite build` with them in the environment would. */
export async function buildExample(outDir: string, env: Record<string, string>) {
  await build({
    configFile: join(EXAMPLE, 'vite.config.ts'),
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
    define: Object.fromEntries(Object.entries(env).map(([k, v]) => [`import.meta.env.${k}`, JSON.stringify(v)])),
  });
}
