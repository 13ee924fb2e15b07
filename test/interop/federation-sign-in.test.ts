/**
 * People signed in at the firm's identity provider, calling titlegraph through a company graph:
 * Apollo Gateway and Hive Gateway, each loaded with the configuration the README points at
 * (examples/federation/), forward the person's own `Authorization: Bearer <access token>` to
 * titlegraph and to no other subgraph; the router's own requests use the router key. Tokens come
 * from a real OpenID Provider (the local one of `npm run idp`), signed in without a browser.
 * Through each gateway:
 * - titlegraph takes the caller to be the person (viewer: PERSON, their sub, name and scopes);
 * - Ann (titles:buy) buys: the register call is made with the provider's register client, and the
 *   journal names her (chargeRecords caller = her sub, callerName = her name);
 * - past her own daily limit (dailySpendLimitPerPerson) her next purchase is refused
 *   SPEND_LIMIT_REACHED, and nothing is sent;
 * - Ben (no titles:buy) is refused FORBIDDEN naming titles:buy, nothing sent, and sees only his
 *   own (empty) journal, not Ann's;
 * - a tampered token is refused by titlegraph through the gateway, with no register call.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { ApolloGateway, IntrospectAndCompose } from '@apollo/gateway';
import { createGatewayRuntime } from '@graphql-hive/gateway-runtime';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { ApolloServer } from '@apollo/server';
import { buildService, type GatewayContext } from '../../examples/federation/apollo-gateway';
import { chargeableRulesPlugin } from '../../src/security/gateway-rules';
import { titlegraphGatewayConfig } from '../../examples/federation/hive-gateway.config';
import { AUDIENCE } from '../../scripts/idp/defaults';
import { PEOPLE } from '../../scripts/idp/people';
import { startIdp, type Idp } from '../../scripts/idp/provider';
import { signIn } from '../../scripts/idp/sign-in';
import { DEV_API_KEYS, sha256Hex } from '../../src/services/callers';
import {
  composeWithTitlegraph,
  type GatewayAnswer,
  quietApolloLogger,
  serveSubgraph,
  type Subgraph,
  MATTERS_SDL,
} from '../support/federation';
import { startService } from '../support/harness';
import { closeServer, listen } from '../support/http-service';

const ROUTER_KEY = 'router-key-federation-sign-in';
/** Ann's own limit: one £3.00 purchase fits, a second does not (in pence in the options; "5.00" in a tenants file). */
const PERSON_LIMIT = '5.00';
const PERSON_LIMIT_PENCE = 500;
const [ann, ben] = PEOPLE as [(typeof PEOPLE)[number], (typeof PEOPLE)[number]];

let idp: Idp;
const tokens: Record<string, string> = {};

beforeAll(async () => {
  // The client's redirect address is never opened: the code is read from the redirect itself.
  idp = await startIdp({ port: 0, clientOrigins: ['http://127.0.0.1:9'] });
  for (const person of [ann, ben]) {
    const signedIn = await signIn({
      issuer: idp.issuer,
      login: person.login,
      password: person.password,
      redirectUri: idp.redirectUris[0]!,
    });
    tokens[person.login] = signedIn.access_token;
  }
}, 60_000);

afterAll(async () => {
  await idp?.close();
});

const VIEWER = '{ viewer { kind caller callerName apiClient organisation scopes } }';
const purchase = (titleNumber: string, idempotencyKey: string) =>
  `mutation { purchaseTitleDetails(fas: "0877", input: { titleNumber: "${titleNumber}", idempotencyKey: "${idempotencyKey}" }) { charges { fee } userErrors { code message } } }`;
const SPENDING = '{ spending { day caller { charged limit } } }';
const journal = (day: string) => `{ chargeRecords(day: "${day}") { caller callerName titleNumber apiClient } }`;

interface Gateway {
  /** The client operation through the gateway, with the person's token as the client sent it. */
  ask(query: string, token: string): Promise<GatewayAnswer>;
  stop(): Promise<void>;
}

