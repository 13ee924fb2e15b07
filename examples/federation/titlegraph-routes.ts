/**
 * titlegraph's two routes that are not GraphQL, served at the gateway's own address: `/downloads/…`
 * (the signed links in `downloadUrl`, fetched with no Authorization header) and `/statements.csv`
 * (the charge statement as CSV, with the caller's `Authorization: Bearer …`). A gateway serves
 * only GraphQL (Hive Gateway answers 404 there, Apollo Server 400), so without a route a front end
 * that knows only the gateway's address cannot reach them.
 *
 * Hive Gateway: add the plugin beside the config's own,
 *   plugins: (ctx) => [...titlegraphGatewayConfig.plugins(), useTitlegraphRoutes('http://titlegraph.internal:4000')]
 * and set titlegraph's PUBLIC_URL to the gateway's public address, so the links it signs point here.
 * Anything else speaking the Fetch API (a Hono or Next.js route, a Cloudflare worker) can call
 * `forwardToTitlegraph` itself. Apollo Server has no route for it: use a path rule in the proxy in
 * front, or titlegraph's own address (the README's Federation section).
 * test/interop/gateway-routes.test.ts runs it through Hive Gateway.
 */
import type { GatewayPlugin } from '@graphql-hive/gateway-runtime';

/** The paths titlegraph serves outside GraphQL. */
export const isTitlegraphRoute = (pathname: string): boolean => pathname === '/statements.csv' || pathname.startsWith('/downloads/');

/** What titlegraph reads of such a request: the caller's credential, validators and ranges, tracing. */
const FORWARDED_REQUEST_HEADERS = [
  'authorization',
  'accept',
  'range',
  'if-range',
  'if-none-match',
  'if-modified-since',
  'traceparent',
  'tracestate',
  'x-request-id',
];

/** Hop-by-hop headers, and those fetch has already acted on (it decodes the body, so its length changes). */
const DROPPED_RESPONSE_HEADERS = ['connection', 'keep-alive', 'transfer-encoding', 'content-encoding', 'content-length'];

/**
 * titlegraph's answer to `request` when it is for one of its own routes (a GET or HEAD), streamed
 * through; `undefined` for anything else, which stays the gateway's. titlegraph unreachable is a
 * 502 that says so.
 */
export async function forwardToTitlegraph(request: Request, titlegraphOrigin: string): Promise<Response | undefined> {
  const url = new URL(request.url);
  if (!isTitlegraphRoute(url.pathname) || (request.method !== 'GET' && request.method !== 'HEAD')) return undefined;
  const headers = new Headers();
  for (const name of FORWARDED_REQUEST_HEADERS) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  let upstream: Response;
  try {
    upstream = await fetch(new URL(`${url.pathname}${url.search}`, titlegraphOrigin), { method: request.method, headers });
  } catch {
    return Response.json(
      { errors: [{ message: 'titlegraph could not be reached from the gateway; nothing was done. Try again shortly.' }] },
      { status: 502 },
    );
  }
  const answer = new Headers(upstream.headers);
  for (const name of DROPPED_RESPONSE_HEADERS) answer.delete(name);
  return new Response(upstream.body, { status: upstream.status, statusText: upstream.statusText, headers: answer });
}

/** Hive Gateway: `/downloads/…` and `/statements.csv` answered by titlegraph at `titlegraphOrigin`. */
export function useTitlegraphRoutes(titlegraphOrigin: string): GatewayPlugin {
  return {
    onRequest({ request, url, endResponse }) {
      if (!isTitlegraphRoute(url.pathname)) return;
      return forwardToTitlegraph(request, titlegraphOrigin).then((response) => {
        if (response) endResponse(response);
      });
    },
  };
}
