/**
 * The callers replaced without a restart (the tenants file reloaded, services.replaceCallers):
 * a revoked key is refused on its next request and a new one served, a new identity provider's
 * people are accepted, spend control follows the new file, and a register client whose secret
 * changed signs in again with the new one. Judged on the emulator's call log as well.
 */
import { expect, test } from 'vitest';
import { DEV_API_KEYS, DEV_ORGANISATIONS, sha256Hex } from '../../src/services/callers';
import { PrincipalQuery, TitleQuery } from '../support/documents';
import { serviceForTest } from '../support/harness';
import { tokenIssuerForTest } from '../support/token-issuer';

const KEY_B = DEV_API_KEYS.find((k) => k.name === 'dev-key-b')!;

test('a revoked key is refused on its next request, a new key and a new provider are served, all without a restart', async () => {
  const svc = await serviceForTest({ services: { anonymousKey: undefined } });
  const who = async (credential: string) => {
    const answer = await svc.gql(PrincipalQuery, {}, credential);
    return answer.data?.viewer.id ?? answer.errors?.[0]?.extensions?.code;
  };
  expect(await who('dev-key-b')).toBe('key:dev-key-b');
  const issuer = await tokenIssuerForTest();
  const token = await issuer.sign({ sub: 'ann' });
  expect(await who(token)).toBe('UNAUTHENTICATED');

  const fresh = { ...KEY_B, name: 'firm-b-app', apiKeySha256: sha256Hex('firm-b-app-key') };
  svc.services.replaceCallers(
    {
      apiKeys: [...DEV_API_KEYS.filter((k) => k !== KEY_B), fresh],
      organisations: DEV_ORGANISATIONS,
      identityProviders: [issuer.provider({ name: 'firm-a-sso' })],
    },
    'v2',
  );
  expect(await who('dev-key-b')).toBe('UNAUTHENTICATED');
  expect(await who('firm-b-app-key')).toBe('key:firm-b-app');
  expect(await who(token)).toBe('person:firm-a-sso:ann');
  expect(svc.services.callersVersion).toMatchObject({ version: 'v2' });
  expect(svc.emulator.calls.count()).toBe(0);
});

test("a register client's new secret is used from the reload on; an unchanged client keeps its token", async () => {
  const svc = await serviceForTest();
  const ask = (key: string) => svc.gql(PrincipalQuery, {}, key);
  const title = (key: string) => svc.gql(TitleQuery, { titleNumber: 'MID15313' }, key);
  expect((await title('dev-key-a')).errors).toBeUndefined();
  expect((await title('dev-key-b')).errors).toBeUndefined();
  const tokens = () => svc.emulator.calls.count({ route: 'token' });
  expect(tokens()).toBe(2);

  // client-b's secret as the register does not know it: its next sign-in is refused, nothing else changes.
  const rotated = DEV_API_KEYS.map((k) => (k === KEY_B ? { ...k, clientSecret: 'secret-b-next' } : k));
  svc.services.replaceCallers({ apiKeys: rotated, organisations: DEV_ORGANISATIONS }, 'v2');
  expect((await title('dev-key-a')).errors).toBeUndefined();
  expect(tokens()).toBe(2); // client-a kept its token
  expect((await title('dev-key-b')).errors).toBeDefined();
  expect(svc.emulator.calls.count({ route: 'token', status: 401 })).toBeGreaterThanOrEqual(1);

  // Mended by another reload, still without a restart.
  svc.services.replaceCallers({ apiKeys: DEV_API_KEYS, organisations: DEV_ORGANISATIONS }, 'v3');
  expect((await title('dev-key-b')).errors).toBeUndefined();
  expect((await ask('dev-key-b')).data!.viewer.id).toBe('key:dev-key-b');
});
