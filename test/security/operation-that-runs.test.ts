/**
 * The security rules judge the operation that runs (`operationName`, as execution picks it), not
 * the document's first one or any other: one lookup (`operationToRun` in request-record.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/security/settings';
import { DEV_API_KEYS, sha256Hex } from '../../src/services/callers';
import { startService } from '../support/harness';

let svc: Awaited<ReturnType<typeof startService>>;
beforeAll(async () => {
  svc = await startService({
    services: { apiKeys: [...DEV_API_KEYS, { name: 'gateway', apiKeySha256: sha256Hex('router-key'), router: true }] },
    app: { hardening: { limits: DEFAULT_LIMITS, introspection: false, fieldSuggestions: false } },
  });
});
afterAll(() => svc.stop());

async function run(key: string, query: string, operationName: string) {
  const response = await svc.yoga.fetch('http://titlegraph.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', authorization: `Bearer ${key}` },
    body: JSON.stringify({ query, operationName }),
  });
  return (await response.json()) as { data?: Record<string, unknown>; errors?: { extensions?: { code?: string } }[] };
}

const TITLE_THEN_SCHEMA = 'query Title { title(titleNumber: "MID1234") { titleNumber } } query Schema { _service { sdl } }';

describe('the operation that runs decides', () => {
  test("a router's key: the schema operation is answered, the title one refused, whichever comes first", async () => {
    svc.emulator.calls.reset();
    const schema = await run('router-key', TITLE_THEN_SCHEMA, 'Schema');
    expect(schema.errors).toBeUndefined();
    expect(schema.data).toHaveProperty('_service.sdl');
    const title = await run('router-key', TITLE_THEN_SCHEMA, 'Title');
    expect(title.errors?.map((e) => e.extensions?.code)).toEqual(['ROUTER_KEY_NOT_A_CLIENT']);
    expect(svc.emulator.calls.count({ route: 'titleSummary' })).toBe(0);
  });

  test('with introspection off, a client is refused _service only in the operation that asks for it', async () => {
    const schema = await run('dev-key-a', TITLE_THEN_SCHEMA, 'Schema');
    expect(schema.errors?.map((e) => e.extensions?.code)).toEqual(['GRAPHQL_VALIDATION_FAILED']);
    const title = await run('dev-key-a', TITLE_THEN_SCHEMA, 'Title');
    expect(title.errors).toBeUndefined();
    expect(title.data).toEqual({ title: { titleNumber: 'MID1234' } });
  });
});
