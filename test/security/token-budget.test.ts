/**
 * One address may make the service check only so many sign-in tokens that fail (forged under a
 * published key: a signature check each, with no credentials): past TOKEN_FAILURES_PER_MINUTE,
 * its tokens not already verified are refused before any check, 429 with Retry-After, while its
 * verified tokens and API keys keep working and nothing reaches the register. Over real HTTP, so
 * the address is the connection's.
 */
import { expect, onTestFinished, test } from 'vitest';
import { VerificationBudget } from '../../src/services/verification-budget';
import { startHttpService } from '../support/harness';
import { tokenIssuerForTest } from '../support/token-issuer';

test('past its budget of failed tokens, an address’s unverified tokens are refused unchecked; verified tokens and keys still work', async () => {
  const issuer = await tokenIssuerForTest();
  const svc = await startHttpService({
    services: {
      identityProviders: [issuer.provider()],
      identity: { timing: { jwksCooldownMs: 0, failureBackoffMs: 0 }, failuresPerMinute: 3 },
      anonymousKey: undefined,
    },
  });
  onTestFinished(() => svc.stop());
  const ask = (credential: string) =>
    fetch(svc.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${credential}` },
      body: JSON.stringify({ query: '{ viewer { id } title(titleNumber: "MID15313") { titleNumber } }' }),
    });
  const valid = await issuer.sign({ sub: 'ann' });
  expect((await ask(valid)).status).toBe(200);
  const forged = async () => issuer.sign({ sub: 'mallory' }, { key: (await issuer.strangerKey()).privateKey });
  for (let i = 0; i < 3; i++) expect((await ask(await forged())).status).toBe(401);

  const refused = await ask(await forged());
  expect(refused.status).toBe(429);
  expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  expect(((await refused.json()) as { errors: { extensions: { code: string } }[] }).errors[0]!.extensions.code).toBe('TOO_MANY_BAD_TOKENS');
  // A new token, valid or not, is not checked now; the verified one and an API key are served.
  expect((await ask(await issuer.sign({ sub: 'bob' }))).status).toBe(429);
  expect((await ask(valid)).status).toBe(200);
  expect((await ask('dev-key-a')).status).toBe(200);
  expect(svc.emulator.calls.list().every((call) => call.clientId === 'client-a')).toBe(true);
});

test('the budget refills evenly over the minute, and one address’s failures do not spend another’s', () => {
  let now = 0;
  const budget = new VerificationBudget(60, () => now);
  for (let i = 0; i < 60; i++) budget.failed('192.0.2.1');
  expect(budget.waitSeconds('192.0.2.1')).toBe(1);
  expect(budget.waitSeconds('192.0.2.2')).toBe(0);
  now += 1_000;
  expect(budget.waitSeconds('192.0.2.1')).toBe(0);
  budget.failed('192.0.2.1');
  expect(budget.waitSeconds('192.0.2.1')).toBe(1);
});
