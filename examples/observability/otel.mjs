/**
 * OpenTelemetry for titlegraph: the Node SDK with the HTTP server and undici (HTTP client)
 * instrumentations, exporting as the standard OTEL_* variables say (OTLP by default).
 *   OTEL_ENABLED=true OTEL_SERVICE_NAME=titlegraph OTEL_EXPORTER_OTLP_ENDPOINT=http://otel-collector:4318 \
 *     node --import ./examples/observability/otel.mjs --import tsx src/start.ts
 * (or `node --import ./examples/observability/otel.mjs dist/start.js` for the compiled build).
 * Needs @opentelemetry/sdk-node, @opentelemetry/instrumentation-http and
 * @opentelemetry/instrumentation-undici installed beside titlegraph.
 * The instrumentations (instrumentations.mjs, beside this file) redact every URL's query string:
 * the register's carry FAS numbers and matter references.
 * test/observability/otel-sdk.test.ts starts the service with this file and an OTLP/HTTP receiver.
 */
import { NodeSDK } from '@opentelemetry/sdk-node';
import { instrumentations } from './instrumentations.mjs';

const sdk = new NodeSDK({ instrumentations: instrumentations() });
sdk.start();
