/**
 * A gateway set up by mistake to send its own router key on every subgraph request (not each
 * caller's): titlegraph answers with the refusal that says so, not with data, and makes no
 * register call. Through the real @apollo/gateway over HTTP; the router key itself still reads
 * the SDL the gateway composes from.
 */
import { withoutSecurityDirectives } from '../../examples/federation/apollo-gateway';
import { composeServices } from '@apollo/composition';
import { ApolloGateway, RemoteGraphQLDataSource } from '@apollo/gateway';
import { parse } from 'graphql';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/security/settings';
import { DEV_API_KEYS, sha256Hex } from '../../src/services/callers';
import { executeThroughApollo } from '../support/federation';
import { startHttpService, type HttpService } from '../support/harness';
import { postRaw } from '../support/post-raw';

let titlegraph: HttpService;
let gateway: ApolloGateway;
let loaded: Awaited<ReturnType<ApolloGateway['load']>>;

beforeAll(async () => {
  titlegraph = await startHttpService({
    services: { apiKeys: [...DEV_API_KEYS, { name: 'gateway', apiKeySha256: sha256Hex('router-key'), router: true }] },
    app: { hardening: { limits: DEFAULT_LIMITS, introspection: false, fieldSuggestions: false } },
  });
  const sdl = await postRaw(titlegraph.url, { query: '{ _service { sdl } }' }, { authorization: 'Bearer router-key' });
  expect(sdl.body.errors).toBeUndefined();
  const composed = composeServices([
    { name: 'titlegraph', url: titlegraph.url, typeDefs: parse(withoutSecurityDirectives(sdl.body.data._service.sdl as string)) },
  ]);
  if (composed.errors) throw new Error(composed.errors.map((e) => e.message).join('\n'));
  gateway = new ApolloGateway({
    supergraphSdl: composed.supergraphSdl,
    logger: { debug() {}, info() {}, warn() {}, error() {} },
    buildService: ({ url }) =>
      new (class extends RemoteGraphQLDataSource {
        override willSendRequest({ request }: Parameters<NonNullable<RemoteGraphQLDataSource['willSendRequest']>>[0]) {
          // The mistake: the gateway's own key instead of the caller's.
          request.http?.headers.set('authorization', 'Bearer router-key');
        }
      })({ url }),
  });
  loaded = await gateway.load();
});

afterAll(async () => {
  await gateway?.stop();
  await titlegraph?.stop();
});

test("a client's query through a gateway forwarding the router key is refused, saying to forward the caller's key; no register call", async () => {
  const result = await executeThroughApollo(loaded, '{ title(titleNumber: "MID1234") { titleNumber status } }');
  expect(result.data?.title ?? null).toBeNull();
  expect(result.errors?.map((e) => e.message).join('\n')).toMatch(/belongs to a federation router.*Forward each caller's own API key/);
  expect(result.errors?.some((e) => e.extensions?.code === 'ROUTER_KEY_NOT_A_CLIENT')).toBe(true);
  expect(titlegraph.emulator.calls.count()).toBe(0);
});
