/**
 * Structured JSON logs (pino) built from an allow-list: every record is assembled here from
 * named, harmless fields (ids, routes, statuses, durations, codes). Nothing a caller sent is
 * logged as-is: no headers, variables, query text, tokens, API keys, FAS numbers, idempotency
 * keys or personal data.
 */
import { randomUUID } from 'node:crypto';
import type { DefinitionNode, DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import pino, { type DestinationStream, type Logger } from 'pino';
import type { EventHub } from '../services/events';

export type { Logger };

export function createLogger(options: { level?: string; destination?: DestinationStream } = {}): Logger {
  return pino(
    {
      level: options.level ?? 'info',
      base: { service: 'titlegraph' },
      timestamp: pino.stdTimeFunctions.isoTime,
      // A last line of defence; the records themselves never carry these.
      redact: { paths: ['authorization', 'headers', 'variables', 'fas', 'idempotencyKey'], censor: '[redacted]' },
    },
    options.destination,
  );
}

const requestIds = new WeakMap<Request, string>();
const REQUEST_ID = /^[A-Za-z0-9._-]{1,100}$/;

/** The request's id: the caller's X-Request-Id when it is a plain token, else a new UUID. */
export function requestIdOf(request: Request): string {
  let id = requestIds.get(request);
  if (!id) {
    const given = request.headers.get('x-request-id');
    id = given && REQUEST_ID.test(given) ? given : randomUUID();
    requestIds.set(request, id);
  }
  return id;
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/** One line per HTTP request: id, method, path (no query string), status, duration, operation. */
export function useRequestLogging(logger: Logger): Plugin {
  const started = new WeakMap<Request, number>();
  const operations = new WeakMap<Request, { name?: string; type?: string }>();
  return {
    onRequest({ request }) {
      started.set(request, performance.now());
      requestIdOf(request);
    },
    onParams({ params, request }) {
      if (params.operationName && /^[A-Za-z_][A-Za-z0-9_]{0,100}$/.test(params.operationName)) {
        operations.set(request, { name: params.operationName });
      }
    },
    onExecute({ args }) {
      const request = (args.contextValue as { request?: Request }).request;
      const operation = (args.document as DocumentNode).definitions.find((d: DefinitionNode) => d.kind === 'OperationDefinition');
      if (request && operation && operation.kind === 'OperationDefinition') {
        operations.set(request, {
          ...operations.get(request),
          type: operation.operation,
          ...(operation.name ? { name: operation.name.value } : {}),
        });
      }
    },
    onResponse({ request, response }) {
      const id = requestIdOf(request);
      response.headers.set('x-request-id', id);
      const operation = operations.get(request);
      logger.info(
        {
          requestId: id,
          method: request.method,
          path: new URL(request.url).pathname,
          status: response.status,
          durationMs: round(performance.now() - (started.get(request) ?? performance.now())),
          ...(operation?.name ? { operationName: operation.name } : {}),
          ...(operation?.type ? { operationType: operation.type } : {}),
        },
        'request',
      );
    },
  };
}

/** One line per register call and per idempotency decision, from the service events. */
export function logServiceEvents(events: EventHub, logger: Logger): void {
  events.on('registerCall', (call) => {
    logger.info(
      {
        ...(call.requestId ? { requestId: call.requestId } : {}),
        route: call.route,
        method: call.method,
        status: call.status,
        outcome: call.outcome,
        attempt: call.attempt,
        durationMs: round(call.durationMs),
      },
      'register call',
    );
  });
  events.on('idempotency', (e) => {
    if (e.outcome !== 'executed') logger.info({ operation: e.operation, outcome: e.outcome }, 'idempotency');
  });
  events.on('charges', (e) => {
    for (const charge of e.charges) logger.info({ operation: e.operation, productType: charge.productType, fee: charge.fee }, 'charge');
  });
}

/** Yoga's own log lines (e.g. unexpected errors) as pino records: the error's name and stack, never request data. */
export function yogaLogger(logger: Logger) {
  const describe = (args: unknown[]) =>
    args.map((a) => (a instanceof Error ? { name: a.name, message: a.message, stack: a.stack } : typeof a === 'string' ? a : typeof a));
  return {
    debug: (...args: unknown[]) => logger.debug({ yoga: describe(args) }),
    info: (...args: unknown[]) => logger.info({ yoga: describe(args) }),
    warn: (...args: unknown[]) => logger.warn({ yoga: describe(args) }),
    error: (...args: unknown[]) => logger.error({ yoga: describe(args) }),
  };
}
