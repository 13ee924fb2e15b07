/**
 * The README's OpenTelemetry recipe sends nothing private to the trace backend: with its
 * instrumentations (examples/observability/instrumentations.mjs) registered in process and every
 * span exported to memory, a purchase with a matter reference, a title read over GET with a FAS in
 * its variables, and a download through a signed link leave no FAS number, reference, API key,
 * register credential or token, or link signature in any span's name, attribute, event or status.
 * (test/observability/tracing.test.ts shows what the same spans carry without the recipe's hooks.)
 */
import diagnostics from 'node:diagnostics_channel';
import { createRequire } from 'node:module';
import { context, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { InMemorySpanExporter, type ReadableSpan, SimpleSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import { print } from 'graphql';
import { afterAll, beforeAll, expect, test } from 'vitest';
// @ts-expect-error the recipe is plain JavaScript, as `node --import` loads it
import { instrumentations } from '../../examples/observability/instrumentations.mjs';
import { OrderTitleDocumentMutation } from '../support/documents';
import { newKey } from '../support/harness';
import { startHttpService, type HttpService } from '../support/harness';
import { postRaw } from '../support/post-raw';

const exporter = new InMemorySpanExporter();
let svc: HttpService;
let instrumented: { setTracerProvider(provider: TracerProvider): void; disable(): void }[] = [];
/** The Authorization headers titlegraph sent the register (Basic credentials, Bearer tokens). */
const registerAuthorizations = new Set<string>();
const onRequestCreated = (message: unknown) => {
  const { request } = message as { request: { headers: string[] | string } };
  const headers = Array.isArray(request.headers) ? request.headers : request.headers.split('\r\n').flatMap((l) => l.split(': '));
  for (let i = 0; i < headers.length - 1; i++)
    if (headers[i]!.toLowerCase() === 'authorization') registerAuthorizations.add(headers[i + 1]!);
};

beforeAll(async () => {
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const provider = new TracerProvider({ spanProcessors: [new SimpleSpanProcessor({ exporter })] });
  trace.setGlobalTracerProvider(provider);
  instrumented = instrumentations();
  for (const instrumentation of instrumented) instrumentation.setTracerProvider(provider);
  // node:http was loaded before the instrumentation: requiring it again applies the patch, as
  // `--import` before the service does in production.
  createRequire(import.meta.url)('node:http');
  diagnostics.subscribe('undici:request:create', onRequestCreated);
  svc = await startHttpService({
    app: { observability: { tracing: true } },
    services: { downloadLinkSecret: 'a-test-signing-key-of-at-least-32-characters' },
  });
});
afterAll(async () => {
  diagnostics.unsubscribe('undici:request:create', onRequestCreated);
  await svc?.stop();
  for (const instrumentation of instrumented) instrumentation.disable();
  trace.disable();
  context.disable();
});

/** Every string a span carries: its name, attributes, events' names and attributes, status message. */
function spanText(span: ReadableSpan): string {
  return JSON.stringify([span.name, span.attributes, span.events.map((e) => [e.name, e.attributes]), span.status.message ?? '']);
}

const urlOf = (span: ReadableSpan) =>
  `${span.attributes['url.full'] ?? ''} ${span.attributes['url.path'] ?? ''}?${span.attributes['url.query'] ?? ''}`;

test('a purchase with a reference, a title read over GET and a download: no FAS, reference, key, token or signature in any span', async () => {
  exporter.reset();
  registerAuthorizations.clear();
  const purchase = await postRaw(svc.url, {
    query:
      'mutation { purchaseTitleDetails(fas: "0877", input: { titleNumber: "MID15313", reference: "Smith to Jones, 12 Elm Row", idempotencyKey: "privacy-1" }) { charges { fee } userErrors { code } } }',
  });
  expect(purchase.body.errors).toBeUndefined();
  expect(purchase.body.data.purchaseTitleDetails.userErrors).toEqual([]);

  const read = new URL(svc.url);
  read.searchParams.set(
    'query',
    'query Read($n: TitleNumber!, $fas: FasNumber!) { title(titleNumber: $n) { titleNumber } chargeQuote(fas: $fas, titleNumber: $n, products: [PENDING_APPLICATIONS]) { expectedTotal } }',
  );
  read.searchParams.set('variables', JSON.stringify({ n: 'MID15313', fas: '0877' }));
  const readResponse = await fetch(read, { headers: { authorization: 'Bearer dev-key-a', 'x-graphql-yoga-csrf': '1' } });
  expect(readResponse.status).toBe(200);
  expect(((await readResponse.json()) as { errors?: unknown }).errors).toBeUndefined();

  const order = await postRaw(
    svc.url,
    {
      query: print(OrderTitleDocumentMutation),
      variables: {
        fas: '5555',
        input: {
          titleNumber: 'MID15313',
          reference: 'Smith to Jones, 12 Elm Row',
          titleSheet: { include: true },
          idempotencyKey: newKey('privacy'),
        },
      },
    },
    { authorization: 'Bearer dev-key-b' },
  );
  expect(order.body.errors).toBeUndefined();
  const link = new URL(order.body.data.orderTitleDocument.document.downloadUrl as string);
  const download = await fetch(link);
  expect(download.status).toBe(200);
  await download.arrayBuffer();
  expect(svc.emulator.calls.count({ route: 'downloadDocument' })).toBe(1);

  const spans = exporter.getFinishedSpans();
  // What the spans must not hide: each call is there, with its path and its redacted query.
  const client = spans.filter((s) => String(s.attributes['url.full'] ?? '').includes('/v1/titles/MID15313/details'));
  expect(client.map(urlOf)).toContainEqual(expect.stringContaining('fas=REDACTED&reference=REDACTED'));
  const servers = spans.filter((s) => s.attributes['server.port'] === Number(new URL(svc.origin).port));
  expect(servers.map((s) => s.attributes['url.path'])).toEqual(expect.arrayContaining(['/graphql', link.pathname]));
  // Every parameter the link carries (`ends` too, near the end of the register's day), none with its value.
  const redactedLink = [...link.searchParams.keys()].map((name) => `${name}=REDACTED`).join('&');
  expect(redactedLink).toMatch(/^client=REDACTED&expires=REDACTED&(ends=REDACTED&)?kid=REDACTED&signature=REDACTED$/);
  expect(servers.map((s) => s.attributes['url.query'])).toContain(redactedLink);

  const secrets = [
    '0877',
    '5555',
    'Smith',
    'Jones',
    'dev-key-a',
    'dev-key-b',
    'secret-a',
    'secret-b',
    link.searchParams.get('signature')!,
    ...[...registerAuthorizations].flatMap((value) => [value, value.split(' ')[1]!]),
  ];
  expect(registerAuthorizations.size).toBeGreaterThanOrEqual(2); // Basic for a token, then Bearer
  for (const span of spans) {
    const text = spanText(span);
    for (const secret of secrets) expect(text, `${span.name}: ${secret}`).not.toContain(secret);
  }
});
