/**
 * Tokens that cannot outlive their key or their purpose (RFC 9068, RFC 8725): a verification kept
 * in memory is checked again against the provider's current keys, a token must be an access token
 * with a bounded lifetime in seconds, and names no control character. Every refusal is judged on
 * the emulator's call log too: a purchase refused so sent nothing.
 */
import { request as httpRequest } from 'node:http';
import { print } from 'graphql';
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, onTestFinished, test } from 'vitest';
import { serve } from '../../src/server/serve';
import { BuyTitleMutation, ViewerQuery } from '../support/documents';
import { newKey, replicaForTest, type Service, serviceForTest } from '../support/harness';
import { type TestIssuer, tokenIssuerForTest } from '../support/token-issuer';
import { postRaw } from '../support/post-raw';
import type { IdentityOptions, IdentityProviderConfig } from '../../src/services/identity';

const now = () => Math.floor(Date.now() / 1000);
const buy = (titleNumber: string) => ({ fas: '0877', input: { titleNumber, idempotencyKey: newKey('token-rules') } });

type Identity = Omit<IdentityOptions, 'onKeysFetched'>;

async function serviceTrusting(issuer: TestIssuer, identity: Identity = {}, provider: Partial<IdentityProviderConfig> = {}) {
  return serviceForTest({
    services: {
      identityProviders: [issuer.provider(provider)],
      identity: { ...identity, timing: { jwksCooldownMs: 0, failureBackoffMs: 0, ...identity.timing } },
      anonymousKey: undefined,
    },
  });
}

function send<R, V>(svc: Service, document: TypedDocumentNode<R, V>, variables: V, token: string) {
  return postRaw<R>(svc.yoga, { query: print(document), variables }, { authorization: `Bearer ${token}` });
}

describe('a verification kept in memory does not outlive its key', () => {
  test('a withdrawn key: its token is refused within the recheck interval, on every replica', async () => {
    const issuer = await tokenIssuerForTest();
    const identity = { timing: { recheckMs: 300 }, maxLifetimeSeconds: 10 * 365 * 86_400 };
    const svc = await serviceTrusting(issuer, identity);
    const replica = replicaForTest(svc, {
      identityProviders: [issuer.provider()],
      identity: { ...identity, timing: { ...identity.timing, jwksCooldownMs: 0 } },
    });
    const tenYears = await issuer.sign({ exp: now() + 10 * 365 * 86_400 });
    for (const service of [svc, replica]) expect((await send(service, ViewerQuery, {}, tenYears)).status).toBe(200);
    const withdrawn = issuer.currentKid();
    await issuer.rotate();
    issuer.withdraw(withdrawn);
    await sleep(350);
    for (const service of [svc, replica]) {
      const refused = await send(service, BuyTitleMutation, buy('MID15313'), tenYears);
      expect(refused.status).toBe(401);
      expect(refused.body.errors![0]!.message).toMatch(/signed with a key its issuer does not publish/);
    }
    expect(svc.emulator.calls.count()).toBe(0);
  });

  test('a new key set drops at once the kept tokens signed under a key it no longer holds', async () => {
    const issuer = await tokenIssuerForTest();
    const svc = await serviceTrusting(issuer, { timing: { recheckMs: 3_600_000 } });
    const old = await issuer.sign({ sub: 'old-key' });
    expect((await send(svc, ViewerQuery, {}, old)).status).toBe(200);
    const withdrawn = issuer.currentKid();
    await issuer.rotate();
    issuer.withdraw(withdrawn);
    // A token under the new key makes the service fetch the set again.
    expect((await send(svc, ViewerQuery, {}, await issuer.sign({ sub: 'new-key' }))).status).toBe(200);
    expect((await send(svc, ViewerQuery, {}, old)).status).toBe(401);
  });

  test('a key set that answers without a usable key never replaces the keys held', async () => {
    const issuer = await tokenIssuerForTest();
    const svc = await serviceTrusting(issuer, { timing: { recheckMs: 200 } });
    const token = await issuer.sign();
    expect((await send(svc, ViewerQuery, {}, token)).status).toBe(200);
    const fetched = issuer.jwksFetches();
    issuer.answerKeySet([{ kty: 'oct', k: 'c2VjcmV0', kid: 'hmac' }]);
    await sleep(250);
    expect((await send(svc, ViewerQuery, {}, token)).status).toBe(200);
    expect(issuer.jwksFetches()).toBeGreaterThan(fetched);
    issuer.answerKeySet([]);
    await sleep(250);
    expect((await send(svc, ViewerQuery, {}, token)).status).toBe(200);
  });
});

