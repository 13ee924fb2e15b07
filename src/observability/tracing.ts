/**
 * Optional OpenTelemetry tracing, through @opentelemetry/api only (OTEL_ENABLED=true):
 * - the request's span (the HTTP server span an instrumentation made) is named after the
 *   GraphQL operation and carries `graphql.operation.name` and `graphql.operation.type`;
 * - a `graphql.execute` span covers execution, on graphql-js's executor and on compiled queries;
 * - one CLIENT span per register call, active around the call and all its attempts, so the HTTP
 *   client's own spans (undici's instrumentation) nest under it; each attempt is an event on it.
 * Nothing sent to the register (URL, token, FAS) becomes an attribute, and the request's span
 * keeps no query value (a GraphQL GET's variables, a download link's signature): see
 * `redactRequestUrl`. The HTTP client's spans are the instrumentation's to redact
 * (examples/observability/instrumentations.mjs).
 *
 * titlegraph ships no SDK and no exporter: with no SDK registered the API is a no-op. To export,
 * preload one that reads the standard OTEL_* variables (README, Observability).
 */
import { context, SpanKind, SpanStatusCode, trace, type Span, type Tracer } from '@opentelemetry/api';
import type { Plugin } from 'graphql-yoga';
import type { RegisterTransport } from '../register/client';
import type { EventHub } from '../services/events';
import { requestRecordOf } from './request-record';

export const TRACER_NAME = 'titlegraph';

/** One span per register call, made active around it; its attempts are recorded on it. Returns the undo. */
export function traceRegisterCalls(
  transport: RegisterTransport,
  events: EventHub,
  tracer: Tracer = trace.getTracer(TRACER_NAME),
): () => void {
  const callSpans = new WeakSet<Span>();
  transport.wrapCalls((call, run) =>
    tracer.startActiveSpan(
      `register ${call.route}`,
      { kind: SpanKind.CLIENT, attributes: { 'http.request.method': call.method, 'titlegraph.register.route': call.route } },
      async (span) => {
        callSpans.add(span);
        try {
          return await run();
        } catch (error) {
          span.setStatus({ code: SpanStatusCode.ERROR, message: String((error as { code?: unknown }).code ?? 'error') });
          throw error;
        } finally {
          span.end();
        }
      },
    ),
  );
  // An attempt's event is emitted inside its call, where the call's span is the active one.
  const off = events.on('registerCall', (attempt) => {
    const span = trace.getActiveSpan();
    if (!span || !callSpans.has(span)) return;
    const attributes = {
      'titlegraph.register.attempt': attempt.attempt,
      'titlegraph.register.outcome': attempt.outcome,
      ...(attempt.status ? { 'http.response.status_code': attempt.status } : {}),
    };
    span.addEvent('attempt', attributes);
    span.setAttributes(attributes);
  });
  return () => {
    transport.wrapCalls(undefined);
    off();
  };
}

/**
 * Names the request's span after the operation and opens a `graphql.execute` span around
 * execution (Yoga's instrumentation hook wraps both executors and the onExecute hooks).
 */
export function useOperationSpans(tracer: Tracer = trace.getTracer(TRACER_NAME)): Plugin {
  return {
    instrumentation: {
      execute: (_payload, wrapped) => {
        const span = tracer.startSpan('graphql.execute', { kind: SpanKind.INTERNAL });
        return context.with(trace.setSpan(context.active(), span), async () => {
          try {
            await wrapped();
          } finally {
            span.end();
          }
        });
      },
    },
    onExecute({ args }) {
      const request = (args.contextValue as { request?: Request }).request;
      const record = request && requestRecordOf(request);
      const type = record?.operation?.type ?? 'query';
      const name = record?.operation?.name ?? record?.operationName;
      const attributes = { 'graphql.operation.type': type, ...(name ? { 'graphql.operation.name': name } : {}) };
      // Inside the instrumentation above: the active span is graphql.execute, its parent the request's.
      trace.getActiveSpan()?.setAttributes(attributes);
      const requestSpan = requestSpans.get(args.contextValue as object);
      requestSpan?.updateName(name ? `${type} ${name}` : type);
      requestSpan?.setAttributes(attributes);
    },
    onRequest() {
      const active = trace.getActiveSpan();
      if (active) redactRequestUrl(active);
    },
    onContextBuilding({ context: yogaContext }) {
      // The span active while Yoga builds the context is the request's (e.g. the HTTP server span).
      const active = trace.getActiveSpan();
      if (active) requestSpans.set(yogaContext as object, active);
    },
  };
}

const requestSpans = new WeakMap<object, Span>();

/** The URL attributes of HTTP spans, in the stable conventions and the older ones. */
const URL_ATTRIBUTES = ['url.query', 'url.full', 'http.target', 'http.url'] as const;

/**
 * Rewrites the query values in the request span's URL attributes to `REDACTED`, whatever
 * instrumentation made the span and however it was configured. Only an SDK's span shows its
 * attributes (`ReadableSpan.attributes`); another is left as it is.
 */
function redactRequestUrl(span: Span): void {
  const attributes = (span as { attributes?: Readonly<Record<string, unknown>> }).attributes;
  if (!attributes) return;
  for (const key of URL_ATTRIBUTES) {
    const value = attributes[key];
    if (typeof value !== 'string') continue;
    // url.query is the query alone (with or without its `?`); the others are URLs or paths.
    const at = key === 'url.query' && !value.startsWith('?') ? 0 : value.indexOf('?') + 1;
    if (at === 0 && key !== 'url.query') continue;
    const names = [...new URLSearchParams(value.slice(at)).keys()];
    if (names.length > 0)
      span.setAttribute(key, value.slice(0, at) + names.map((name) => `${encodeURIComponent(name)}=REDACTED`).join('&'));
  }
}