/** Apollo Gateway with examples/federation/apollo-gateway.ts: the context carries the client's headers, as Apollo Server's would. */
async function apolloGateway(titlegraphUrl: string, matters: Subgraph): Promise<Gateway> {
  const gateway = new ApolloGateway({
    // (its titlegraph data source drops the @requiresScopes it cannot enforce; titlegraph enforces them)
    supergraphSdl: new IntrospectAndCompose({
      subgraphs: [
        { name: 'titlegraph', url: titlegraphUrl },
        { name: 'matters', url: matters.url },
      ],
    }),
    buildService: buildService(ROUTER_KEY),
    logger: quietApolloLogger,
  });
  // Behind Apollo Server with the money rules, as the README installs them: without their mark titlegraph refuses a purchase.
  const server = new ApolloServer<GatewayContext>({ gateway, plugins: [chargeableRulesPlugin()], logger: quietApolloLogger });
  await server.start();
  return {
    async ask(query, token) {
      const response = await server.executeOperation({ query }, { contextValue: { headers: { authorization: `Bearer ${token}` } } });
      return (response.body.kind === 'single' ? response.body.singleResult : {}) as GatewayAnswer;
    },
    stop: () => server.stop(),
  };
}

/** Hive Gateway with examples/federation/hive-gateway.config.ts, over the supergraph composed with the router key. */
async function hiveGateway(titlegraphUrl: string, matters: Subgraph): Promise<Gateway> {
  const supergraph = await composeWithTitlegraph(titlegraphUrl, [matters], ROUTER_KEY);
  const gateway = createGatewayRuntime({ supergraph, logging: false, ...titlegraphGatewayConfig } as never);
  return {
    async ask(query, token) {
      const response = await gateway.fetch('http://gateway.test/graphql', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query }),
      });
      return (await response.json()) as GatewayAnswer;
    },
    stop: async () => {
      await gateway.dispose();
    },
  };
}

