/**
 * The quota's hold behind a gateway: after the register's 429 to one API client of ORG-A, a read
 * of another of its clients sent through Hive Gateway (the README's config, which forwards the
 * caller's key) is refused by titlegraph before that client signs in, and the refusal, with its
 * code and wait, reaches the gateway's client. Judged on the emulator's call log.
 */
import { createGatewayRuntime } from '@graphql-hive/gateway-runtime';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { titlegraphGatewayConfig } from '../../examples/federation/hive-gateway.config';
import { askHive, composeWithTitlegraph } from '../support/federation';
import { type HttpService, startHttpService } from '../support/harness';

let titlegraph: HttpService;
let gateway: ReturnType<typeof createGatewayRuntime>;

beforeAll(async () => {
  titlegraph = await startHttpService();
  gateway = createGatewayRuntime({
    supergraph: await composeWithTitlegraph(titlegraph.url, []),
    logging: false,
    ...titlegraphGatewayConfig,
  } as never);
});

afterAll(async () => {
  await gateway?.dispose();
  await titlegraph?.stop();
});

test("through Hive Gateway, a client of a held organisation is refused before it signs in, and the gateway's client hears the wait", async () => {
  const title = (titleNumber: string) => `{ title(titleNumber: "${titleNumber}") { titleNumber } }`;
  titlegraph.emulator.faults.inject('titleSummary', { kind: 'status', status: 429, retryAfterSeconds: 30 }, 1);
  const limited = await askHive(gateway, title('MID15313'), { authorization: 'Bearer dev-key-a' });
  expect(limited.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED' });
  const calls = titlegraph.emulator.calls.list().length;

  const held = await askHive(gateway, title('MID1234'), { authorization: 'Bearer dev-key-a2' });
  expect(held.errors?.[0]?.extensions).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: expect.any(Number) });
  expect(held.errors?.[0]?.message).toContain("The register refused this organisation's calls (429)");
  expect(titlegraph.emulator.calls.count({ route: 'token', clientId: 'client-a2' })).toBe(0);
  expect(titlegraph.emulator.calls.list().length).toBe(calls);

  // ORG-B, through the same gateway, signs in and reads.
  const other = await askHive(gateway, title('MID1234'), { authorization: 'Bearer dev-key-b' });
  expect(other).toEqual({ data: { title: { titleNumber: 'MID1234' } } });
});
