/** Observability's settings: a leaf without imports, so that reading the settings loads no exporter. */

/** How long /ready waits for the register before it says "not ready" (READY_TIMEOUT_MS). */
export const DEFAULT_READY_TIMEOUT_MS = 2_000;
