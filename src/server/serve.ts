/**
 * The node:http server in front of the app, with limits fit for a GraphQL API: a request
 * (headers and a body of at most 64 KiB) must arrive within `requestTimeout`, its headers within
 * `headersTimeout`, and no more than `maxConnections` sockets are open at once. Node's defaults
 * (300 s, 60 s, unlimited) let a client that sends slowly hold a connection for minutes.
 * Responses are not limited here: a download streams for as long as its caller reads
 * (see download-stream.ts for that limit).
 */
import { createServer, type RequestListener, type Server } from 'node:http';

export interface HttpLimits {
  /** The whole request, headers and body, must arrive within this (ms). */
  requestTimeoutMs: number;
  /** The headers must arrive within this (ms); at most requestTimeoutMs. */
  headersTimeoutMs: number;
  /** An idle kept-alive connection is closed after this (ms). */
  keepAliveTimeoutMs: number;
  /** Open connections at most; more are refused at once. */
  maxConnections: number;
}

export const DEFAULT_HTTP_LIMITS: HttpLimits = {
  requestTimeoutMs: 30_000,
  headersTimeoutMs: 15_000,
  keepAliveTimeoutMs: 5_000,
  maxConnections: 1_024,
};

export function createHttpServer(listener: RequestListener, limits: HttpLimits = DEFAULT_HTTP_LIMITS): Server {
  const server = createServer(
    {
      requestTimeout: limits.requestTimeoutMs,
      headersTimeout: Math.min(limits.headersTimeoutMs, limits.requestTimeoutMs),
      keepAliveTimeout: limits.keepAliveTimeoutMs,
      // Node checks the two timeouts on this interval (30 s by default): check often enough
      // that a limit holds to within a quarter of itself.
      connectionsCheckingInterval: Math.max(50, Math.min(1_000, Math.floor(Math.min(limits.requestTimeoutMs, limits.headersTimeoutMs) / 4))),
    },
    listener,
  );
  server.maxConnections = limits.maxConnections;
  return server;
}
