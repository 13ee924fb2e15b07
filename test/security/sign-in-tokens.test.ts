/**
 * People call with their identity provider's JWT access token: a token is accepted only when it
 * verifies against a key its issuer publishes (found through the issuer's discovery document,
 * served here on 127.0.0.1), and anything else is 401 invalid_token (RFC 6750) naming what was
 * wrong without repeating the token, or 503 when the provider's keys cannot be fetched. Every
 * refusal is judged on the emulator's call log too: nothing reached the register.
 */
import { request as httpRequest } from 'node:http';
import { exportSPKI, SignJWT } from 'jose';
import { print } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { describe, expect, onTestFinished, test } from 'vitest';
import { londonDate } from '../../src/register/contract/london-day';
import { serve } from '../../src/server/serve';
import { DEV_API_KEYS, sha256Hex } from '../../src/services/callers';
import { BuyTitleMutation, CallerRecordsQuery, CallerSpendingQuery, StatementPageQuery, ViewerQuery } from '../support/documents';
import { newKey, type Service, serviceForTest } from '../support/harness';
import { type TestIssuer, tokenIssuerForTest } from '../support/token-issuer';
import { postRaw } from '../support/post-raw';
import type { IdentityProviderConfig } from '../../src/services/identity';

const today = () => londonDate(new Date());
const buy = (titleNumber: string) => ({ fas: '0877', input: { titleNumber, idempotencyKey: newKey('buy') } });
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const now = () => Math.floor(Date.now() / 1000);

/** No fetch is held back in these tests: a rotation is seen at once (the cooldown has its own test). */
const NO_WAITS = { timing: { jwksCooldownMs: 0, failureBackoffMs: 0 } };

async function serviceTrusting(issuer: TestIssuer, provider: Partial<IdentityProviderConfig> = {}, identity = NO_WAITS) {
  // No keyless caller: a request without credentials is refused, as against a real register.
  return serviceForTest({ services: { identityProviders: [issuer.provider(provider)], identity, anonymousKey: undefined } });
}

/** The request as a browser or gateway sends it, and the whole response (status, headers, body). */
function send<R, V>(svc: Service, document: TypedDocumentNode<R, V>, variables: V, token: string | null) {
  return postRaw<R>(svc.yoga, { query: print(document), variables }, { authorization: token === null ? null : `Bearer ${token}` });
}

describe('a bad token is refused with 401 invalid_token, saying what was wrong, and nothing is sent', () => {
  const cases: [string, (issuer: TestIssuer) => Promise<string>, RegExp][] = [
    [
      'alg none',
      async (i) => `${b64({ alg: 'none', typ: 'at+jwt' })}.${b64({ iss: i.issuer, aud: 'titlegraph', sub: 'x', exp: now() + 300 })}.`,
      /signature algorithm is not accepted/,
    ],
    [
      'HS256 signed with the public key',
      async (i) => {
        const key = (await i.strangerKey()).publicKey;
        const pem = new TextEncoder().encode(await exportSPKI(key));
        return new SignJWT({ iss: i.issuer, aud: 'titlegraph', sub: 'x', exp: now() + 300 }).setProtectedHeader({ alg: 'HS256' }).sign(pem);
      },
      /signature algorithm is not accepted/,
    ],
    ['expired', (i) => i.sign({ iat: now() - 600, exp: now() - 120 }), /has expired/],
    ['not valid yet (nbf)', (i) => i.sign({ nbf: now() + 600, exp: now() + 900 }), /not valid yet/],
    ['issued in the future (iat)', (i) => i.sign({ iat: now() + 600, exp: now() + 900 }), /issued in the future/],
    [
      'another issuer',
      (i) => i.sign({ iss: 'https://login.stranger.example' }),
      /issuer \(iss\) is not an identity provider this service trusts/,
    ],
    ['another audience', (i) => i.sign({ aud: 'someone-else' }), /audience \(aud\) does not include titlegraph/],
    ['no subject', (i) => i.sign({ sub: undefined }), /no subject/],
    ['no expiry', (i) => i.sign({ exp: undefined }), /no expiry/],
    [
      'an unknown kid',
      async (i) => i.sign({}, { key: (await i.strangerKey()).privateKey, kid: 'never-published' }),
      /key its issuer does not publish/,
    ],
    [
      "a stranger's key under a known kid",
      async (i) => i.sign({}, { key: (await i.strangerKey()).privateKey }),
      /signature does not verify/,
    ],
    ['an ID token (typ)', (i) => i.sign({}, { header: { typ: 'logout+jwt' } }), /not an access token/],
    ['not JSON inside', async () => 'eyJub3Q.anNvbg.c2ln', /not a well-formed JWT/],
    ['a 12 KB token', (i) => i.sign({ padding: 'x'.repeat(9_000) }), /the token is 12\d{3} bytes; at most 8192/],
  ];

  test.for(cases)('%s', async ([, make, why]) => {
    const issuer = await tokenIssuerForTest();
    const svc = await serviceTrusting(issuer);
    const token = await make(issuer);
    const { status, headers, text, body } = await send(svc, BuyTitleMutation, buy('MID15313'), token);
    expect(status).toBe(401);
    const challenge = headers.get('www-authenticate')!;
    expect(challenge).toMatch(/^Bearer error="invalid_token", error_description="[^"\\]+"$/);
    expect(challenge).toMatch(why);
    expect(body.errors![0]).toMatchObject({ extensions: { code: 'UNAUTHENTICATED' }, message: expect.stringMatching(why) });
    expect(body.data ?? null).toBeNull();
    // Neither the token nor its claims are repeated back.
    for (const part of token.split('.').filter((p) => p.length > 8)) expect(text + challenge).not.toContain(part);
    expect(svc.emulator.calls.count()).toBe(0);
  });

  test('the unknown kid was looked for once more at the provider before the refusal', async () => {
    const issuer = await tokenIssuerForTest();
    const svc = await serviceTrusting(issuer);
    expect((await send(svc, ViewerQuery, {}, await issuer.sign())).status).toBe(200);
    expect(issuer.jwksFetches()).toBe(1);
    const stranger = await issuer.sign({}, { key: (await issuer.strangerKey()).privateKey, kid: 'rotated-maybe' });
    expect((await send(svc, ViewerQuery, {}, stranger)).status).toBe(401);
    expect(issuer.jwksFetches()).toBe(2);
  });
});

