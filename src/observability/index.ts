/** Health, readiness, Prometheus metrics and optional tracing, as yoga plugins for createApp. */
import type { Plugin } from 'graphql-yoga';
import type { Services } from '../services/create-services';
import type { RegisterTransport } from '../register/client';
import { traceRegisterCalls, useOperationSpans } from './tracing';

export { useReadiness } from './health';
export { useMetrics } from './metrics';

/** The request's span named after its operation, an execute span, and a span per register call. */
export function useTracing(services: Pick<Services, 'events'> & { transport?: RegisterTransport }): Plugin {
  if (services.transport) traceRegisterCalls(services.transport, services.events);
  return useOperationSpans();
}
