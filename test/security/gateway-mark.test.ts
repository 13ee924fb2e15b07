/**
 * A known gateway (its router key in titlegraph-router-key, beside the caller's own Authorization)
 * and the mark of its money rules (titlegraph-rules: chargeable/2): a chargeable mutation from a
 * known gateway without the mark is refused at execution with nothing sent to the register, on
 * graphql-js and on a document graphql-jit compiled; a wrong router key is 401 before anything is
 * read; the mark alone changes nothing; a request that only looks like a gateway's is served, with
 * a warning line and a metric. Judged on the emulator's call log and ledger. Run by the `core` and
 * the `production` vitest projects.
 */
import { describe, expect, test } from 'vitest';
import { logServiceEvents } from '../../src/observability/logging';
import { RULES_MARK, RULES_MARK_HEADER, ROUTER_KEY_HEADER } from '../../src/security/gateway-mark';
import { DEV_ROUTER_KEY } from '../../src/services/callers';
import { newKey, serviceForTest, type Service } from '../support/harness';
import { memoryLogger } from '../support/memory-logger';
import { postRaw, type RawAnswer } from '../support/post-raw';
import { parseMetrics, sum } from '../support/prometheus';

const PURCHASE = `mutation Buy($fas: FasNumber!, $input: PurchaseTitleInput!) {
  purchaseTitleDetails(fas: $fas, input: $input) { charges { fee transactionNumber } userErrors { code } }
}`;
const buying = (titleNumber: string, fas = '0877') => ({
  query: PURCHASE,
  variables: { fas, input: { titleNumber, idempotencyKey: newKey('mark') } },
});

type Bought = { purchaseTitleDetails: { charges: { fee: string; transactionNumber: string }[] } };

const FROM_GATEWAY = { [ROUTER_KEY_HEADER]: DEV_ROUTER_KEY };
const MARKED = { ...FROM_GATEWAY, [RULES_MARK_HEADER]: RULES_MARK };

const RULES_MISSING = {
  message:
    'purchaseTitleDetails was not run and nothing was sent to the register: this request came from a gateway (it presented a router key in titlegraph-router-key) without the mark of titlegraph\'s gateway money rules (titlegraph-rules: chargeable/2), so no rule checked that the chargeable mutation stands alone at the root of the client\'s operation. Install the rules of titlegraph/gateway-rules (src/security/gateway-rules.ts) at the gateway (docs/federation.md: "The money rules belong to the gateway too").',
  extensions: { code: 'CHARGEABLE_RULES_MISSING' },
};

/** What one request did at the register: its answer, its calls and the charges the ledger gained. */
async function judged(svc: Service, ask: () => Promise<RawAnswer<Bought>>) {
  svc.emulator.calls.reset();
  const before = svc.emulator.ledger.charges.length;
  const answer = await ask();
  return { answer, calls: svc.emulator.calls.count(), charged: svc.emulator.ledger.charges.length - before };
}

