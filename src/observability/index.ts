/** Health, readiness, Prometheus metrics and optional tracing, as yoga plugins for createApp. */
import type { Plugin } from 'graphql-yoga';
import type { Services } from '../services/create-services';
import type { RegisterTransport } from '../register/client';
import type { ReadinessOptions } from './health';
import type { MetricsOptions } from './metrics';
import { traceRegisterCalls, useOperationSpans } from './tracing';

export { useReadiness } from './health';
export { useMetrics } from './metrics';

export interface ObservabilityOptions {
  /** GET /metrics (Prometheus). Default on. */
  metrics?: boolean | MetricsOptions;
  /** GET /ready: probes the register. On whenever the services carry their register transport. */
  readiness?: ReadinessOptions;
  /** OpenTelemetry: the request's span named after its operation, an execute span, a span per register call (needs an SDK registered to export). Default off. */
  tracing?: boolean;
}

/** The request's span named after its operation, an execute span, and a span per register call. */
export function useTracing(services: Pick<Services, 'events'> & { transport?: RegisterTransport }): Plugin {
  if (services.transport) traceRegisterCalls(services.transport, services.events);
  return useOperationSpans();
}
