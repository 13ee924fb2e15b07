/**
 * Observability's settings: their shapes and defaults. A leaf without imports, so that reading
 * the settings loads no exporter.
 */

/** How long /ready waits for the register before it says "not ready" (READY_TIMEOUT_MS). */
export const DEFAULT_READY_TIMEOUT_MS = 2_000;

export interface ReadinessOptions {
  /** Path of the readiness endpoint, default /ready. */
  path?: string;
  /** Timeout of the register probe, default DEFAULT_READY_TIMEOUT_MS. */
  timeoutMs?: number;
  /** How long a probe result is reused, default 1000 ms. */
  cacheMs?: number;
}

export interface MetricsOptions {
  /** Also collect prom-client's process metrics (CPU, memory, event loop, GC). Default false. */
  defaultMetrics?: boolean;
  /** Path of the scrape endpoint, default /metrics. */
  path?: string;
  /** Most distinct operation-name label values kept; later new names count as `__other`. Default DEFAULT_MAX_OPERATION_NAMES (metrics.ts). */
  maxOperationNames?: number;
  /** Most of those places one organisation's callers may take. Default a quarter of maxOperationNames. */
  maxOperationNamesPerOrganisation?: number;
}

/** What createApp is given of observability (AppOptions' `observability`). */
export interface ObservabilityOptions {
  /** GET /metrics (Prometheus). Default on. */
  metrics?: boolean | MetricsOptions;
  /** GET /ready: probes the register. On whenever the services carry their register transport. */
  readiness?: ReadinessOptions;
  /** OpenTelemetry: the request's span named after its operation, an execute span, a span per register call (needs an SDK registered to export). Default off. */
  tracing?: boolean;
}
