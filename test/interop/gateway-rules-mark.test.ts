/**
 * The rules' mark (src/security/gateway-rules.ts; the interface titlegraph checks it by):
 * every request Hive Gateway (either planner) or Apollo Server with @apollo/gateway sends to
 * titlegraph for an operation the rules checked carries `titlegraph-rules: chargeable/2`, also when
 * Hive's persisted documents skip validation (the rules check at execution); a gateway without
 * the rules sends none. Seen on the wire, by a proxy in front of titlegraph.
 */
import { createGatewayRuntime } from '@graphql-hive/gateway-runtime';
import { unifiedGraphHandler } from '@graphql-hive/router-runtime';
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { chargeableRulesPlugin, RULES_MARK, RULES_MARK_HEADER } from '../../src/security/gateway-rules';
import { titlegraphGatewayConfig } from '../../examples/federation/hive-gateway.config';
import { apolloServerGateway, askHive, composeWithTitlegraph, type ProxiedRequest, recordingProxy } from '../support/federation';
import { type HttpService, startHttpService } from '../support/harness';
import { DEV_API_KEYS, sha256Hex } from '../../src/services/callers';
import { closeServer } from '../support/http-service';

let titlegraph: HttpService;
let proxy: Awaited<ReturnType<typeof recordingProxy>>;
let supergraph: string;
let apolloSupergraph: string;

beforeAll(async () => {
  titlegraph = await startHttpService({
    services: { apiKeys: [...DEV_API_KEYS, { name: 'gateway', apiKeySha256: sha256Hex('router-key'), router: true }] },
  });
  proxy = await recordingProxy(titlegraph.url);
  supergraph = await composeWithTitlegraph(proxy.url, []);
  apolloSupergraph = await composeWithTitlegraph(proxy.url, [], 'dev-key-a', true);
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

  test('a persisted document run without validation (skipDocumentValidation) is checked at execution and carries the mark', async () => {
    const gateway = start({
      persistedDocuments: { getPersistedOperation: () => '{ registerUsage { __typename } }', skipDocumentValidation: true },
    });
    try {
      const response = await gateway.fetch('http://gateway.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer dev-key-a' },
        body: JSON.stringify({ extensions: { persistedQuery: { version: 1, sha256Hash: 'usage' } } }),
      });
      expect(((await response.json()) as { errors?: unknown }).errors).toBeUndefined();
      expect(marks(proxy.requests)).toEqual([RULES_MARK]);
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

describe('Apollo Server with @apollo/gateway (TitlegraphDataSource of apollo-gateway.ts)', () => {
  test('a checked purchase carries the mark; without chargeableRulesPlugin() nothing does', async () => {
    const guarded = await apolloServerGateway(apolloSupergraph, { plugins: [chargeableRulesPlugin()] });
    try {
      const bought = await guarded.ask(PURCHASE(`mark-apollo-${process.pid}-${Date.now()}`));
      expect(bought.json?.errors).toBeUndefined();
      expect(marks(proxy.requests)).toEqual([RULES_MARK]);
    } finally {
      await guarded.stop();
    }
    proxy.requests.length = 0;
    const bare = await apolloServerGateway(apolloSupergraph);
    try {
      await bare.ask('{ registerUsage { __typename } }');
      expect(marks(proxy.requests)).toEqual([undefined]);
    } finally {
      await bare.stop();
    }
  });
});
