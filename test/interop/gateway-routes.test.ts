/**
 * A front end beside a gateway reaches titlegraph's two routes that are not GraphQL,
 * `/statements.csv` and `/downloads/…`, as the README's Federation section says: at the gateway's
 * own address through Hive Gateway with `useTitlegraphRoutes` (examples/federation/titlegraph-routes.ts)
 * and PUBLIC_URL set to the gateway's address, or directly at titlegraph's address with the same
 * Authorization header (a browser on another origin: CORS_ORIGINS). Without the route the gateway
 * answers 404.
 */
import { createGatewayRuntime } from '@graphql-hive/gateway-runtime';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { titlegraphGatewayConfig as HIVE_CONFIG } from '../../examples/federation/hive-gateway.config';
import { useTitlegraphRoutes } from '../../examples/federation/titlegraph-routes';
import { londonDate } from '../../src/register/contract/london-day';
import { askHive, composeWithTitlegraph } from '../support/federation';
import { startHttpService, type HttpService } from '../support/harness';

const GATEWAY = 'http://gateway.test';
const FRONT_END = 'https://app.example';
const KEY_B = { authorization: 'Bearer dev-key-b' };

let titlegraph: HttpService;
let routed: ReturnType<typeof createGatewayRuntime>;
let plain: ReturnType<typeof createGatewayRuntime>;
let downloadUrl: string;
let transactionNumber: string;

const today = () => londonDate(new Date());
const statementPath = () => `/statements.csv?from=${today()}&to=${today()}`;

beforeAll(async () => {
  titlegraph = await startHttpService({ app: { corsOrigins: [FRONT_END] }, services: { publicUrl: GATEWAY } });
  const supergraph = await composeWithTitlegraph(titlegraph.url, []);
  routed = createGatewayRuntime({
    supergraph,
    logging: false,
    ...HIVE_CONFIG,
    plugins: () => [...HIVE_CONFIG.plugins(), useTitlegraphRoutes(titlegraph.origin)],
  });
  plain = createGatewayRuntime({ supergraph, logging: false, ...HIVE_CONFIG });

  // A purchase through the gateway: its charge is on the statement, its link is to the gateway.
  const bought = await askHive(
    routed,
    `mutation { orderTitleDocument(fas: "5555", input: { titleNumber: "MID15313", titleSheet: { include: true }, idempotencyKey: "routes-${Date.now()}" }) {
      document { downloadUrl } charges { transactionNumber } userErrors { code } } }`,
    KEY_B,
  );
  expect(bought.errors).toBeUndefined();
  downloadUrl = bought.data.orderTitleDocument.document.downloadUrl;
  transactionNumber = bought.data.orderTitleDocument.charges[0].transactionNumber;
});

afterAll(async () => {
  await routed?.dispose();
  await plain?.dispose();
  await titlegraph?.stop();
});

test('without a route the gateway has no /statements.csv and no /downloads', async () => {
  expect((await plain.fetch(`${GATEWAY}${statementPath()}`, { headers: KEY_B })).status).toBe(404);
  expect((await plain.fetch(downloadUrl)).status).toBe(404);
});

test("Hive Gateway with useTitlegraphRoutes: the statement CSV at the gateway's address is titlegraph's, with the caller's key and its refusals", async () => {
  const through = await routed.fetch(`${GATEWAY}${statementPath()}`, { headers: KEY_B });
  expect(through.status).toBe(200);
  expect(through.headers.get('content-type')).toMatch(/^text\/csv/);
  const csv = await through.text();
  expect(csv).toContain(transactionNumber);
  const direct = await fetch(`${titlegraph.origin}${statementPath()}`, { headers: KEY_B });
  expect(await direct.text()).toBe(csv);

  const wrong = { authorization: 'Bearer not-a-key' };
  const refused = await routed.fetch(`${GATEWAY}${statementPath()}`, { headers: wrong });
  const refusedDirect = await fetch(`${titlegraph.origin}${statementPath()}`, { headers: wrong });
  expect(refused.status).toBe(401);
  expect(await refused.text()).toBe(await refusedDirect.text());
});

test('Hive Gateway with useTitlegraphRoutes and PUBLIC_URL at the gateway: a download link points at the gateway and streams the PDF, with no Authorization header', async () => {
  expect(downloadUrl.startsWith(`${GATEWAY}/downloads/titles/MID15313/documents/`)).toBe(true);
  const head = await routed.fetch(downloadUrl, { method: 'HEAD' });
  expect(head.status).toBe(200);
  const pdf = await routed.fetch(downloadUrl);
  expect(pdf.status).toBe(200);
  expect(pdf.headers.get('content-type')).toBe('application/pdf');
  expect(new TextDecoder().decode(new Uint8Array(await pdf.arrayBuffer()).slice(0, 5))).toBe('%PDF-');
  // A link altered in transit is titlegraph's refusal, not the gateway's.
  expect((await routed.fetch(downloadUrl.replace(/signature=[^&]+/, 'signature=x'))).status).toBe(403);
});

test("directly at titlegraph's address from a browser on another origin: the preflight and the CSV pass CORS with the same key", async () => {
  const preflight = await fetch(`${titlegraph.origin}${statementPath()}`, {
    method: 'OPTIONS',
    headers: { origin: FRONT_END, 'access-control-request-method': 'GET', 'access-control-request-headers': 'authorization' },
  });
  expect(preflight.status).toBeLessThan(300);
  expect(preflight.headers.get('access-control-allow-origin')).toBe(FRONT_END);
  expect(preflight.headers.get('access-control-allow-headers')?.toLowerCase()).toContain('authorization');
  const csv = await fetch(`${titlegraph.origin}${statementPath()}`, { headers: { ...KEY_B, origin: FRONT_END } });
  expect(csv.status).toBe(200);
  expect(csv.headers.get('access-control-allow-origin')).toBe(FRONT_END);
  expect(await csv.text()).toContain(transactionNumber);
});