describe('a known gateway', () => {
  test('a purchase without the rules’ mark is refused at execution: no register call, no charge', async () => {
    const svc = await serviceForTest();
    const { answer, calls, charged } = await judged(svc, () => postRaw(svc.yoga, buying('MID1234'), FROM_GATEWAY));
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({ errors: [RULES_MISSING] });
    expect(calls).toBe(0);
    expect(charged).toBe(0);
  });

  test('under application/json (as gateways read errors) the refusal is 200 with the same error', async () => {
    const svc = await serviceForTest();
    const { answer, calls } = await judged(svc, () =>
      postRaw(svc.yoga, buying('MID1234'), { ...FROM_GATEWAY, accept: 'application/json' }),
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ errors: [RULES_MISSING] });
    expect(calls).toBe(0);
  });

  test('a mark of another version, an alias or a fragment changes nothing: refused', async () => {
    const svc = await serviceForTest();
    const documents = [
      PURCHASE,
      `mutation Buy($fas: FasNumber!, $input: PurchaseTitleInput!) { bought: purchaseTitleDetails(fas: $fas, input: $input) { charges { fee } } }`,
      `mutation Buy($fas: FasNumber!, $input: PurchaseTitleInput!) { ...B } fragment B on Mutation { purchaseTitleDetails(fas: $fas, input: $input) { charges { fee } } }`,
    ];
    for (const [query, headers] of [
      [documents[0], { ...FROM_GATEWAY, [RULES_MARK_HEADER]: 'chargeable/1' }],
      [documents[1], FROM_GATEWAY],
      [documents[2], FROM_GATEWAY],
    ] as const) {
      const { answer, calls, charged } = await judged(svc, () => postRaw(svc.yoga, { ...buying('MID1234'), query }, headers));
      expect(answer.body.errors?.map((e) => e.extensions?.code)).toEqual(['CHARGEABLE_RULES_MISSING']);
      expect(calls).toBe(0);
      expect(charged).toBe(0);
    }
  });

  test('with the mark the purchase is charged once, to the caller Authorization names (never the router key)', async () => {
    const svc = await serviceForTest();
    const { answer, charged } = await judged(svc, () =>
      postRaw<Bought>(svc.yoga, buying('MID1234', '5555'), { ...MARKED, authorization: 'Bearer dev-key-b' }),
    );
    expect(answer.body.errors).toBeUndefined();
    expect(answer.body.data!.purchaseTitleDetails.charges).toHaveLength(1);
    expect(charged).toBe(1);
    expect(svc.emulator.ledger.charges.at(-1)?.charge.transactionNumber).toBe(
      answer.body.data!.purchaseTitleDetails.charges[0]!.transactionNumber,
    );
    const viewer = await postRaw(svc.yoga, { query: '{ viewer { kind caller } }' }, { ...FROM_GATEWAY, authorization: 'Bearer dev-key-b' });
    expect(viewer.body).toEqual({ data: { viewer: { kind: 'API_KEY', caller: 'dev-key-b' } } });
  });

  test('what charges nothing needs no mark', async () => {
    const svc = await serviceForTest();
    const answer = await postRaw(svc.yoga, { query: '{ title(titleNumber: "MID15313") { titleNumber } }' }, FROM_GATEWAY);
    expect(answer.body).toEqual({ data: { title: { titleNumber: 'MID15313' } } });
  });

  test('a document graphql-jit compiled is refused the same way without the mark, and charged once with it', async () => {
    const svc = await serviceForTest({ app: { jit: { compileAfter: 1 } } });
    const compiled: string[] = [];
    svc.services.events.on('documentCompiled', (e) => compiled.push(e.outcome));
    // Two runs of the same text: the second is compiled (GRAPHQL_JIT_AFTER 1).
    for (const title of ['MID15313', 'BLK4101']) expect((await postRaw(svc.yoga, buying(title))).body.errors).toBeUndefined();
    expect(compiled).toEqual(['compiled']);

    const refused = await judged(svc, () => postRaw(svc.yoga, buying('MID1234'), FROM_GATEWAY));
    expect(refused.answer.body).toEqual({ errors: [RULES_MISSING] });
    expect(refused.calls).toBe(0);
    expect(refused.charged).toBe(0);

    const marked = await judged(svc, () => postRaw<Bought>(svc.yoga, buying('MID1234'), MARKED));
    expect(marked.answer.body.errors).toBeUndefined();
    expect(marked.answer.body.data!.purchaseTitleDetails.charges).toHaveLength(1);
    expect(marked.charged).toBe(1);
  });
});

describe('a router key that is not one', () => {
  test.for([
    ['an unknown key', 'no-such-router-key'],
    ["a caller's own API key", 'dev-key-b'],
    ['two keys', `${DEV_ROUTER_KEY}, ${DEV_ROUTER_KEY}`],
  ])('%s in titlegraph-router-key is 401 with a Bearer challenge, nothing read or sent', async ([, presented]) => {
    const svc = await serviceForTest();
    const { answer, calls, charged } = await judged(svc, () =>
      postRaw(svc.yoga, buying('MID1234'), { [ROUTER_KEY_HEADER]: presented!, [RULES_MARK_HEADER]: RULES_MARK }),
    );
    expect(answer.status).toBe(401);
    expect(answer.headers.get('www-authenticate')).toBe('Bearer');
    expect(answer.body).toEqual({
      errors: [
        {
          message:
            "The titlegraph-router-key header holds no router key of this service: send your gateway's router key there (a tenants-file entry with router: true), or leave the header out. Nothing was run.",
          extensions: { code: 'UNAUTHENTICATED' },
        },
      ],
    });
    expect(answer.text).not.toContain(presented);
    expect(calls).toBe(0);
    expect(charged).toBe(0);
  });
});

