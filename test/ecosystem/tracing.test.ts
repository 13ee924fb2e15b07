/**
 * Optional OpenTelemetry spans (through @opentelemetry/api; the SDK only in the tests), in
 * process. test/ecosystem/otel-sdk.test.ts runs the service under the Node SDK with an OTLP receiver.
 */
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { postGraphQL, startHttpService, type HttpService } from './helpers';

const exporter = new InMemorySpanExporter();
let traced: HttpService;
let untraced: HttpService;

beforeAll(async () => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  trace.setGlobalTracerProvider(new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] }));
  traced = await startHttpService({ app: { observability: { tracing: true } } });
  untraced = await startHttpService();
});
afterAll(async () => {
  await traced?.stop();
  await untraced?.stop();
  trace.disable();
  context.disable();
});

describe('tracing of register calls', () => {
  test('one CLIENT span per register call, with route, method, status and outcome, under the execute span', async () => {
    exporter.reset();
    const result = await postGraphQL(traced.url, { query: '{ title(titleNumber: "MID15313") { titleNumber } }' });
    expect(result.body.errors).toBeUndefined();
    const spans = exporter.getFinishedSpans();
    const summary = spans.find((s) => s.name === 'register titleSummary');
    expect(spans.map((s) => s.name)).toContain('register token');
    expect(summary).toBeDefined();
    expect(summary!.kind).toBe(SpanKind.CLIENT);
    expect(summary!.attributes).toMatchObject({
      'http.request.method': 'GET',
      'http.response.status_code': 200,
      'titlegraph.register.route': 'titleSummary',
      'titlegraph.register.outcome': 'ok',
      'titlegraph.register.attempt': 1,
    });
    expect(summary!.status.code).toBe(SpanStatusCode.UNSET);
    expect(summary!.events.map((e) => e.name)).toEqual(['attempt']);
    // The call runs inside the operation's execution.
    const execute = spans.find((s) => s.name === 'graphql.execute')!;
    expect(execute.attributes).toMatchObject({ 'graphql.operation.type': 'query' });
    expect(summary!.parentSpanContext?.spanId).toBe(execute.spanContext().spanId);
    expect(summary!.endTime[0] * 1e3 + summary!.endTime[1] / 1e6).toBeGreaterThanOrEqual(
      summary!.startTime[0] * 1e3 + summary!.startTime[1] / 1e6,
    );
  });

  test('a failed attempt is an ERROR span; no URL, token or FAS in attributes', async () => {
    exporter.reset();
    traced.emulator.faults.inject('titleDetails', { kind: 'status', status: 500 }, 3);
    await postGraphQL(traced.url, {
      query:
        'mutation { purchaseTitleDetails(fas: "0877", input: { titleNumber: "MID15313", idempotencyKey: "trace-1" }) { userErrors { code } } }',
    });
    const failed = exporter.getFinishedSpans().filter((s) => s.name === 'register titleDetails');
    expect(failed.length).toBeGreaterThanOrEqual(1);
    expect(failed[0]!.status.code).toBe(SpanStatusCode.ERROR);
    expect(failed[0]!.attributes['http.response.status_code']).toBe(500);
    expect(JSON.stringify(failed.map((s) => s.attributes))).not.toMatch(/0877|http:\/\/|Bearer/);
  });

  test('off by default: no spans', async () => {
    exporter.reset();
    await postGraphQL(untraced.url, { query: '{ title(titleNumber: "MID15313") { titleNumber } }' });
    expect(exporter.getFinishedSpans().filter((s) => s.name.startsWith('register '))).toEqual([]);
  });
});