describe.each([
  ['Apollo Gateway', apolloGateway],
  ['Hive Gateway', hiveGateway],
] as const)("%s forwarding a signed-in person's token", (name, makeGateway) => {
  /** Idempotency keys of this gateway's run. */
  const key = (label: string) => `${label}-${name.replace(/\W/g, '-')}`;
  let titlegraph: Awaited<ReturnType<typeof startService>>;
  let titlegraphServer: Server;
  let matters: Subgraph;
  let gateway: Gateway;
  const seenBy = { titlegraph: [] as IncomingHttpHeaders[], matters: [] as IncomingHttpHeaders[] };
  const forget = () => {
    seenBy.titlegraph.length = 0;
    seenBy.matters.length = 0;
    titlegraph.emulator.calls.reset();
  };

  beforeAll(async () => {
    // A service of its own per gateway, so that each starts with Ann's day unspent.
    titlegraph = await startService({
      services: {
        apiKeys: [...DEV_API_KEYS, { name: 'gateway', apiKeySha256: sha256Hex(ROUTER_KEY), router: true }],
        identityProviders: [
          {
            name: 'local-idp',
            issuer: idp.issuer,
            audience: AUDIENCE,
            organisation: 'ORG-A',
            clientId: 'client-a',
            clientSecret: 'secret-a',
            dailySpendLimitPerPerson: PERSON_LIMIT_PENCE,
          },
        ],
      },
    });
    titlegraphServer = createServer((req, res) => {
      seenBy.titlegraph.push(req.headers);
      titlegraph.yoga(req, res);
    });
    const titlegraphUrl = `${await listen(titlegraphServer)}/graphql`;
    matters = await serveSubgraph(
      'matters',
      MATTERS_SDL,
      {
        Query: { matters: () => [{ id: 'm1', titleNumber: 'MID15313' }] },
        Matter: { title: (m: { titleNumber: string }) => ({ __typename: 'Title', titleNumber: m.titleNumber }) },
      },
      (headers) => seenBy.matters.push(headers),
    );
    gateway = await makeGateway(titlegraphUrl, matters);
  }, 60_000);

  afterAll(async () => {
    await gateway?.stop();
    if (matters) await closeServer(matters.server);
    if (titlegraphServer) await closeServer(titlegraphServer);
    await titlegraph?.stop();
  });

  test("the person's token reaches titlegraph and no other subgraph; titlegraph takes the caller to be that person", async () => {
    forget();
    const answer = await gateway.ask(
      `{ viewer { kind caller callerName scopes } matters { id title { titleNumber status } } }`,
      tokens.ann!,
    );
    expect(answer.errors).toBeUndefined();
    expect(answer.data.viewer).toEqual({ kind: 'PERSON', caller: 'ann', callerName: 'Ann Macleod', scopes: [...ann.scopes] });
    expect(answer.data.matters).toEqual([{ id: 'm1', title: { titleNumber: 'MID15313', status: 'REGISTERED' } }]);
    expect(seenBy.titlegraph.length).toBeGreaterThanOrEqual(1);
    for (const headers of seenBy.titlegraph) expect(headers.authorization).toBe(`Bearer ${tokens.ann}`);
    expect(seenBy.matters.map((h) => h.authorization)).toEqual([undefined]);
    // the title's summary was read with the identity provider's register client
    expect(titlegraph.emulator.calls.count({ route: 'titleSummary', clientId: 'client-a' })).toBe(1);
  });

  test("Ann buys: the register call is her organisation's client's, and the journal names her (caller = her sub)", async () => {
    forget();
    const viewer = await gateway.ask(VIEWER, tokens.ann!);
    expect(viewer.data.viewer).toMatchObject({ kind: 'PERSON', caller: 'ann', apiClient: 'client-a', organisation: 'ORG-A' });

    const bought = await gateway.ask(purchase('MID1234', key('ann-1')), tokens.ann!);
    expect(bought.errors).toBeUndefined();
    expect(bought.data.purchaseTitleDetails).toEqual({ charges: [{ fee: '3.00' }], userErrors: [] });
    expect(titlegraph.emulator.calls.count({ route: 'titleDetails' })).toBe(1);
    expect(titlegraph.emulator.calls.count({ route: 'titleDetails', clientId: 'client-a' })).toBe(1);

    const spending = await gateway.ask(SPENDING, tokens.ann!);
    expect(spending.data.spending.caller).toEqual({ charged: '3.00', limit: PERSON_LIMIT });
    const records = await gateway.ask(journal(spending.data.spending.day), tokens.ann!);
    expect(records.errors).toBeUndefined();
    expect(records.data.chargeRecords).toEqual([
      { caller: 'ann', callerName: 'Ann Macleod', titleNumber: 'MID1234', apiClient: 'client-a' },
    ]);
  });

  test('past her own daily limit, her next purchase is refused SPEND_LIMIT_REACHED and nothing is sent', async () => {
    forget();
    const refused = await gateway.ask(purchase('MID15313', key('ann-2')), tokens.ann!);
    expect(refused.errors).toBeUndefined();
    expect(refused.data.purchaseTitleDetails.charges).toEqual([]);
    expect(refused.data.purchaseTitleDetails.userErrors).toEqual([expect.objectContaining({ code: 'SPEND_LIMIT_REACHED' })]);
    expect(refused.data.purchaseTitleDetails.userErrors[0].message).toContain(PERSON_LIMIT);
    expect(titlegraph.emulator.calls.count({ route: 'titleDetails' })).toBe(0);
    expect(titlegraph.emulator.ledger.count({ titleNumber: 'MID15313' })).toBe(0);
  });

  test('Ben, without titles:buy, is refused FORBIDDEN naming the scope, nothing is sent, and he sees his own journal only', async () => {
    forget();
    const refused = await gateway.ask(purchase('MID1234', key('ben-1')), tokens.ben!);
    expect(refused.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(refused.errors?.[0]?.message).toContain('titles:buy');
    expect(refused.data?.purchaseTitleDetails ?? null).toBeNull();
    expect(titlegraph.emulator.calls.count()).toBe(0);

    const spending = await gateway.ask(SPENDING, tokens.ben!);
    const records = await gateway.ask(journal(spending.data.spending.day), tokens.ben!);
    expect(records.errors).toBeUndefined();
    // Ann's purchase of the same day is not his to see
    expect(records.data.chargeRecords).toEqual([]);
  });

  test('a tampered token is refused by titlegraph through the gateway, with no register call', async () => {
    forget();
    const [header, payload, signature] = tokens.ann!.split('.') as [string, string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const forged = [
      header,
      Buffer.from(JSON.stringify({ ...claims, scope: 'titles:read titles:buy charges:organisation' })).toString('base64url'),
      signature,
    ].join('.');
    const answer = await gateway.ask(purchase('GLA5001', key('forged')), forged);
    expect(answer.data?.purchaseTitleDetails ?? null).toBeNull();
    expect(answer.errors?.length).toBeGreaterThan(0);
    expect(JSON.stringify(answer.errors)).not.toContain(forged);
    expect(seenBy.titlegraph.map((h) => h.authorization)).toContain(`Bearer ${forged}`);
    expect(titlegraph.emulator.calls.count()).toBe(0);
  });
});
