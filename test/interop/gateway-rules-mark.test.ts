/**
 * The rules' mark (examples/federation/chargeable-rules.ts, docs/shared contract with titlegraph):
 * every request Hive Gateway sends to titlegraph for an operation the rules checked carries
 * `titlegraph-rules: chargeable/2`, with either planner; a gateway without the rules sends none.
 * Seen on the wire, by a proxy in front of titlegraph.
 */
import { createGatewayRuntime } from '@graphql-hive/gateway-runtime';
import { unifiedGraphHandler } from '@graphql-hive/router-runtime';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { RULES_MARK, RULES_MARK_HEADER } from '../../examples/federation/chargeable-rules';
import { titlegraphGatewayConfig } from '../../examples/federation/hive-gateway.config';
import { askHive, composeWithTitlegraph, type ProxiedRequest, recordingProxy } from '../support/federation';
import { type HttpService, startHttpService } from '../support/harness';
import { closeServer } from '../support/http-service';

let titlegraph: HttpService;
let proxy: Awaited<ReturnType<typeof recordingProxy>>;
let supergraph: string;

beforeAll(async () => {
  titlegraph = await startHttpService();
  proxy = await recordingProxy(titlegraph.url);
  supergraph = await composeWithTitlegraph(proxy.url, []);
});

afterAll(async () => {
  if (proxy) await closeServer(proxy.server);
  await titlegraph?.stop();
});

beforeEach(() => {
  proxy.requests.length = 0;
});

const marks = (requests: ProxiedRequest[]) => requests.map((r) => r.headers[RULES_MARK_HEADER]);
const PURCHASE = (key: string) =>
  `mutation { purchaseTitleDetails(fas: "0877", input: { titleNumber: "MID1234", idempotencyKey: "${key}" }) { charges { fee } } }`;

describe.each([
  { name: 'Hive Gateway (hive-gateway.config.ts)', overrides: {} },
  { name: 'Hive Gateway with the Rust query planner', overrides: { unifiedGraphHandler } },
])('$name', ({ overrides }) => {
  const start = (more: Record<string, unknown> = {}) =>
    createGatewayRuntime({ supergraph, logging: false, ...titlegraphGatewayConfig, ...overrides, ...more } as never);

  test('each request to titlegraph of a checked operation carries the mark', async () => {
    const gateway = start();
    try {
      const bought = await askHive(gateway, PURCHASE(`mark-${process.pid}-${Date.now()}`));
      expect(bought.errors).toBeUndefined();
      const read = await askHive(gateway, '{ registerUsage { __typename } }');
      expect(read.errors).toBeUndefined();
      expect(proxy.requests.length).toBeGreaterThanOrEqual(2);
      expect(marks(proxy.requests)).toEqual(proxy.requests.map(() => RULES_MARK));
    } finally {
      await gateway.dispose();
    }
  });

  test('a gateway without the rules sends no mark', async () => {
    const gateway = start({ plugins: () => [] });
    try {
      await askHive(gateway, '{ registerUsage { __typename } }');
      expect(proxy.requests).toHaveLength(1);
      expect(marks(proxy.requests)).toEqual([undefined]);
    } finally {
      await gateway.dispose();
    }
  });
});