describe("the provider's keys", () => {
  test('a token under a newly published key (a rotation) is accepted without a restart; the old key keeps working', async () => {
    const issuer = await tokenIssuerForTest();
    const svc = await serviceTrusting(issuer);
    const before = await issuer.sign({ sub: 'before' });
    // Signed under the old key, first sent after the rotation (so never verified before it).
    const unsentBefore = await issuer.sign({ sub: 'before-unsent' });
    expect((await send(svc, ViewerQuery, {}, before)).body.data!.viewer.caller).toBe('before');
    await issuer.rotate();
    const after = await issuer.sign({ sub: 'after' });
    expect((await send(svc, ViewerQuery, {}, after)).body.data!.viewer.caller).toBe('after');
    expect(issuer.jwksFetches()).toBe(2);
    expect((await send(svc, ViewerQuery, {}, unsentBefore)).body.data!.viewer.caller).toBe('before-unsent');
  });

  test('made-up kids cost the provider at most one fetch per cooldown; within it an unknown kid is 503 with Retry-After, not a sign-out', async () => {
    const issuer = await tokenIssuerForTest();
    const svc = await serviceTrusting(issuer, {}, { timing: { jwksCooldownMs: 60_000, failureBackoffMs: 0 } });
    expect((await send(svc, ViewerQuery, {}, await issuer.sign())).status).toBe(200);
    const stranger = (await issuer.strangerKey()).privateKey;
    for (const kid of ['a', 'b', 'c', 'd']) {
      const refused = await send(svc, ViewerQuery, {}, await issuer.sign({}, { key: stranger, kid }));
      expect(refused.status).toBe(503);
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(50);
      expect(refused.body.errors![0]!.extensions!.code).toBe('IDENTITY_PROVIDER_UNAVAILABLE');
    }
    expect(issuer.jwksFetches()).toBe(1);
  });

  test('provider down while its keys must be fetched: 503 with Retry-After, "could not verify your sign-in now"; then accepted once it is back', async () => {
    const issuer = await tokenIssuerForTest();
    const svc = await serviceTrusting(issuer);
    issuer.down();
    const token = await issuer.sign();
    const refused = await send(svc, BuyTitleMutation, buy('MID15313'), token);
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.body.errors![0]).toMatchObject({
      extensions: { code: 'IDENTITY_PROVIDER_UNAVAILABLE' },
      message: expect.stringContaining('could not verify your sign-in now'),
    });
    expect(svc.emulator.calls.count()).toBe(0);
    issuer.up();
    expect((await send(svc, ViewerQuery, {}, token)).status).toBe(200);
  });

  test('keys already fetched keep verifying while the provider is down; a new key then gets 503, not 401', async () => {
    const issuer = await tokenIssuerForTest();
    const svc = await serviceTrusting(issuer);
    expect((await send(svc, ViewerQuery, {}, await issuer.sign())).status).toBe(200);
    issuer.down();
    expect((await send(svc, ViewerQuery, {}, await issuer.sign({ sub: 'still-fine' }))).body.data!.viewer.caller).toBe('still-fine');
    await issuer.rotate();
    expect((await send(svc, ViewerQuery, {}, await issuer.sign({ sub: 'new-key' }))).status).toBe(503);
  });
});

