/**
 * Optional OpenTelemetry spans (through @opentelemetry/api; the SDK only in the tests), in
 * process. test/observability/otel-sdk.test.ts runs the service under the Node SDK with an OTLP receiver.
 */
import { createRequire } from 'node:module';
import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { HttpInstrumentation } from '@opentelemetry/instrumentation-http';
import { UndiciInstrumentation } from '@opentelemetry/instrumentation-undici';
import { InMemorySpanExporter, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startHttpService, type HttpService } from '../support/harness';
import { postRaw } from '../support/post-raw';
import { mentioning } from '../support/mentions';

const exporter = new InMemorySpanExporter();
let traced: HttpService;
let untraced: HttpService;
/** Traced, with short register timeouts so that a hang ends quickly. */
let faulty: HttpService;
let instrumented: (HttpInstrumentation | UndiciInstrumentation)[] = [];

beforeAll(async () => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  trace.setGlobalTracerProvider(provider);
  // The instrumentations as they come, without the recipe's redacting hooks.
  instrumented = [new HttpInstrumentation(), new UndiciInstrumentation()];
  for (const instrumentation of instrumented) instrumentation.setTracerProvider(provider);
  createRequire(import.meta.url)('node:http'); // loaded before: requiring it again applies the patch
  traced = await startHttpService({ app: { observability: { tracing: true } } });
  untraced = await startHttpService();
  faulty = await startHttpService({
    app: { observability: { tracing: true } },
    services: { transport: { timeouts: { headersMs: 500, deadlineMs: 1_000 } } },
  });
});
afterAll(async () => {
  await traced?.stop();
  await untraced?.stop();
  await faulty?.stop();
  for (const instrumentation of instrumented) instrumentation.disable();
  trace.disable();
  context.disable();
});

describe('tracing of register calls', () => {
  test('one CLIENT span per register call, with route, method, status and outcome, under the execute span', async () => {
    exporter.reset();
    const result = await postRaw(traced.url, { query: '{ title(titleNumber: "MID15313") { titleNumber } }' });
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
    await postRaw(traced.url, {
      query:
        'mutation { purchaseTitleDetails(fas: "0877", input: { titleNumber: "MID15313", idempotencyKey: "trace-1" }) { userErrors { code } } }',
    });
    const failed = exporter.getFinishedSpans().filter((s) => s.name === 'register titleDetails');
    expect(failed.length).toBeGreaterThanOrEqual(1);
    expect(failed[0]!.status.code).toBe(SpanStatusCode.ERROR);
    expect(failed[0]!.attributes['http.response.status_code']).toBe(500);
    expect(JSON.stringify(failed.map((s) => s.attributes))).not.toMatch(mentioning('0877'));
    expect(JSON.stringify(failed.map((s) => s.attributes))).not.toMatch(/http:\/\/|Bearer/);
  });

  test("the request's span keeps no query value, whatever instrumentation made it; the client's spans are the instrumentation's to redact", async () => {
    exporter.reset();
    const read = new URL(traced.url);
    read.searchParams.set(
      'query',
      'query Quote($fas: FasNumber!) { chargeQuote(fas: $fas, titleNumber: "MID15313", products: [PENDING_APPLICATIONS]) { expectedTotal } }',
    );
    read.searchParams.set('variables', JSON.stringify({ fas: '0877' }));
    const response = await fetch(read, { headers: { authorization: 'Bearer dev-key-a', 'x-graphql-yoga-csrf': '1' } });
    expect(response.status).toBe(200);
    await postRaw(traced.url, {
      query:
        'mutation { purchaseTitleDetails(fas: "0877", input: { titleNumber: "MID15313", reference: "Smith to Jones", idempotencyKey: "trace-private" }) { userErrors { code } } }',
    });
    const spans = exporter.getFinishedSpans();
    const ours = spans.filter(
      (s) =>
        (s.kind === SpanKind.SERVER && s.attributes['server.port'] === Number(new URL(traced.origin).port)) ||
        s.name.startsWith('register ') ||
        s.name === 'graphql.execute',
    );
    expect(ours.map((s) => s.attributes['url.query'])).toContain('query=REDACTED&variables=REDACTED');
    expect(ours.map((s) => s.name)).toEqual(expect.arrayContaining(['query Quote', 'register titleDetails']));
    expect(JSON.stringify(ours.map((s) => [s.name, s.attributes, s.events.map((e) => [e.name, e.attributes])]))).not.toMatch(
      mentioning('0877', 'Smith', 'dev-key-a'),
    );
    // undici's span, unconfigured, sends the register's query as it is: examples/observability/
    // instrumentations.mjs redacts it (test/observability/telemetry-privacy.test.ts).
    const undici = spans.filter((s) => String(s.attributes['url.full'] ?? '').includes('/v1/titles/MID15313/details'));
    expect(undici.map((s) => s.attributes['url.query'])).toContain('?fas=0877&reference=Smith+to+Jones');
  });

  // The call's span wraps the whole call, so a purchase runs inside it: it must still never be
  // sent twice, and a lost answer must stay charged once and unknown.
  test.each([
    // A 5xx of a call that charges may have been charged: unknown, never re-sent.
    ['a 503 before anything happens', { kind: 'status', status: 503, phase: 'before' }, 0, 'OUTCOME_UNKNOWN', 'BLK4001'],
    ['a hang before anything happens', { kind: 'hang', phase: 'before' }, 0, 'OUTCOME_UNKNOWN', 'BLK4002'],
    ['a reset after the charge', { kind: 'reset', phase: 'after' }, 1, 'OUTCOME_UNKNOWN', 'BLK4003'],
    ['a malformed answer after the charge', { kind: 'malformed', phase: 'after' }, 1, 'OUTCOME_UNKNOWN', 'BLK4004'],
    ['a 500 after the charge', { kind: 'status', status: 500, phase: 'after' }, 1, 'OUTCOME_UNKNOWN', 'BLK4005'],
  ] as const)('traced, a purchase with %s is sent once; the ledger gains %s charge(s)', async (_, fault, charged, code, title) => {
    faulty.emulator.calls.reset();
    const ledgerBefore = faulty.emulator.ledger.count();
    exporter.reset();
    faulty.emulator.faults.inject('titleDetails', fault as never, 1);
    const key = `trace-fault-${fault.kind}-${fault.phase}-${'status' in fault ? fault.status : ''}`;
    const result = await postRaw(faulty.url, {
      query: `mutation { purchaseTitleDetails(fas: "0877", input: { titleNumber: "${title}", idempotencyKey: "${key}" }) { charges { fee } userErrors { code } } }`,
    });
    faulty.emulator.faults.clear();
    const codes = [
      ...(result.body.data?.purchaseTitleDetails?.userErrors ?? []).map((e: { code: string }) => e.code),
      ...(result.body.errors ?? []).map((e) => e.extensions?.code),
    ];
    expect(codes).toContain(code);
    expect(faulty.emulator.calls.count({ route: 'titleDetails' })).toBe(1);
    expect(faulty.emulator.ledger.count() - ledgerBefore).toBe(charged);
    const spans = exporter.getFinishedSpans().filter((s) => s.name === 'register titleDetails');
    expect(spans).toHaveLength(1);
    expect(spans[0]!.status.code).toBe(SpanStatusCode.ERROR);
  });

  test('off by default: no spans', async () => {
    exporter.reset();
    await postRaw(untraced.url, { query: '{ title(titleNumber: "MID15313") { titleNumber } }' });
    expect(exporter.getFinishedSpans().filter((s) => s.name.startsWith('register '))).toEqual([]);
  });
});
