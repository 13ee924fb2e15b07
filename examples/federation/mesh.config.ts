/**
 * Composing titlegraph with Hive's own composer (GraphQL Mesh Compose): `npx mesh-compose -o
 * supergraph.graphql` next to this file, with TITLEGRAPH_URL and TITLEGRAPH_ROUTER_KEY set.
 * `federation: true` reads titlegraph's federation SDL (`_service { sdl }`), which in production
 * answers the router key only, hence `schemaHeaders`. Add the firm's other subgraphs to the list.
 * test/interop/gateway-configs.test.ts composes with this file and serves the result.
 */
import { defineConfig, loadGraphQLHTTPSubgraph } from '@graphql-mesh/compose-cli';

// A development start answers `_service` without credentials; `Bearer ` with no key would be refused 401.
const routerKey = process.env.TITLEGRAPH_ROUTER_KEY;

export const composeConfig = defineConfig({
  subgraphs: [
    {
      sourceHandler: loadGraphQLHTTPSubgraph('titlegraph', {
        endpoint: process.env.TITLEGRAPH_URL ?? 'http://localhost:4000/graphql',
        federation: true,
        schemaHeaders: routerKey ? { authorization: `Bearer ${routerKey}` } : {},
      }),
    },
  ],
});
