/**
 * `npm run example:gateway` as its header says: Hive Gateway in front of a running titlegraph,
 * composed with the SDL titlegraph serves to the router key, the money rules and the router key
 * on. A read goes through; a purchase is charged once and its charge reaches the client; a
 * purchase beside another chargeable one is refused at the gateway with nothing sent.
 */
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { type HttpService, startHttpService } from '../support/harness';
import { type Child, spawnTs } from '../support/processes';

let svc: HttpService;
let gateway: Child;
let url: string;
beforeAll(async () => {
  svc = await startHttpService();
  gateway = spawnTs(fileURLToPath(new URL('../../examples/federation/gateway.ts', import.meta.url)), [], {
    TITLEGRAPH_URL: svc.url,
    GATEWAY_PORT: '0',
  });
  const [, port] = await gateway.waitFor(/gateway at http:\/\/localhost:(\d+)\/graphql/, 60_000);
  url = `http://127.0.0.1:${port}/graphql`;
}, 90_000);
afterAll(async () => {
  await gateway?.stop();
  await svc?.stop();
});

const ask = async (query: string, key = 'dev-key-a') =>
  (await (
    await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ query }),
    })
  ).json()) as { data?: Record<string, any>; errors?: { extensions?: { code?: string } }[] };

test('a read goes through the example gateway', async () => {
  expect(await ask('{ title(titleNumber: "MID15313") { titleNumber status } }')).toEqual({
    data: { title: { titleNumber: 'MID15313', status: expect.any(String) } },
  });
});

test('a purchase is charged once, its charge in the answer; two purchases in one operation are refused before anything is sent', async () => {
  const buy = (key: string, alias = 'bought') =>
    `${alias}: purchaseTitleDetails(fas: "0877", input: { titleNumber: "MID15313", idempotencyKey: "${key}" }) { charges { transactionNumber } userErrors { code } }`;
  svc.emulator.calls.reset();
  const refused = await ask(`mutation { ${buy('gateway-two-a', 'first')} ${buy('gateway-two-b', 'second')} }`);
  expect(refused.errors?.[0]?.extensions?.code).toBe('TOO_MANY_CHARGEABLE_MUTATIONS');
  expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(0);
  const bought = await ask(`mutation { ${buy('gateway-one')} }`);
  expect(bought.errors).toBeUndefined();
  expect(bought.data!.bought.charges).toEqual([{ transactionNumber: svc.emulator.ledger.charges[0]!.charge.transactionNumber }]);
  expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(1);
});
