/**
 * `npm run example:gateway`: Hive Gateway in front of a running titlegraph (`npm start` in another
 * terminal), as a platform team would run it: composed with titlegraph's SDL as titlegraph serves
 * it (read with the router key), with the money rules (titlegraph/gateway-rules) and the router
 * key on every subgraph request (hive-gateway.config.ts). Then send client operations to the
 * gateway with each caller's own key, e.g. `Authorization: Bearer dev-key-a`.
 *
 * Settings: TITLEGRAPH_URL (default http://localhost:4000/graphql), TITLEGRAPH_ROUTER_KEY (default
 * dev-router-key, the embedded start's), GATEWAY_PORT (default 4001; 0 picks a free one).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { composeServices } from '@apollo/composition';
import { createGatewayRuntime } from '@graphql-hive/gateway-runtime';
import { parse } from 'graphql';
import { TITLEGRAPH, titlegraphGatewayConfigWith } from './hive-gateway.config';

const titlegraph = process.env.TITLEGRAPH_URL ?? 'http://localhost:4000/graphql';
const routerKey = process.env.TITLEGRAPH_ROUTER_KEY ?? 'dev-router-key';
const port = Number(process.env.GATEWAY_PORT ?? 4001);

const answer = await fetch(titlegraph, {
  method: 'POST',
  headers: { 'content-type': 'application/json', authorization: `Bearer ${routerKey}` },
  body: JSON.stringify({ query: '{ _service { sdl } }' }),
}).catch((error: Error) => {
  console.error(`titlegraph is not answering at ${titlegraph} (${error.message}): start it first (npm start)`);
  process.exit(1);
});
const { data } = (await answer.json()) as { data?: { _service: { sdl: string } } };
if (!data) {
  console.error(`titlegraph at ${titlegraph} did not give its SDL to the router key ${routerKey} (HTTP ${answer.status})`);
  process.exit(1);
}
const composed = composeServices([{ name: TITLEGRAPH, url: titlegraph, typeDefs: parse(data._service.sdl) }]);
if (composed.errors) throw new Error(composed.errors.map((e) => e.message).join('\n'));

const gateway = createGatewayRuntime({ supergraph: composed.supergraphSdl, ...titlegraphGatewayConfigWith(routerKey) });
const server = createServer(gateway);
server.listen(port, () => {
  console.log(`gateway at http://localhost:${(server.address() as AddressInfo).port}/graphql, in front of ${titlegraph}`);
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => server.close(() => process.exit(0)));
