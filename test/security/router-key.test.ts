/**
 * A federation router's key reads the schema and nothing else: no query, purchase, journal,
 * statement or download, and no register call, whatever it asks; a gateway that forwards it for
 * its clients' requests gets the refusal that says to forward the caller's own key.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/security/settings';
import { DEV_API_KEYS, sha256Hex } from '../../src/services/callers';
import { startService } from '../support/harness';
import { postRaw } from '../support/post-raw';

type Svc = Awaited<ReturnType<typeof startService>>;
let svc: Svc;
const ROUTER = { name: 'gateway', apiKeySha256: sha256Hex('router-key'), router: true };
beforeAll(async () => {
  svc = await startService({
    services: { apiKeys: [...DEV_API_KEYS, ROUTER] },
    app: { hardening: { limits: DEFAULT_LIMITS, introspection: false, fieldSuggestions: false } },
  });
});
afterAll(() => svc.stop());

const asRouter = (query: string, variables?: Record<string, unknown>, headers: Record<string, string> = {}) =>
  postRaw(svc.yoga, { query, variables }, { authorization: 'Bearer router-key', ...headers });

describe('the router key', () => {
  test('reads _service { sdl } and answers a health check', async () => {
    svc.emulator.calls.reset();
    const sdl = await asRouter('{ _service { sdl } }');
    expect(sdl.body.errors).toBeUndefined();
    expect((sdl.body.data as { _service: { sdl: string } })._service.sdl).toContain('type Title');
    const health = await asRouter('query __ApolloServiceHealthCheck__ { __typename }');
    expect(health.body).toEqual({ data: { __typename: 'Query' } });
    expect(svc.emulator.calls.count()).toBe(0);
  });

  test.for([
    ['a title', '{ title(titleNumber: "MID1234") { titleNumber } }'],
    [
      'entities, as a gateway forwarding it for a client would send',
      '{ _entities(representations: [{ __typename: "Title", titleNumber: "MID1234" }]) { ... on Title { status } } }',
    ],
    ['a journal', '{ chargeRecords(day: "2026-11-25") { idempotencyKey } }'],
    ['a statement', '{ chargeStatement(from: "2026-11-25", to: "2026-11-25") { total } }'],
    ['the schema and a title together', '{ _service { sdl } title(titleNumber: "MID1234") { titleNumber } }'],
    [
      'a purchase',
      'mutation { purchaseTitleDetails(fas: "0877", input: { titleNumber: "MID1234", idempotencyKey: "router-buy" }) { charges { fee } } }',
    ],
  ])('is refused %s, with no register call and nothing charged', async ([, query]) => {
    svc.emulator.calls.reset();
    const answer = await asRouter(query!);
    expect(answer.status).toBe(403);
    expect(answer.body.data ?? null).toBeNull();
    expect(answer.body.errors).toEqual([
      {
        message:
          "This API key belongs to a federation router: it may read the schema (_service { sdl }) and answer a health check, and nothing else. Forward each caller's own API key (their Authorization header) to titlegraph for their requests.",
        extensions: { code: 'ROUTER_KEY_NOT_A_CLIENT' },
      },
    ]);
    expect(svc.emulator.calls.count()).toBe(0);
    expect(svc.emulator.ledger.count()).toBe(0);
  });

  test('cannot download or take a statement as CSV', async () => {
    for (const path of ['/downloads/titles/MID15313/documents/doc-1', '/statements.csv?from=2026-11-25&to=2026-11-25']) {
      const response = await svc.get(path, 'router-key');
      expect(response.status).toBe(403);
      expect(await response.json()).toMatchObject({ error: { code: 'ROUTER_KEY_NOT_A_CLIENT' } });
    }
    expect(svc.emulator.calls.count({ route: 'document' })).toBe(0);
  });
});
