/**
 * Optional OpenTelemetry tracing of register calls, through @opentelemetry/api only: one CLIENT
 * span per HTTP attempt to the register (route, method, status, attempt, outcome), child of
 * whatever span is active in the request (e.g. an auto-instrumented HTTP server span).
 *
 * titlegraph ships no SDK and no exporter: with no SDK registered the API is a no-op. To export,
 * preload an SDK that reads the standard OTEL_* variables, e.g.
 * `NODE_OPTIONS="--import @opentelemetry/auto-instrumentations-node/register"`.
 */
import { SpanKind, SpanStatusCode, trace, type Tracer } from '@opentelemetry/api';
import type { EventHub } from '../services/events';

export const TRACER_NAME = 'titlegraph';

/** Subscribes to register calls and records a span for each; returns the unsubscribe function. */
export function traceRegisterCalls(events: EventHub, tracer: Tracer = trace.getTracer(TRACER_NAME)): () => void {
  return events.on('registerCall', (call) => {
    // The event comes when the attempt has ended: the span is back-dated to its start.
    const end = Date.now();
    const span = tracer.startSpan(`register ${call.route}`, {
      kind: SpanKind.CLIENT,
      startTime: end - call.durationMs,
      attributes: {
        'http.request.method': call.method,
        'titlegraph.register.route': call.route,
        'titlegraph.register.attempt': call.attempt,
        'titlegraph.register.outcome': call.outcome,
        ...(call.status ? { 'http.response.status_code': call.status } : {}),
      },
    });
    if (call.outcome !== 'ok') span.setStatus({ code: SpanStatusCode.ERROR, message: call.outcome });
    span.end(end);
  });
}
