/** Health, readiness, Prometheus metrics and optional tracing, as yoga plugins for createApp. */
import type { Plugin } from 'graphql-yoga';
import type { Services } from '../services/create-services';
import type { RegisterTransport } from '../register/client';
import { ReadinessProbe, type ReadinessOptions } from './health';
import { ServiceMetrics, type MetricsOptions } from './metrics';
import { traceRegisterCalls, useOperationSpans } from './tracing';

export { ReadinessProbe, ServiceMetrics, traceRegisterCalls };

export interface ObservabilityOptions {
  /** GET /metrics (Prometheus). Default on. */
  metrics?: boolean | MetricsOptions;
  /** GET /ready: probes the register. On whenever the services carry their register transport. */
  readiness?: ReadinessOptions;
  /** OpenTelemetry: the request's span named after its operation, an execute span, a span per register call (needs an SDK registered to export). Default off. */
  tracing?: boolean;
}

export function useObservability(services: Services & { transport?: RegisterTransport }, options: ObservabilityOptions = {}): Plugin[] {
  const plugins: Plugin[] = [];
  if (options.metrics !== false) {
    const metricsOptions = typeof options.metrics === 'object' ? options.metrics : {};
    plugins.push(new ServiceMetrics(services, services.transport, metricsOptions).plugin());
  }
  if (services.transport) {
    const ping = services.idempotency.ping?.bind(services.idempotency);
    plugins.push(new ReadinessProbe(services.transport, options.readiness, ping, services.downloadLinks).plugin());
  }
  if (options.tracing) {
    plugins.push(useOperationSpans());
    if (services.transport) traceRegisterCalls(services.transport, services.events);
  }
  return plugins;
}
