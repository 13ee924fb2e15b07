/**
 * The service under the real OpenTelemetry Node SDK (examples/observability/otel.mjs: HTTP server
 * and undici instrumentations), exporting OTLP/HTTP (JSON) to a receiver in this test. For a
 * query that calls the register twice, sent before and after the JIT threshold, each trace is:
 * the HTTP server span, named after the operation and carrying it as attributes → graphql.execute
 * → one span per register call → undici's own span of that call; and every log line of the
 * request names the trace and span.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { closeServer, listen } from '../support/http-service';
import { postRaw } from '../support/post-raw';
import { mentioning } from '../support/mentions';

const ROOT = join(import.meta.dirname, '..', '..');

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes?: { key: string; value: Record<string, unknown> }[];
  events?: { name: string; attributes?: OtlpSpan['attributes'] }[];
  status?: { message?: string };
}

/**
 * What a span says in words: its name, attributes, events and status. Not its ids or times:
 * random hex and nanosecond digits hold any four-digit number (a FAS) often enough to fail a search by chance.
 */
const wordsOf = (span: OtlpSpan) => JSON.stringify([span.name, span.attributes, span.events, span.status]);

const spans: OtlpSpan[] = [];
let receiver: Server;
let child: ChildProcess;
let output = '';
let work: string;
let base: string;

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes?.find((a) => a.key === key)?.value;
  return value ? Object.values(value)[0] : undefined;
};

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      if (req.url === '/v1/traces') {
        const parsed = JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[] };
        for (const r of parsed.resourceSpans) for (const s of r.scopeSpans) spans.push(...s.spans);
      }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  const otlp = await listen(receiver);
  work = mkdtempSync(join(tmpdir(), 'titlegraph-otel-'));
  child = spawn(process.execPath, ['--import', join(ROOT, 'examples/observability/otel.mjs'), '--import', 'tsx', 'src/start.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: '0',
      EMULATOR_PORT: '0',
      DATA_DIR: join(work, 'data'),
      GRAPHQL_JIT_AFTER: '1',
      OTEL_ENABLED: 'true',
      OTEL_SERVICE_NAME: 'titlegraph-test',
      OTEL_TRACES_EXPORTER: 'otlp',
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${otlp}/v1/traces`,
      OTEL_BSP_SCHEDULE_DELAY: '50',
      OTEL_METRICS_EXPORTER: 'none',
      OTEL_LOGS_EXPORTER: 'none',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => (output += chunk));
  child.stderr!.on('data', (chunk) => (output += chunk));
  base = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no start within 60 s:\n${output}`)), 60_000);
    child.stdout!.on('data', () => {
      const m = /GraphQL at (http:\/\/localhost:\d+)\/graphql/.exec(output);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]!);
      }
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}:\n${output}`)));
  });
}, 90_000);

afterAll(async () => {
  child?.kill('SIGKILL');
  if (receiver) await closeServer(receiver);
  if (work) rmSync(work, { recursive: true, force: true });
});

test('a query that calls the register twice: the span tree, interpreted and compiled, and trace ids in the logs', async () => {
  const query = 'query TwoCalls { title(titleNumber: "MID15313") { titleNumber securities { id } } }';
  for (let i = 0; i < 2; i++) {
    const { body } = await postRaw<{ title: { securities: unknown[] } }>(`${base}/graphql`, { query }, { accept: null });
    expect(body.errors).toBeUndefined();
    expect(body.data!.title.securities.length).toBeGreaterThan(0);
  }
  const servers = () => spans.filter((s) => s.kind === 2 && s.name === 'query TwoCalls');
  await expect.poll(() => servers().length, { timeout: 10_000 }).toBe(2);
  await expect.poll(() => spans.filter((s) => s.name === 'register securities').length, { timeout: 10_000 }).toBe(2);

  for (const server of servers()) {
    expect(attribute(server, 'graphql.operation.name')).toBe('TwoCalls');
    expect(attribute(server, 'graphql.operation.type')).toBe('query');
    const inTrace = spans.filter((s) => s.traceId === server.traceId);
    const execute = inTrace.find((s) => s.name === 'graphql.execute')!;
    expect(execute.parentSpanId).toBe(server.spanId);
    for (const route of ['titleSummary', 'securities']) {
      const call = inTrace.find((s) => s.name === `register ${route}`)!;
      expect(call, route).toBeDefined();
      expect(call.kind).toBe(3); // CLIENT
      expect(call.parentSpanId).toBe(execute.spanId);
      // undici's span of the same call nests under it: one tree, not two siblings.
      const http = inTrace.filter((s) => s.parentSpanId === call.spanId && s.kind === 3 && !s.name.startsWith('register '));
      expect(http.length, `${route}: undici span`).toBeGreaterThanOrEqual(1);
    }
    // Every log line written for this request names its trace (lines reach stdout in batches, within 25 ms).
    const lines = () =>
      output
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .filter((l) => l.trace_id === server.traceId);
    await expect.poll(() => lines().length, { timeout: 5_000, message: output }).toBeGreaterThanOrEqual(1);
    expect(lines().every((l) => typeof l.span_id === 'string')).toBe(true);
  }
}, 60_000);

test('the recipe sends the trace backend no FAS number, matter reference or API key (its hooks redact every query)', async () => {
  const response = await fetch(`${base}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer dev-key-a' },
    body: JSON.stringify({
      query:
        'mutation Buy { purchaseTitleDetails(fas: "0877", input: { titleNumber: "BLK1", reference: "Smith to Jones, 12 Elm Row", idempotencyKey: "otel-private" }) { userErrors { code } } }',
    }),
  });
  expect(((await response.json()) as { errors?: unknown }).errors).toBeUndefined();
  const details = () => spans.filter((s) => String(attribute(s, 'url.full') ?? '').includes('/v1/titles/BLK1/details'));
  await expect.poll(() => details().length, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
  expect(attribute(details()[0]!, 'url.full')).toMatch(/\/v1\/titles\/BLK1\/details\?fas=REDACTED&reference=REDACTED$/);
  await expect.poll(() => spans.filter((s) => s.name === 'mutation Buy').length, { timeout: 10_000 }).toBe(1);
  for (const span of spans) expect(wordsOf(span)).not.toMatch(mentioning('0877', 'Smith', 'Jones', 'dev-key-a'));
}, 30_000);