describe('a token must be an access token with a bounded lifetime, in seconds, naming no control character', () => {
  const refusals: [string, (issuer: TestIssuer) => Promise<string>, RegExp][] = [
    ['no iat', (i) => i.sign({ iat: undefined }), /no issue time \(iat\)/],
    ['a lifetime of an hour and a second', (i) => i.sign({ iat: now(), exp: now() + 3601 }), /lives 3601 s \(exp - iat\); at most 3600 s/],
    ['a ten-year token', (i) => i.sign({ exp: now() + 10 * 365 * 86_400 }), /at most 3600 s are accepted/],
    ['exp in milliseconds', (i) => i.sign({ exp: Date.now() + 300_000 }), /expiry \(exp\) is in milliseconds/],
    ['an ID token (typ JWT)', (i) => i.sign({}, { header: { typ: 'JWT' } }), /typ header must be at\+jwt.*an ID token is not a credential/],
    ['no typ', (i) => i.sign({}, { header: { typ: undefined } }), /typ header must be at\+jwt/],
    ['a NUL in sub', (i) => i.sign({ sub: 'ann\u0000admin' }), /subject \(sub\) holds a control character/],
    ['a line feed in name', (i) => i.sign({ name: 'Ann\nAdmin' }), /name holds a control character/],
    [
      'an escape in email (the name shown)',
      (i) => i.sign({ name: undefined, email: 'ann\u001b@firm.example' }),
      /name holds a control character/,
    ],
  ];

  test.for(refusals)('%s: 401 saying why, and a purchase sends nothing', async ([, token, words]) => {
    const issuer = await tokenIssuerForTest();
    const svc = await serviceTrusting(issuer);
    const refused = await send(svc, BuyTitleMutation, buy('MID15313'), await token(issuer));
    expect(refused.status).toBe(401);
    expect(refused.body.errors![0]!.message).toMatch(words);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Bearer error="invalid_token"/);
    expect(svc.emulator.calls.count()).toBe(0);
  });

  test('a provider whose entry says acceptJwtTyp: its JWT-typed and untyped tokens are accepted; at+jwt still is', async () => {
    const issuer = await tokenIssuerForTest();
    const svc = await serviceTrusting(issuer, {}, { acceptJwtTyp: true });
    for (const typ of ['JWT', undefined, 'at+jwt']) {
      expect(
        (await send(svc, ViewerQuery, {}, await issuer.sign({ sub: `typ-${typ}` }, { header: { typ } }))).body.data!.viewer.caller,
      ).toBe(`typ-${typ}`);
    }
  });

  test('TOKEN_MAX_LIFETIME_SECONDS moves the bound', async () => {
    const issuer = await tokenIssuerForTest();
    const svc = await serviceTrusting(issuer, { maxLifetimeSeconds: 86_400 });
    expect((await send(svc, ViewerQuery, {}, await issuer.sign({ exp: now() + 86_000 }))).status).toBe(200);
  });
});

test('a discovery document naming another issuer is a configuration error in the answer, not "retry"', async () => {
  const issuer = await tokenIssuerForTest();
  issuer.nameIssuer('https://login.elsewhere.example');
  const svc = await serviceTrusting(issuer, { timing: { failureBackoffMs: 60_000 } });
  for (let attempt = 0; attempt < 2; attempt++) {
    const refused = await send(svc, BuyTitleMutation, buy('MID15313'), await issuer.sign());
    expect(refused.status).toBe(503);
    expect(refused.headers.get('retry-after')).toBeNull();
    expect(refused.body.errors![0]!.message).toMatch(
      /identity provider is misconfigured \(the discovery document of .* names another issuer/,
    );
    expect(refused.body.errors![0]!.message).not.toMatch(/retry/i);
  }
  expect(svc.emulator.calls.count()).toBe(0);
});

test('two Authorization headers are answered 400 on every route, and nothing is sent', async () => {
  const svc = await serviceForTest();
  const serving = await serve(svc.yoga, { port: 0, host: '127.0.0.1' });
  onTestFinished(() => serving.drain({ deadlineMs: 1_000 }).then(() => undefined));
  const body = JSON.stringify({ query: print(BuyTitleMutation), variables: buy('MID15313') });
  for (const [method, path, payload] of [
    ['POST', '/graphql', body],
    ['GET', '/statements.csv?from=2026-01-01&to=2026-01-02', undefined],
  ] as const) {
    const answer = await new Promise<{ status: number; challenge: string | undefined; text: string }>((resolve, reject) => {
      const request = httpRequest(
        `http://127.0.0.1:${serving.port}${path}`,
        {
          method,
          headers: [
            'Host',
            `127.0.0.1:${serving.port}`,
            'Authorization',
            'Bearer dev-key-b',
            'authorization',
            'Bearer dev-key-a',
            'Content-Type',
            'application/json',
          ],
        },
        (response) => {
          let text = '';
          response.on('data', (chunk: Buffer) => (text += chunk.toString()));
          response.on('end', () => resolve({ status: response.statusCode!, challenge: response.headers['www-authenticate'], text }));
        },
      );
      request.on('error', reject);
      request.end(payload);
    });
    expect(answer.status).toBe(400);
    expect(answer.challenge).toBe('Bearer error="invalid_request"');
    expect(JSON.parse(answer.text).errors[0]).toMatchObject({
      extensions: { code: 'UNAUTHENTICATED' },
      message: expect.stringMatching(/^Send one Authorization header/),
    });
  }
  expect(svc.emulator.calls.count()).toBe(0);
});
