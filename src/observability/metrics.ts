/**
 * Prometheus metrics (prom-client) on GET /metrics. Each app instance has its own Registry (never
 * prom-client's global one), so several apps in one process (tests) never collide.
 *
 * - GraphQL requests by operation name, operation type and outcome (ok / error), with durations;
 * - register calls by route, status and outcome, with latency histograms (events `registerCall`);
 * - charges and fees by product type (events `charges`);
 * - idempotency outcomes, replays included (events `idempotency`);
 * - the register circuit breaker's state (read at scrape time).
 *
 * Operation names come from the executed document (or the request's `operationName` when it
 * never got that far); values are capped so that a caller cannot explode the label space, and
 * only an authenticated caller's names take a place: anyone can send a request without a key,
 * and such requests once used up every place, so a real front end's operation counted as
 * `__other` until a restart. Each organisation takes at most its share of the places, so one
 * organisation's generated names cannot leave the others' new operations counted as `__other`.
 *
 * Money is in pounds sterling before VAT, named `_gbp` where the name gives a unit: Prometheus
 * has no base unit for money, and `_pounds` reads as a weight (promtool asks for grams).
 */
import type { Plugin } from 'graphql-yoga';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Services } from '../services/create-services';
import type { RegisterTransport } from '../register/client';
import { penceOf } from '../register/contract/money';
import { isOperationName, requestRecordOf } from './request-record';
import { callerOf } from '../graphql/context';
import { useReadOnlyRoute } from './read-only-route';
import type { MetricsOptions } from './settings';

/** Distinct operation names counted under their own label; later new names count as `__other`. */
const DEFAULT_MAX_OPERATION_NAMES = 200;

/**
 * prom-client's gauges of Node's handles, requests and resources, summed over their types:
 * promtool refuses a `_total` name on a gauge, and `sum(nodejs_active_handles)` gives the same.
 */
const NOT_PROMETHEUS_NAMES = ['nodejs_active_handles_total', 'nodejs_active_requests_total', 'nodejs_active_resources_total'];

const BREAKER_STATES = ['closed', 'open', 'half_open'] as const;
/** Seconds: from a few milliseconds to the longest a request or register call may take. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

/**
 * Makers of metrics registered on `registry` alone (an instance's own, never prom-client's
 * global one): a name, what it counts, and its labels.
 */
function metricsOn(registry: Registry) {
  const registers = [registry];
  return {
    counter: <L extends string>(name: string, help: string, labelNames: readonly L[] = []) =>
      new Counter<L>({ name, help, labelNames, registers }),
    gauge: <L extends string>(name: string, help: string, labelNames: readonly L[], collect?: (this: Gauge<L>) => void) =>
      new Gauge<L>({ name, help, labelNames, registers, ...(collect ? { collect } : {}) }),
    histogram: <L extends string>(name: string, help: string, labelNames: readonly L[], buckets: number[]) =>
      new Histogram<L>({ name, help, labelNames, buckets, registers }),
  };
}

class ServiceMetrics {
  readonly registry = new Registry();
  readonly path: string;
  private readonly requests: Counter<'operation' | 'type' | 'outcome'>;
  private readonly storeUnavailable: Counter;
  private readonly requestSeconds: Histogram<'operation' | 'type' | 'outcome'>;
  private readonly registerCalls: Counter<'route' | 'method' | 'status' | 'outcome'>;
  private readonly registerSeconds: Histogram<'route' | 'status'>;
  private readonly charges: Counter<'product_type' | 'operation'>;
  private readonly fees: Counter<'product_type'>;
  private readonly idempotency: Counter<'operation' | 'outcome'>;
  private readonly operationNames = new Set<string>();
  /** Places each organisation's names have taken (a name already counted costs nobody a place). */
  private readonly placesTaken = new Map<string, number>();
  private readonly maxPerOrganisation: number;
  private readonly maxOperationNames: number;
  private readonly unsubscribe: (() => void)[] = [];
  /** Requests already counted: an incremental result is processed once per part. */
  private readonly counted = new WeakSet<Request>();