test("beyond the server's header limit (Node's 16 KB): 431 from the HTTP server itself, nothing sent", async () => {
  const issuer = await tokenIssuerForTest();
  const svc = await serviceTrusting(issuer);
  const serving = await serve(svc.yoga, { port: 0, host: '127.0.0.1' });
  onTestFinished(() => serving.drain({ deadlineMs: 1_000 }).then(() => undefined));
  const token = await issuer.sign({ padding: 'x'.repeat(15_000) });
  const status = await new Promise<number>((resolve, reject) => {
    const req = httpRequest(
      { host: '127.0.0.1', port: serving.port, path: '/graphql', method: 'POST', headers: { authorization: `Bearer ${token}` } },
      (res) => {
        res.resume();
        resolve(res.statusCode!);
      },
    );
    req.on('error', reject);
    req.end('{"query":"{ viewer { caller } }"}');
  });
  expect(status).toBe(431);
  expect(svc.emulator.calls.count()).toBe(0);
  expect(issuer.jwksFetches()).toBe(0);
});

describe('a signed-in person', () => {
  test('is who viewer says: their subject and name, their provider’s register client and organisation, the scopes of their token this service knows', async () => {
    const issuer = await tokenIssuerForTest();
    const svc = await serviceTrusting(issuer);
    const token = await issuer.sign({ scope: 'titles:read charges:read admin:everything' });
    expect((await send(svc, ViewerQuery, {}, token)).body.data!.viewer).toEqual({
      kind: 'PERSON',
      caller: 'person-1',
      callerName: 'Alice Conveyancer',
      apiClient: 'client-a',
      organisation: 'ORG-A',
      scopes: ['titles:read', 'charges:read'],
    });
    // `scp` as an array, and the e-mail when the token has no name.
    const other = await issuer.sign({ scope: undefined, scp: ['titles:read'], name: undefined, email: 'bob@firm-a.example' });
    expect((await send(svc, ViewerQuery, {}, other)).body.data!.viewer).toMatchObject({
      callerName: 'bob@firm-a.example',
      scopes: ['titles:read'],
    });
    expect(svc.emulator.calls.count()).toBe(0);
  });

  test('buys under their own name: the journal, the statement and /statements.csv name them; they see their own calls, charges:organisation sees everyone’s', async () => {
    const issuer = await tokenIssuerForTest();
    const svc = await serviceTrusting(issuer);
    const alice = await issuer.sign();
    const bob = await issuer.sign({ sub: 'person-2', name: 'Bob Clerk' });
    expect((await send(svc, BuyTitleMutation, buy('BLK1'), alice)).body.data!.purchaseTitleDetails.charges).toHaveLength(1);
    expect((await send(svc, BuyTitleMutation, buy('BLK2'), bob)).body.data!.purchaseTitleDetails.charges).toHaveLength(1);
    expect(svc.emulator.ledger.charges.map((c) => c.clientId)).toEqual(['client-a', 'client-a']);

    expect((await send(svc, CallerRecordsQuery, { day: today() }, alice)).body.data!.chargeRecords).toEqual([
      { titleNumber: 'BLK1', caller: 'person-1', callerName: 'Alice Conveyancer', apiClient: 'client-a' },
    ]);
    const statement = (token: string, caller?: string) =>
      send(svc, StatementPageQuery, { from: today(), to: today(), ...(caller ? { caller } : {}) }, token);
    expect((await statement(alice)).body.data!.chargeStatement.records.map((r) => r.caller)).toEqual(['person-1']);
    const refused = await statement(alice, 'person-2');
    expect(refused.body.errors![0]).toMatchObject({
      extensions: { code: 'FORBIDDEN' },
      message: expect.stringContaining('charges:organisation'),
    });

    const accounts = await issuer.sign({ sub: 'accounts-1', scope: 'charges:read charges:organisation' });
    expect((await statement(accounts)).body.data!.chargeStatement.records.map((r) => [r.titleNumber, r.caller, r.callerName])).toEqual([
      ['BLK1', 'person-1', 'Alice Conveyancer'],
      ['BLK2', 'person-2', 'Bob Clerk'],
    ]);
    expect((await statement(accounts, 'person-2')).body.data!.chargeStatement.records.map((r) => r.titleNumber)).toEqual(['BLK2']);
    // The organisation's accounts key sees them too, by name.
    expect(
      (await svc.gql(StatementPageQuery, { from: today(), to: today() }, 'dev-key-a')).data!.chargeStatement.records.map((r) => r.caller),
    ).toEqual(['person-1', 'person-2']);

    const csv = await svc.yoga.fetch(`http://titlegraph.test/statements.csv?from=${today()}&to=${today()}`, {
      headers: { authorization: `Bearer ${alice}` },
    });
    expect(csv.status).toBe(200);
    const lines = (await csv.text()).trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatch(/,person-1,Alice Conveyancer,person:[^,:]+:person-1$/);
    const noScope = await svc.yoga.fetch(`http://titlegraph.test/statements.csv?from=${today()}&to=${today()}`, {
      headers: { authorization: `Bearer ${await issuer.sign({ scope: 'titles:read' })}` },
    });
    expect(noScope.status).toBe(403);
    expect(await noScope.json()).toMatchObject({ error: { code: 'FORBIDDEN', message: expect.stringContaining('charges:read') } });
  });

  test("has their own day's limit (dailySpendLimitPerPerson): a purchase past it is SPEND_LIMIT_REACHED naming that limit, and nothing is sent", async () => {
    const issuer = await tokenIssuerForTest();
    const svc = await serviceTrusting(issuer, { dailySpendLimitPerPerson: 300 });
    const alice = await issuer.sign();
    expect((await send(svc, BuyTitleMutation, buy('BLK1'), alice)).body.data!.purchaseTitleDetails.charges).toHaveLength(1);
    const refused = await send(svc, BuyTitleMutation, buy('BLK2'), alice);
    expect(refused.body.data!.purchaseTitleDetails.userErrors).toEqual([
      expect.objectContaining({ code: 'SPEND_LIMIT_REACHED', message: expect.stringContaining('your own daily spending limit of 3.00') }),
    ]);
    expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(1);
    expect((await send(svc, CallerSpendingQuery, {}, alice)).body.data!.spending.caller).toEqual({
      charged: '3.00',
      pending: '0.00',
      limit: '3.00',
      remaining: '0.00',
    });
    // Each person's limit is their own: another person of the same provider still buys.
    const bob = await issuer.sign({ sub: 'person-2' });
    expect((await send(svc, BuyTitleMutation, buy('BLK2'), bob)).body.data!.purchaseTitleDetails.charges).toHaveLength(1);
    expect(svc.emulator.ledger.charges).toHaveLength(2);
  });

  test('without titles:buy, a purchase is FORBIDDEN naming the scope, and nothing is sent', async () => {
    const issuer = await tokenIssuerForTest();
    const svc = await serviceTrusting(issuer);
    const reader = await issuer.sign({ scope: 'titles:read charges:read' });
    const refused = await send(svc, BuyTitleMutation, buy('MID15313'), reader);
    expect(refused.status).toBe(403);
    expect(refused.body.data ?? null).toBeNull();
    expect(refused.body.errors).toEqual([
      expect.objectContaining({
        message: expect.stringContaining('purchaseTitleDetails needs the titles:buy scope'),
        extensions: expect.objectContaining({ code: 'FORBIDDEN', field: 'Mutation.purchaseTitleDetails', missingScopes: ['titles:buy'] }),
      }),
    ]);
    expect(svc.emulator.calls.count()).toBe(0);
    expect(svc.emulator.ledger.charges).toHaveLength(0);
  });
});

