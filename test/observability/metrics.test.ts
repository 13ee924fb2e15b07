/**
 * Prometheus /metrics: scraped over real HTTP after a query, a chargeable mutation (and its
 * idempotent replay) and a failing request; counters and histograms carry the right labels.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { httpServiceForTest, startHttpService, type HttpService } from '../support/harness';
import { postRaw } from '../support/post-raw';
import { parseMetrics, sum, type Sample } from '../support/prometheus';
import { memoryLogger } from '../support/memory-logger';

let svc: HttpService;
let other: HttpService | undefined;

beforeAll(async () => {
  svc = await startHttpService();
});
afterAll(async () => {
  await svc?.stop();
  await other?.stop();
});

async function scrape(target: HttpService = svc): Promise<{ samples: Sample[]; response: Response; text: string }> {
  const response = await fetch(`${target.origin}/metrics`);
  const text = await response.text();
  return { samples: parseMetrics(text), response, text };
}

const PURCHASE = `mutation PurchaseForMetrics($key: String!) {
  purchaseTitleDetails(fas: "0877", input: { titleNumber: "MID15313", reference: "metrics", idempotencyKey: $key }) {
    charges { productType fee } userErrors { code }
  }
}`;

describe('/metrics', () => {
  test('counts requests, register calls, charges, idempotency outcomes and the breaker state', async () => {
    const query = await postRaw(svc.url, { query: 'query TitleForMetrics { title(titleNumber: "MID15313") { titleNumber } }' });
    expect(query.body.errors).toBeUndefined();
    const first = await postRaw(svc.url, { query: PURCHASE, variables: { key: 'metrics-1' } });
    expect(first.body.data.purchaseTitleDetails.charges).toEqual([{ productType: 'TITLE_DATA_AND_PLANS', fee: '3.00' }]);
    const replay = await postRaw(svc.url, { query: PURCHASE, variables: { key: 'metrics-1' } });
    expect(replay.body.data.purchaseTitleDetails.charges).toEqual(first.body.data.purchaseTitleDetails.charges);
    const bad = await postRaw(svc.url, { query: 'query BadTitle { title(titleNumber: "nope") { titleNumber } }' });
    expect(bad.body.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const unauthenticated = await postRaw(svc.url, { query: '{ __typename }' }, { authorization: 'Bearer nobody' });
    expect(unauthenticated.status).toBe(401);
    const unparseable = await postRaw(svc.url, { query: '{ title(' });
    expect(unparseable.body.errors).toHaveLength(1);

    const { samples, response } = await scrape();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);

    // GraphQL requests by operation, type and outcome, with durations.
    const requests = 'titlegraph_graphql_requests_total';
    expect(sum(samples, requests, { operation: 'TitleForMetrics', type: 'query', outcome: 'ok' })).toBe(1);
    expect(sum(samples, requests, { operation: 'PurchaseForMetrics', type: 'mutation', outcome: 'ok' })).toBe(2);
    expect(sum(samples, requests, { operation: 'BadTitle', type: 'query', outcome: 'error' })).toBe(1);
    // Credentials are checked before the document is read: the unauthenticated one is counted as such, and
    // the unparseable one (with credentials) names no operation.
    expect(sum(samples, requests, { operation: 'anonymous', type: 'query', outcome: 'error' })).toBe(0);
    expect(sum(samples, requests, { operation: '__unauthenticated', type: 'unknown', outcome: 'error' })).toBe(1);
    expect(sum(samples, requests, { operation: 'unknown', type: 'unknown', outcome: 'error' })).toBe(1);
    expect(
      sum(samples, 'titlegraph_graphql_request_duration_seconds_count', {
        operation: 'PurchaseForMetrics',
        type: 'mutation',
        outcome: 'ok',
      }),
    ).toBe(2);
    expect(sum(samples, 'titlegraph_graphql_request_duration_seconds_bucket', { operation: 'TitleForMetrics', le: '+Inf' })).toBe(1);

    // Register calls by route, method, status and outcome; latency histograms by route and status.
    expect(sum(samples, 'titlegraph_register_calls_total', { route: 'titleSummary', method: 'GET', status: '200', outcome: 'ok' })).toBe(1);
    expect(sum(samples, 'titlegraph_register_calls_total', { route: 'titleDetails', method: 'GET', status: '200', outcome: 'ok' })).toBe(1);
    expect(sum(samples, 'titlegraph_register_calls_total', { route: 'token', method: 'POST', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(sum(samples, 'titlegraph_register_call_duration_seconds_count', { route: 'titleDetails', status: '200' })).toBe(1);
    expect(sum(samples, 'titlegraph_register_call_duration_seconds_sum', { route: 'titleDetails', status: '200' })).toBeGreaterThan(0);
    expect(sum(samples, 'titlegraph_register_call_duration_seconds_bucket', { route: 'titleSummary', status: '200', le: '+Inf' })).toBe(1);

    // Charges by product type (the replay charged nothing more).
    expect(sum(samples, 'titlegraph_charges_total', { product_type: 'TITLE_DATA_AND_PLANS', operation: 'purchaseTitleDetails' })).toBe(1);
    expect(sum(samples, 'titlegraph_charge_fees_total', { product_type: 'TITLE_DATA_AND_PLANS' })).toBe(3);

    // Idempotency outcomes: one executed, one replayed.
    expect(sum(samples, 'titlegraph_idempotency_outcomes_total', { operation: 'purchaseTitleDetails', outcome: 'executed' })).toBe(1);
    expect(sum(samples, 'titlegraph_idempotency_outcomes_total', { operation: 'purchaseTitleDetails', outcome: 'replayed' })).toBe(1);

    // Breaker state.
    expect(sum(samples, 'titlegraph_register_circuit_breaker_state', { state: 'closed' })).toBe(1);
    expect(sum(samples, 'titlegraph_register_circuit_breaker_state', { state: 'open' })).toBe(0);
  });

  test('the breaker gauge follows the transport, and register failures are counted by outcome', async () => {
    other = await startHttpService({
      services: { transport: { breaker: { failureThreshold: 2, openMs: 60_000 }, retry: { attempts: 1 } } },
    });
    other.emulator.faults.inject('titleSummary', { kind: 'status', status: 503 }, 5);
    for (const titleNumber of ['MID15313', 'GLA5001', 'EDN42']) {
      await postRaw(other.url, { query: `query Failing { title(titleNumber: "${titleNumber}") { titleNumber } }` });
    }
    const { samples } = await scrape(other);
    expect(sum(samples, 'titlegraph_register_circuit_breaker_state', { state: 'open' })).toBe(1);
    expect(sum(samples, 'titlegraph_register_calls_total', { route: 'titleSummary', status: '503', outcome: 'http_error' })).toBe(2);
    expect(sum(samples, 'titlegraph_register_calls_total', { route: 'titleSummary', status: '0', outcome: 'circuit_open' })).toBe(1);
    expect(sum(samples, 'titlegraph_graphql_requests_total', { operation: 'Failing', outcome: 'error' })).toBe(3);
  });

  test('each app has its own registry: two apps in one process do not share counts', async () => {
    const mine = await scrape(svc);
    const theirs = await scrape(other!);
    expect(sum(mine.samples, 'titlegraph_charges_total')).toBe(1);
    expect(sum(theirs.samples, 'titlegraph_charges_total')).toBe(0);
  });

  test('operation names are bounded: invalid names do not become labels', async () => {
    await postRaw(svc.url, { query: '{ __typename }', operationName: 'not a name!' });
    const { samples } = await scrape();
    expect(samples.some((s) => s.labels.operation === 'not a name!')).toBe(false);
  });

  test('the log line and the metrics name the same operation: the one that ran of a document holding two', async () => {
    const { logger, lines } = memoryLogger('info');
    const logged = await httpServiceForTest({ app: { logger } });
    const query = 'query FirstOfTwo { __typename } query SecondOfTwo { title(titleNumber: "MID15313") { titleNumber } }';
    const answer = await postRaw(logged.url, { query, operationName: 'SecondOfTwo' }, { 'x-request-id': 'second-of-two' });
    expect(answer.body.data).toEqual({ title: { titleNumber: 'MID15313' } });
    expect(lines.find((l) => l.msg === 'request' && l.requestId === 'second-of-two')).toMatchObject({
      operationName: 'SecondOfTwo',
      operationType: 'query',
    });
    const { samples } = await scrape(logged);
    expect(sum(samples, 'titlegraph_graphql_requests_total', { operation: 'SecondOfTwo', type: 'query', outcome: 'ok' })).toBe(1);
    expect(sum(samples, 'titlegraph_graphql_requests_total', { operation: 'FirstOfTwo' })).toBe(0);
  });

  test('only GET and HEAD; not served when metrics are off', async () => {
    expect((await fetch(`${svc.origin}/metrics`, { method: 'POST' })).status).toBe(405);
    const off = await httpServiceForTest({ app: { observability: { metrics: false } } });
    expect((await fetch(`${off.origin}/metrics`)).status).toBe(404);
  });
});