  constructor(
    services: Pick<Services, 'events'> & Partial<Pick<Services, 'downloadLinks' | 'callersVersion'>>,
    transport?: Pick<RegisterTransport, 'breakerState'>,
    options: MetricsOptions = {},
  ) {
    this.path = options.path ?? '/metrics';
    this.maxOperationNames = options.maxOperationNames ?? DEFAULT_MAX_OPERATION_NAMES;
    this.maxPerOrganisation = options.maxOperationNamesPerOrganisation ?? Math.max(1, Math.floor(this.maxOperationNames / 4));
    const { counter, histogram, gauge } = metricsOn(this.registry);
    this.requests = counter(
      'titlegraph_graphql_requests_total',
      'GraphQL requests by operation name, operation type (query, mutation, unknown) and outcome (ok: no errors; error: any error).',
      ['operation', 'type', 'outcome'],
    );
    this.storeUnavailable = counter(
      'titlegraph_service_unavailable_total',
      "Requests refused because this service's database could not be reached (SERVICE_UNAVAILABLE): nothing was sent to the register.",
    );
    this.requestSeconds = histogram(
      'titlegraph_graphql_request_duration_seconds',
      'Time from receiving a GraphQL request to its result, by operation name, type and outcome.',
      ['operation', 'type', 'outcome'],
      LATENCY_BUCKETS,
    );
    this.registerCalls = counter(
      'titlegraph_register_calls_total',
      'HTTP attempts to the register by route, method, status (0: no answer) and outcome (ok, http_error, timeout, network, contract, circuit_open).',
      ['route', 'method', 'status', 'outcome'],
    );
    this.registerSeconds = histogram(
      'titlegraph_register_call_duration_seconds',
      'Latency of HTTP attempts to the register by route and status (0: no answer).',
      ['route', 'status'],
      LATENCY_BUCKETS,
    );
    this.charges = counter(
      'titlegraph_charges_total',
      'Charges the register made for mutations executed by this service, by product type and mutation.',
      ['product_type', 'operation'],
    );
    this.fees = counter(
      'titlegraph_charge_fees_total',
      'Fees the register charged for those charges, before VAT, in pounds sterling (GBP), by product type: the same money as titlegraph_spend_charged_total, counted by product type instead of organisation.',
      ['product_type'],
    );
    const spendCharged = counter(
      'titlegraph_spend_charged_total',
      'Fees the register charged through this service, before VAT, in pounds sterling (GBP), by organisation: the same money as titlegraph_charge_fees_total, counted by organisation instead of product type.',
      ['organisation'],
    );
    const spendRefusals = counter(
      'titlegraph_spend_refusals_total',
      'Chargeable calls refused by spend control before anything was sent, by organisation and reason (caller_limit, client_limit, organisation_limit, max_fee).',
      ['organisation', 'reason'],
    );
    const spendReserved = gauge(
      'titlegraph_spend_reserved_gbp',
      'Expected fees reserved against the spending limits by chargeable calls in flight on this replica, before VAT, in pounds sterling (GBP), by organisation (released when the register answers; an unknown outcome then counts as spent).',
      ['organisation'],
    );
    const downloads = counter(
      'titlegraph_downloads_total',
      'Requests to /downloads, by outcome: ok (the whole file, or a HEAD), cut (the file stopped before its end: stalled, too long, caller gone, register gone), or the refusal code (download_link_invalid, document_expired, unauthenticated, too_many_downloads, document_not_found, rate_limited, register_unavailable, …).',
      ['outcome'],
    );
    const downloadSeconds = histogram(
      'titlegraph_download_duration_seconds',
      'Time from a /downloads request to its end (the last byte sent, or the refusal), by outcome.',
      ['outcome'],
      [0.01, 0.05, 0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120],
    );
    this.idempotency = counter(
      'titlegraph_idempotency_outcomes_total',
      'What the idempotency layer did with each mutation request, by mutation and outcome (executed: the register did it; refused: the register refused it; rate_limited: refused for the quota or the register rate limit, nothing done; replayed, key_reused, outcome_unknown, in_use, invalid_input, spend_limit, above_max_fee).',
      ['operation', 'outcome'],
    );
    const compilations = counter(
      'titlegraph_graphql_compilations_total',
      'Documents that reached GRAPHQL_JIT_AFTER runs, by outcome: compiled (graphql-jit runs them from then on) or interpreted (they stream, or graphql-jit refused them; graphql-js keeps them).',
      ['outcome'],
    );
    if (transport) {
      gauge(
        'titlegraph_register_circuit_breaker_state',
        'State of the register circuit breaker: 1 for the current state (closed, open, half_open), 0 for the others.',
        ['state'],
        function collect() {
          const current = transport.breakerState();
          for (const state of BREAKER_STATES) this.set({ state }, state === current ? 1 : 0);
        },
      );
    }
    const { downloadLinks } = services;
    if (downloadLinks) {
      // Replicas that sign with different keys show as more than one key_id across them.
      gauge(
        'titlegraph_download_link_signing_key_info',
        'The id of the key this replica signs download links with (DOWNLOAD_LINK_SECRET, its first key): 1. Replicas should all show the same one.',
        ['key_id'],
        function collect() {
          this.reset();
          this.set({ key_id: downloadLinks.signingKeyId }, 1);
        },
      );
    }
    const unknownKeyLinks = counter(
      'titlegraph_download_link_unknown_key_total',
      'Live download links refused because they were signed with a key this replica does not have (replicas disagree on DOWNLOAD_LINK_SECRET, or the link is forged).',
    );
    const gatewaysWithoutRouterKey = counter(
      'titlegraph_gateway_requests_without_router_key_total',
      "Requests that look like a federation gateway's but present no router key in titlegraph-router-key, by sign (subgraph_operation_name, entities, service_sdl, apollo_gateway_client, hive_gateway_accept): titlegraph cannot tell whether the gateway's money rules checked them.",
      ['sign'],
    );
    gauge(
      'titlegraph_tenants_file_info',
      'The tenants file this replica serves, by version (the first 12 hex digits of its SHA-256): 1 for the one that runs. Replicas that show another version have not reloaded it yet.',
      ['version'],
      function collect() {
        this.reset();
        const running = services.callersVersion;
        if (running) this.set({ version: running.version }, 1);
      },
    );
    const tenantsReloads = counter(
      'titlegraph_tenants_file_reloads_total',
      'Reads of the tenants file after the start (SIGHUP, or the file changed), by outcome: applied, unchanged, or refused (it does not validate; the running set stays, and the log says why).',
      ['outcome'],
    );
    if (options.defaultMetrics) {
      collectDefaultMetrics({ register: this.registry });
      for (const name of NOT_PROMETHEUS_NAMES) this.registry.removeSingleMetric(name);
    }

    this.unsubscribe.push(
      services.events.on('documentCompiled', (event) => compilations.inc({ outcome: event.outcome })),
      services.events.on('registerCall', (call) => {
        const status = String(call.status);
        this.registerCalls.inc({ route: call.route, method: call.method, status, outcome: call.outcome });
        this.registerSeconds.observe({ route: call.route, status }, call.durationMs / 1000);
      }),
      services.events.on('charges', (event) => {
        for (const charge of event.charges) {
          this.charges.inc({ product_type: charge.productType, operation: event.operation });
          const pence = penceOf(charge.fee);
          if (pence !== undefined) this.fees.inc({ product_type: charge.productType }, pence / 100);
        }
      }),
      services.events.on('idempotency', (event) => {
        this.idempotency.inc({ operation: event.operation, outcome: event.outcome });
      }),
      services.events.on('charges', (event) => {
        const pounds = event.charges.reduce((sum, c) => sum + (penceOf(c.fee) ?? 0), 0) / 100;
        if (pounds > 0) spendCharged.inc({ organisation: event.organisation }, pounds);
      }),
      services.events.on('spendRefused', (event) => spendRefusals.inc({ organisation: event.organisation, reason: event.reason })),
      services.events.on('download', (event) => {
        downloads.inc({ outcome: event.outcome });
        downloadSeconds.observe({ outcome: event.outcome }, event.durationMs / 1000);
      }),
      services.events.on('downloadLinkUnknownKey', () => unknownKeyLinks.inc()),
      services.events.on('tenantsFile', (event) => tenantsReloads.inc({ outcome: event.outcome })),
      services.events.on('gatewayWithoutRouterKey', (event) => gatewaysWithoutRouterKey.inc({ sign: event.sign })),
      services.events.on('spendReserved', (event) => spendReserved.inc({ organisation: event.organisation }, event.pence / 100)),
      services.events.on('spendReservationEnded', (event) => spendReserved.dec({ organisation: event.organisation }, event.pence / 100)),
    );
  }

