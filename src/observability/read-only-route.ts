/**
 * The one method rule of the routes beside GraphQL that only read (/ready, /metrics, /downloads,
 * /statements.csv): GET and HEAD are answered, anything else is 405 with `Allow`. Here, below
 * server/, so that the probes and the metrics of observability/ share it with the edge.
 */
import type { Plugin } from 'graphql-yoga';

/** The `Allow` header of a 405 from a read-only route. */
export const READ_ONLY_ALLOW = { allow: 'GET, HEAD' } as const;

/** Whether a request may be answered by a read-only route: a GET, or a HEAD (the same answer without its body). */
export const isReadOnlyMethod = (request: Request) => request.method === 'GET' || request.method === 'HEAD';

export interface ReadOnlyRoute {
  /** The path it serves, exactly. */
  path: string;
  /** Its answer to a GET or a HEAD (a HEAD's without a body). */
  answer(request: Request): Promise<Response>;
  /** Its 405 to any other method; by default an empty body with `Allow`. */
  refuse?(request: Request): Response;
}

/** A yoga plugin serving one read-only route beside GraphQL. */
export function useReadOnlyRoute(route: ReadOnlyRoute): Plugin {
  return {
    // Synchronous for every other path: a promise here would cost every GraphQL request a turn.
    onRequest({ request, url, endResponse }) {
      if (url.pathname !== route.path) return;
      if (!isReadOnlyMethod(request)) {
        endResponse(route.refuse?.(request) ?? new Response(null, { status: 405, headers: READ_ONLY_ALLOW }));
        return;
      }
      return route.answer(request).then(endResponse);
    },
  };
}