describe('the mark without a router key', () => {
  test('changes nothing: a direct purchase with or without it is charged once', async () => {
    const svc = await serviceForTest();
    for (const [title, headers] of [
      ['MID1234', { [RULES_MARK_HEADER]: RULES_MARK }],
      ['MID15313', {}],
    ] as const) {
      const { answer, charged } = await judged(svc, () => postRaw(svc.yoga, buying(title), headers));
      expect(answer.body.errors).toBeUndefined();
      expect(charged).toBe(1);
    }
  });
});

describe('a request that looks like a gateway’s but presents no router key', () => {
  const SIGNS: { sign: string; body: Record<string, unknown>; headers: Record<string, string> }[] = [
    {
      sign: 'subgraph_operation_name',
      body: { query: 'query Usage__titlegraph__0 { registerUsage { __typename } }', operationName: 'Usage__titlegraph__0' },
      headers: {},
    },
    {
      sign: 'entities',
      body: {
        query: 'query($r: [_Any!]!) { _entities(representations: $r) { ... on Title { titleNumber } } }',
        variables: { r: [{ __typename: 'Title', titleNumber: 'MID15313' }] },
      },
      headers: {},
    },
    { sign: 'service_sdl', body: { query: '{ _service { sdl } }' }, headers: {} },
    {
      sign: 'apollo_gateway_client',
      body: { query: '{ registerUsage { __typename } }' },
      headers: { 'user-agent': 'minipass-fetch/5.0.2 (+https://github.com/isaacs/minipass-fetch)' },
    },
    {
      sign: 'hive_gateway_accept',
      body: { query: '{ registerUsage { __typename } }' },
      headers: { accept: 'application/graphql-response+json, application/json, multipart/mixed', 'user-agent': 'node' },
    },
  ];

  test.for(SIGNS)('($sign) is served as before, with one warning line and the metric counted', async ({ sign, body, headers }) => {
    const { logger, lines } = memoryLogger();
    const svc = await serviceForTest({ app: { logger } });
    logServiceEvents(svc.services.events, logger);
    // As before: production refuses `_service` to all but a router key (introspection off).
    const refused = sign === 'service_sdl' && process.env.NODE_ENV === 'production' ? ['GRAPHQL_VALIDATION_FAILED'] : undefined;
    for (let i = 0; i < 2; i++) {
      const answer = await postRaw(svc.yoga, body, headers);
      expect(answer.body.errors?.map((e) => e.extensions?.code)).toEqual(refused);
    }
    const warnings = lines.filter((l) => l.event === 'gateway_without_router_key');
    // One line a minute per sign: an unconfigured gateway's every request would bury the log.
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ level: 40, sign });
    // Nothing of what the caller sent: no key, token, FAS or title, only why it looked like a gateway.
    expect(
      Object.keys(warnings[0]!).filter(
        (k) => !['level', 'time', 'pid', 'hostname', 'service', 'event', 'requestId', 'sign', 'msg'].includes(k),
      ),
    ).toEqual([]);
    expect(warnings[0]!.msg).toContain('titlegraph-router-key');
    expect(warnings[0]!.msg).not.toMatch(/dev-key|Bearer|0877|MID15313|minipass/);
    const metrics = parseMetrics(await (await svc.get('/metrics')).text());
    expect(sum(metrics, 'titlegraph_gateway_requests_without_router_key_total', { sign })).toBe(2);
    expect(sum(metrics, 'titlegraph_gateway_requests_without_router_key_total')).toBe(2);
  });

  test('a client request, and the router’s own request with its key as Authorization, count nothing', async () => {
    const { logger, lines } = memoryLogger();
    const svc = await serviceForTest({ app: { logger } });
    logServiceEvents(svc.services.events, logger);
    expect((await postRaw(svc.yoga, { query: 'query Usage { registerUsage { __typename } }' })).body.errors).toBeUndefined();
    expect((await postRaw(svc.yoga, buying('MID1234'))).body.errors).toBeUndefined();
    const sdl = await postRaw(svc.yoga, { query: '{ _service { sdl } }' }, { authorization: `Bearer ${DEV_ROUTER_KEY}` });
    expect(sdl.body.errors).toBeUndefined();
    const withKey = await postRaw(svc.yoga, { query: 'query Usage__titlegraph__0 { registerUsage { __typename } }' }, FROM_GATEWAY);
    expect(withKey.body.errors).toBeUndefined();
    expect(lines.filter((l) => l.event === 'gateway_without_router_key')).toEqual([]);
    const metrics = parseMetrics(await (await svc.get('/metrics')).text());
    expect(sum(metrics, 'titlegraph_gateway_requests_without_router_key_total')).toBe(0);
  });
});