  /** Stops listening to the service events. */
  close(): void {
    for (const off of this.unsubscribe.splice(0)) off();
  }

  /**
   * A bounded label value for an operation name: a caller without a valid key gets
   * `__unauthenticated` for any name, so only callers with a key take the limited places.
   */
  private operationLabel(name: string | undefined | null, request: Request): string | undefined {
    // Checked first: a request refused for its credentials was never read, so it has no name of its own.
    if (!requestRecordOf(request).authenticated) return '__unauthenticated';
    if (!name) return undefined;
    if (!isOperationName(name)) return '__invalid';
    if (this.operationNames.has(name)) return name;
    if (this.operationNames.size >= this.maxOperationNames) return '__other';
    const organisation = callerOf(request)?.organisation ?? '';
    const taken = this.placesTaken.get(organisation) ?? 0;
    if (taken >= this.maxPerOrganisation) return '__other';
    this.placesTaken.set(organisation, taken + 1);
    this.operationNames.add(name);
    return name;
  }

  /** The yoga plugin: serves the scrape endpoint and counts GraphQL requests. */
  plugin(): Plugin {
    const metrics = this;
    return {
      ...useReadOnlyRoute({
        path: metrics.path,
        answer: async (request) =>
          new Response(request.method === 'HEAD' ? null : await metrics.registry.metrics(), {
            status: 200,
            headers: { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' },
          }),
      }),
      onResultProcess({ request, result }) {
        if (metrics.counted.has(request)) return;
        metrics.counted.add(request);
        const { startedAt, operation, operationName } = requestRecordOf(request);
        const results = Array.isArray(result) ? result : Symbol.asyncIterator in Object(result) ? [] : [result];
        let failed = false;
        let storeUnavailable = false;
        for (const r of results) {
          const errors = (r as { errors?: readonly { extensions?: { code?: unknown } }[] }).errors;
          if (!errors?.length) continue;
          failed = true;
          if (errors.some((e) => e.extensions?.code === 'SERVICE_UNAVAILABLE')) storeUnavailable = true;
        }
        const labels = {
          // A parsed operation without a name is `anonymous`; a request refused before parsing, the name it sent.
          operation: operation
            ? (metrics.operationLabel(operation.name, request) ?? 'anonymous')
            : (metrics.operationLabel(operationName, request) ?? 'unknown'),
          type: operation?.type ?? 'unknown',
          outcome: failed ? 'error' : 'ok',
        };
        metrics.requests.inc(labels);
        if (storeUnavailable) metrics.storeUnavailable.inc();
        metrics.requestSeconds.observe(labels, (performance.now() - startedAt) / 1000);
      },
    };
  }
}

/** GET /metrics (Prometheus), and the counts of GraphQL requests, register calls, charges and downloads behind it. */
export function useMetrics(
  services: Pick<Services, 'events'> & Partial<Pick<Services, 'downloadLinks'>> & { transport?: Pick<RegisterTransport, 'breakerState'> },
  options: MetricsOptions = {},
): Plugin {
  return new ServiceMetrics(services, services.transport, options).plugin();
}