test('an API key has the scopes the tenants file gives it: a read-only key may not buy, and nothing is sent', async () => {
  const readOnly = {
    name: 'reader',
    apiKeySha256: sha256Hex('reader-key'),
    clientId: 'client-a',
    clientSecret: 'secret-a',
    scopes: ['titles:read' as const],
  };
  const svc = await serviceForTest({ services: { apiKeys: [...DEV_API_KEYS, readOnly] } });
  const refused = await svc.gql(BuyTitleMutation, buy('MID15313'), 'reader-key');
  expect(refused.errors?.[0]).toMatchObject({ extensions: { code: 'FORBIDDEN', missingScopes: ['titles:buy'] } });
  expect(svc.emulator.calls.count()).toBe(0);
  expect((await svc.gql(ViewerQuery, {}, 'reader-key')).data!.viewer.scopes).toEqual(['titles:read']);
});

test("a browser's front end reads the refusal: CORS headers on the 401, with WWW-Authenticate exposed", async () => {
  const issuer = await tokenIssuerForTest();
  const svc = await serviceForTest({
    services: { identityProviders: [issuer.provider()], identity: NO_WAITS, anonymousKey: undefined },
    app: { corsOrigins: ['https://app.firm-a.example'] },
  });
  const expired = await issuer.sign({ iat: now() - 900, exp: now() - 600 });
  const response = await postRaw(
    svc.yoga,
    { query: '{ viewer { caller } }' },
    { origin: 'https://app.firm-a.example', authorization: `Bearer ${expired}`, accept: null },
  );
  expect(response.status).toBe(401);
  expect(response.headers.get('access-control-allow-origin')).toBe('https://app.firm-a.example');
  expect(response.headers.get('access-control-expose-headers')).toContain('www-authenticate');
  expect(response.headers.get('www-authenticate')).toContain('the token has expired');
});
