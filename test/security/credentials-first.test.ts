/**
 * Credentials are checked before a request's document is parsed or validated: without valid
 * ones, nobody learns field names (or anything else of the schema) from validation errors or
 * hints. Runs in the `production` project too, where hints and introspection are off.
 */
import { describe, expect, test } from 'vitest';
import { authHeader, serviceForTest } from '../support/harness';
import { postRaw } from '../support/post-raw';
import { tokenIssuerForTest } from '../support/token-issuer';

/** Misspelt fields (whose hints would name real ones), a syntax error, and introspection. */
const DOCUMENTS = ['{ titel(titleNumber: "MID15313") { statu } }', '{ title(', '{ __schema { types { name fields { name } } } }'];

describe('without valid credentials, the document is never read', () => {
  test('an unknown API key: 401 for every document, naming nothing of the schema', async () => {
    const svc = await serviceForTest({ services: { anonymousKey: undefined } });
    for (const query of DOCUMENTS) {
      const { status, text } = await postRaw(svc.yoga, { query }, authHeader('not-a-key'));
      expect(status).toBe(401);
      expect(text).toContain('Unknown API key');
      expect(text).not.toMatch(/title|status|__schema|Did you mean|Syntax Error/i);
    }
    expect(svc.emulator.calls.count()).toBe(0);
  });

  test('no credentials against a real register: 401 for every document', async () => {
    const svc = await serviceForTest({ services: { anonymousKey: undefined } });
    for (const query of DOCUMENTS) {
      const { status, text } = await postRaw(svc.yoga, { query }, { authorization: null });
      expect(status).toBe(401);
      expect(text).not.toMatch(/title|status|__schema|Did you mean|Syntax Error/i);
    }
  });

  test('a token that does not verify: 401 invalid_token for every document, naming nothing of the schema', async () => {
    const issuer = await tokenIssuerForTest();
    const svc = await serviceForTest({ services: { identityProviders: [issuer.provider()], anonymousKey: undefined } });
    const expired = await issuer.sign({ iat: Math.floor(Date.now() / 1000) - 900, exp: Math.floor(Date.now() / 1000) - 600 });
    for (const query of DOCUMENTS) {
      const { status, text } = await postRaw(svc.yoga, { query }, authHeader(expired));
      expect(status).toBe(401);
      expect(text).toContain('has expired');
      expect(text).not.toMatch(/status|__schema|Did you mean|Syntax Error/i);
    }
  });

  test('with valid credentials the same documents get their ordinary answers', async () => {
    const svc = await serviceForTest();
    const { status, text } = await postRaw(svc.yoga, { query: DOCUMENTS[1]! }, authHeader('dev-key-a'));
    expect(status).toBe(400);
    expect(text).toMatch(/Syntax Error|Expected/);
  });
});
