/**
 * A gateway without the money rules, through real gateways that present the router key as the
 * shipped configs do (hive-gateway.config.ts, apollo-gateway.ts): Hive Gateway with the README's
 * config but no rules plugin (both planners), and Apollo Server with @apollo/gateway but no rules
 * plugin. titlegraph refuses the purchase (CHARGEABLE_RULES_MISSING) with no register call; with
 * the rules the same purchase is charged once and the charge is in the bytes the client got.
 * Without the router key titlegraph cannot tell, serves it, and counts the gateway on /metrics.
 * Judged on the emulator's call log and ledger.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { unifiedGraphHandler } from '@graphql-hive/router-runtime';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ROUTER_KEY_HEADER as APOLLO_ROUTER_KEY_HEADER } from '../../examples/federation/apollo-gateway';
import {
  chargeableRulesPlugin,
  RULES_MARK as EXAMPLE_MARK,
  RULES_MARK_HEADER as EXAMPLE_MARK_HEADER,
} from '../../src/security/gateway-rules';
import { ROUTER_KEY_HEADER as HIVE_ROUTER_KEY_HEADER, titlegraphGatewayConfigWith } from '../../examples/federation/hive-gateway.config';
import { ROUTER_KEY_HEADER, RULES_MARK, RULES_MARK_HEADER } from '../../src/security/gateway-mark';
import { DEV_ROUTER_KEY } from '../../src/services/callers';
import {
  apolloServerGateway,
  composeWithTitlegraph,
  hiveTestGateway,
  judgedOnLedger,
  MATTERS_SDL,
  recordingProxy,
  serveSubgraph,
  type Subgraph,
  type TestGateway,
} from '../support/federation';
import { closeServer } from '../support/http-service';
import { type HttpService, startHttpService } from '../support/harness';
import { parseMetrics, sum } from '../support/prometheus';

let titlegraph: HttpService;
let supergraph: string;
let apolloSupergraph: string;

beforeAll(async () => {
  titlegraph = await startHttpService();
  supergraph = await composeWithTitlegraph(titlegraph.url, []);
  apolloSupergraph = await composeWithTitlegraph(titlegraph.url, [], 'dev-key-a', true);
});

afterAll(async () => {
  await titlegraph?.stop();
});

let counter = 0;
/** The register charges once per account, title and day: each gateway buys its own title. */
const purchase = (titleNumber: string) =>
  `mutation Buy { purchaseTitleDetails(fas: "0877", input: { titleNumber: "${titleNumber}", idempotencyKey: "unchecked-${process.pid}-${Date.now()}-${++counter}" }) { charges { fee transactionNumber } userErrors { code } } }`;

test("titlegraph's copies of the header names are the shipped gateway files' own", () => {
  expect({ header: RULES_MARK_HEADER, mark: RULES_MARK }).toEqual({ header: EXAMPLE_MARK_HEADER, mark: EXAMPLE_MARK });
  expect(HIVE_ROUTER_KEY_HEADER).toBe(ROUTER_KEY_HEADER);
  expect(APOLLO_ROUTER_KEY_HEADER).toBe(ROUTER_KEY_HEADER);
});

const WITH_KEY = titlegraphGatewayConfigWith(DEV_ROUTER_KEY);

const GATEWAYS: { name: string; bare: () => Promise<TestGateway>; ruled: () => Promise<TestGateway>; titles: [string, string] }[] = [
  {
    name: 'Hive Gateway (the README config with the router key)',
    bare: async () => hiveTestGateway(supergraph, { ...WITH_KEY, plugins: () => [] }),
    ruled: async () => hiveTestGateway(supergraph, WITH_KEY),
    titles: ['BLK4111', 'BLK4112'],
  },
  {
    name: 'Hive Gateway with the Rust query planner',
    bare: async () => hiveTestGateway(supergraph, { ...WITH_KEY, plugins: () => [], unifiedGraphHandler }),
    ruled: async () => hiveTestGateway(supergraph, { ...WITH_KEY, unifiedGraphHandler }),
    titles: ['BLK4113', 'BLK4114'],
  },
  {
    name: 'Apollo Server with @apollo/gateway (apollo-gateway.ts, the router key)',
    bare: () => apolloServerGateway(apolloSupergraph, { routerKey: DEV_ROUTER_KEY }),
    ruled: () => apolloServerGateway(apolloSupergraph, { routerKey: DEV_ROUTER_KEY, plugins: [chargeableRulesPlugin()] }),
    titles: ['BLK4115', 'BLK4116'],
  },
];

