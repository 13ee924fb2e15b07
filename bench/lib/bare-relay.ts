/**
 * The bare Node relay of the streaming phase (section 5 of RESULTS.md), run as a child process of
 * the benchmark (procs.ts, startBareRelay): the ceiling of any Node relay through one more loopback
 * hop on this machine. Each GET fetches the plan PDF from the emulator with undici's `request()`
 * (the URL and headers of the direct download) and pipes the body into the response; nothing else
 * (no auth, no limits, no logs or metrics). The service's streaming goal (≥ 0.8 of direct) is read
 * against what this reaches in the same run: on a 2-core machine it was about 0.4 of direct.
 */
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { request } from 'undici';

/** This file, for procs.ts to fork; run so, it serves the relay. */
export const BARE_RELAY_FILE = fileURLToPath(import.meta.url);

if (process.argv[1] === BARE_RELAY_FILE) {
  const upstream = process.env.BARE_RELAY_UPSTREAM!;
  const headers = JSON.parse(process.env.BARE_RELAY_HEADERS!) as Record<string, string>;
  const server = createServer((_req, res) => {
    request(upstream, { headers }).then(
      ({ headers: h, body }) => {
        res.writeHead(200, {
          'content-length': h['content-length'] as string,
          'content-type': (h['content-type'] as string) ?? 'application/pdf',
        });
        body.pipe(res);
      },
      (error: Error) => res.destroy(error),
    );
  });
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address() as { port: number };
    process.send!({ url: `http://127.0.0.1:${port}/` });
  });
}
