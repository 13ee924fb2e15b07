/**
 * The HTTP server and undici (HTTP client) instrumentations of the recipe (otel.mjs), configured
 * so that no URL's query string reaches the trace backend. The register's URLs carry the FAS
 * number and the client's matter reference (`?fas=0877&reference=Smith+to+Jones`), a download
 * link carries its signature, and a GraphQL GET carries its variables: every query value becomes
 * `REDACTED` (the names stay, to show what was sent). No path of titlegraph or of the register
 * holds a secret (title numbers, document and case ids), so paths are kept.
 * Headers are not recorded (neither instrumentation records any unless told to), so neither an
 * API key nor a register token is. test/observability/telemetry-privacy.test.ts proves it.
 */
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';

/** `a=1&b=2` → `a=REDACTED&b=REDACTED`; a leading `?` stays as it was. */
export function redactQuery(query) {
  const mark = query.startsWith('?') ? '?' : '';
  const names = [...new URLSearchParams(query).keys()];
  return mark + names.map((name) => `${encodeURIComponent(name)}=REDACTED`).join('&');
}

/** The URL with its query's values redacted (and no user or password). */
export function redactUrl(url) {
  const parsed = new URL(url);
  const query = parsed.search ? redactQuery(parsed.search) : '';
  return `${parsed.protocol}//${parsed.host}${parsed.pathname}${query}`;
}

export function instrumentations() {
  return [
    new HttpInstrumentation({
      // The server side: its span's url.query is the request's query string (hook attributes
      // replace the instrumentation's own).
      startIncomingSpanHook: (request) => {
        const at = request.url?.indexOf('?') ?? -1;
        return at < 0 ? {} : { 'url.query': redactQuery(request.url.slice(at + 1)) };
      },
      // titlegraph calls out with undici only (the register client and fetch), traced below; a
      // node:http client span would carry an unredacted url.full.
      disableOutgoingRequestInstrumentation: true,
    }),
    new UndiciInstrumentation({
      startSpanHook: (request) => {
        const url = new URL(request.path, request.origin);
        return { 'url.full': redactUrl(url), 'url.query': url.search ? redactQuery(url.search) : '' };
      },
    }),
  ];
}