describe.each(GATEWAYS)('$name', ({ bare, ruled, titles }) => {
  const gateways: TestGateway[] = [];
  afterAll(async () => {
    for (const gateway of gateways) await gateway.stop();
  });
  const started = async (start: () => Promise<TestGateway>) => {
    const gateway = await start();
    gateways.push(gateway);
    return gateway;
  };

  test('without the rules: the purchase is refused by titlegraph, with no register call and no charge', async () => {
    const gateway = await started(bare);
    const { answer, calls, charged } = await judgedOnLedger(titlegraph.emulator, () => gateway.ask(purchase(titles[0])));
    expect(answer.json?.errors?.map((e) => e.extensions?.code)).toEqual(['CHARGEABLE_RULES_MISSING']);
    expect(answer.json?.errors?.[0]?.message).toContain('src/security/gateway-rules.ts');
    expect(calls).toBe(0);
    expect(charged).toEqual([]);
  });

  test('with the rules: charged once, and the charge is in the bytes the client got', async () => {
    const gateway = await started(ruled);
    const { answer, charged, hidden } = await judgedOnLedger(titlegraph.emulator, () => gateway.ask(purchase(titles[1])));
    expect(answer.json?.errors).toBeUndefined();
    expect(charged).toHaveLength(1);
    expect(hidden).toEqual([]);
  });
});

describe('the router key goes to titlegraph only', () => {
  let proxy: Awaited<ReturnType<typeof recordingProxy>>;
  let matters: Subgraph;
  const seenByMatters: IncomingHttpHeaders[] = [];
  let both: { hive: string; apollo: string };
  beforeAll(async () => {
    proxy = await recordingProxy(titlegraph.url);
    matters = await serveSubgraph(
      'matters',
      MATTERS_SDL,
      { Query: { matters: () => [{ id: 'm1', title: { titleNumber: 'MID15313' } }] } },
      (h) => seenByMatters.push(h),
    );
    both = {
      hive: await composeWithTitlegraph(proxy.url, [matters]),
      apollo: await composeWithTitlegraph(proxy.url, [matters], 'dev-key-a', true),
    };
  });
  afterAll(async () => {
    if (proxy) await closeServer(proxy.server);
    if (matters) await closeServer(matters.server);
  });

  test.for([
    { name: 'Hive Gateway', start: async () => hiveTestGateway(both.hive, WITH_KEY) },
    { name: 'Apollo Server with @apollo/gateway', start: () => apolloServerGateway(both.apollo, { routerKey: DEV_ROUTER_KEY }) },
  ])('$name: on each request to titlegraph, never to another subgraph', async ({ start }) => {
    const gateway = await start();
    try {
      proxy.requests.length = 0;
      seenByMatters.length = 0;
      const { json } = await gateway.ask('query Matters { matters { id title { titleNumber status } } }');
      expect(json?.errors).toBeUndefined();
      expect(json?.data.matters[0].title.titleNumber).toBe('MID15313');
      expect(proxy.requests.length).toBeGreaterThan(0);
      expect(proxy.requests.map((r) => r.headers[ROUTER_KEY_HEADER])).toEqual(proxy.requests.map(() => DEV_ROUTER_KEY));
      expect(seenByMatters.length).toBeGreaterThan(0);
      expect(seenByMatters.map((h) => h[ROUTER_KEY_HEADER])).toEqual(seenByMatters.map(() => undefined));
    } finally {
      await gateway.stop();
    }
  });
});

test('without the router key titlegraph cannot tell: the purchase runs, and the gateway is counted on /metrics', async () => {
  const gateway = hiveTestGateway(supergraph, { ...titlegraphGatewayConfigWith(undefined), plugins: () => [] });
  try {
    const metrics = async () =>
      sum(parseMetrics(await (await fetch(`${titlegraph.origin}/metrics`)).text()), 'titlegraph_gateway_requests_without_router_key_total');
    const before = await metrics();
    const { answer, charged, hidden } = await judgedOnLedger(titlegraph.emulator, () => gateway.ask(purchase('BLK4117')));
    expect(answer.json?.errors).toBeUndefined();
    expect(charged).toHaveLength(1);
    expect(hidden).toEqual([]);
    expect((await metrics()) - before).toBe(1);
  } finally {
    await gateway.stop();
  }
});
