/**
 * The HTTP layer: routing with matchRoute, auth (401) → quota (429) → the route's own checks,
 * error bodies, latency, faults and call records. Plain node:http for full control of faults.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { secondsUntilLondonMidnight } from '../register/contract/london-day';
import { matchRoute, type RouteDef } from '../register/contract/routes';
import { bearerCaller, basicCaller, issueToken } from './auth';
import type { Env, Reply } from './context';
import { ApiError } from './errors';
import { applyFault, faultStatus, type FaultBook } from './faults';
import { HANDLERS } from './handlers';
import { openApiDocument } from './openapi';
import { toWire, writeWire } from './respond';
import type { Caller } from './store';

const MAX_BODY = 1024 * 1024;

export interface ServerDeps {
  env: Env;
  faults: FaultBook;
  /** Answers /__control/ requests. */
  control(req: IncomingMessage, res: ServerResponse, path: string, body: string): void;
  /** Base URL ending in /v1 (for the OpenAPI servers entry). */
  baseUrl(): string;
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size <= MAX_BODY) chunks.push(c);
    });
    req.on('end', () =>
      size > MAX_BODY
        ? reject(new ApiError(400, 'INVALID_REQUEST', 'body: must be at most 1 MiB', 'body'))
        : resolve(Buffer.concat(chunks).toString('utf8')),
    );
    req.on('error', reject);
    // A client that goes away mid-body: settle (the answer goes nowhere anyway).
    req.on('close', () => {
      if (!req.complete) reject(new ApiError(400, 'INVALID_REQUEST', 'body: the request was aborted', 'body'));
    });
  });
}

function errorReply(e: unknown): Reply {
  if (e instanceof ApiError) return { status: e.status, headers: e.headers, json: e.body() };
  console.error('[emulator] internal error', e);
  return { status: 500, json: { code: 'INTERNAL_ERROR', message: 'internal error in the register emulator' } };
}

/** Everything a /v1 route does after routing: auth, quota, body, handler. Never throws. */
async function processCall(
  deps: ServerDeps,
  route: RouteDef,
  params: Record<string, string>,
  req: IncomingMessage,
  query: URLSearchParams,
  bodyText: string,
  now: Date,
  who: { caller?: Caller },
): Promise<Reply> {
  const { env } = deps;
  try {
    if (route.name === 'openapi') return { status: 200, json: openApiDocument(deps.baseUrl()) };
    if (route.name === 'token') {
      who.caller = basicCaller(req.headers);
      return issueToken(env, req.headers, query, now);
    }
    const caller = bearerCaller(env, req.headers, now);
    who.caller = caller;
    if (!env.store.takeQuota(caller.organisation, now, env.options.dailyQuota)) {
      throw new ApiError(
        429,
        'TOO_MANY_REQUESTS',
        `the daily quota of ${env.options.dailyQuota} calls of your organisation is used up until London midnight`,
        undefined,
        {
          'Retry-After': String(secondsUntilLondonMidnight(now)),
        },
      );
    }
    let body: unknown;
    if (route.body && bodyText.trim() !== '') {
      try {
        body = JSON.parse(bodyText);
      } catch {
        throw new ApiError(400, 'INVALID_REQUEST', 'body: must be valid JSON', 'body');
      }
    }
    const handler = HANDLERS[route.name as keyof typeof HANDLERS];
    return await handler({ env, route, params, query, body, headers: req.headers, caller, now });
  } catch (e) {
    return errorReply(e);
  }
}

export function createEmulatorServer(deps: ServerDeps): { server: Server; sockets: Set<Socket> } {
  const { env, faults } = deps;
  const sockets = new Set<Socket>();

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const now = env.now();
    // The register's own clock, as a real server's Date header gives it: clients read the
    // register day from it (charges and document expiry follow that day, not theirs).
    res.setHeader('Date', now.toUTCString());
    const url = new URL(req.url ?? '/', 'http://emulator.invalid');
    const method = req.method ?? 'GET';
    const path = url.pathname;
    let bodyText = '';
    let bodyError: unknown;
    try {
      bodyText = await readBody(req);
    } catch (e) {
      bodyError = e;
    }
    if (path.startsWith('/__control/')) return deps.control(req, res, path, bodyText);

    const record = (route: string, status: number, caller?: Caller) =>
      env.store.record({ route, method, path, status, ...(caller ? { clientId: caller.clientId } : {}), at: now });
    const finish = async (routeName: string, reply: Reply, caller?: Caller) => {
      if (env.options.latencyMs > 0) await sleep(env.options.latencyMs);
      const wire = toWire(reply);
      record(routeName, wire.status, caller);
      await writeWire(res, wire);
    };

    let match: ReturnType<typeof matchRoute>;
    try {
      match = path.startsWith('/v1/') ? matchRoute(method, path.slice(3)) : { route: undefined, pathMatched: false };
    } catch {
      return finish('unknown', errorReply(new ApiError(400, 'INVALID_REQUEST', 'path: malformed percent-encoding', 'path')));
    }
    if (!match.route) {
      const err = match.pathMatched
        ? new ApiError(405, 'METHOD_NOT_ALLOWED', `${method} is not allowed on ${path}`)
        : new ApiError(404, 'NOT_FOUND', `no register route ${method} ${path}`);
      return finish('unknown', errorReply(err));
    }
    const route = match.route;
    const fault = faults.take(route.name);
    const who: { caller?: Caller } = {};

    if (fault && (fault.phase ?? 'before') === 'before' && fault.kind !== 'drip') {
      if (env.options.latencyMs > 0) await sleep(env.options.latencyMs);
      record(route.name, faultStatus(fault), basicCaller(req.headers) ?? tryBearer(req, now));
      return applyFault(fault, res, route.name, undefined);
    }

    const reply = bodyError
      ? errorReply(bodyError)
      : await processCall(deps, route, match.params, req, url.searchParams, bodyText, now, who);
    if (!fault) return finish(route.name, reply, who.caller);

    if (env.options.latencyMs > 0) await sleep(env.options.latencyMs);
    const wire = toWire(reply);
    record(route.name, faultStatus(fault, wire), who.caller);
    return applyFault(fault, res, route.name, wire);
  };

  const tryBearer = (req: IncomingMessage, now: Date): Caller | undefined => {
    try {
      return bearerCaller(env, req.headers, now);
    } catch {
      return undefined;
    }
  };

  const server = createServer({ keepAliveTimeout: 5_000 }, (req, res) => {
    handle(req, res).catch((e) => {
      console.error('[emulator] request failed', e);
      if (!res.headersSent && !res.destroyed) res.writeHead(500).end();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.on('clientError', (_err, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n');
    else socket.destroy();
  });
  return { server, sockets };
}
