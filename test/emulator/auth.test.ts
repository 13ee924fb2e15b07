import { Api, describe, expect, test } from '../support/emulator-fixtures';

describe('OAuth client credentials and bearer tokens', () => {
  test('issues an opaque bearer token for valid Basic credentials', async ({ api }) => {
    const r = await api.call('POST', '/oauth/token?grant_type=client_credentials', {
      client: null,
      headers: { authorization: Api.basic('client-b', 'secret-b') },
    });
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ token_type: 'Bearer', expires_in: 300 });
    expect(r.json.access_token).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(r.headers.get('cache-control')).toBe('no-store');
  });

  test('refuses wrong, unknown or missing client credentials with 401 UNAUTHORISED', async ({ api }) => {
    for (const authorization of [Api.basic('client-a', 'secret-b'), Api.basic('nobody', 'x'), 'Bearer abc', '']) {
      const r = await api.call('POST', '/oauth/token?grant_type=client_credentials', {
        client: null,
        headers: authorization ? { authorization } : {},
      });
      expect(r.status).toBe(401);
      expect(r.json.code).toBe('UNAUTHORISED');
    }
  });

  test('checks the grant type after the credentials', async ({ api }) => {
    const r = await api.call('POST', '/oauth/token?grant_type=password', {
      client: null,
      headers: { authorization: Api.basic('client-a', 'secret-a') },
    });
    expect(r.status).toBe(400);
    expect(r.json).toMatchObject({ code: 'INVALID_REQUEST', field: 'grant_type' });
  });

  test('every other route needs a bearer token: missing or unknown → 401 with WWW-Authenticate', async ({ api }) => {
    const missing = await api.get('/titles/MID15313/summary', { client: null });
    expect(missing.status).toBe(401);
    expect(missing.json.code).toBe('UNAUTHORISED');
    expect(missing.headers.get('www-authenticate')).toMatch(/^Bearer/);
    const unknown = await api.get('/titles/MID15313/summary', { token: 'not-a-token' });
    expect(unknown.status).toBe(401);
    const basic = await api.get('/titles/MID15313/summary', {
      client: null,
      headers: { authorization: Api.basic('client-a', 'secret-a') },
    });
    expect(basic.status).toBe(401);
  });

  test('tokens expire after 300 s of emulator time', async ({ api, emu }) => {
    const token = await api.tokenFor('client-a');
    emu.clock.advance(299_000);
    expect((await api.get('/titles/MID15313/summary', { token })).status).toBe(200);
    emu.clock.advance(2_000);
    const r = await api.get('/titles/MID15313/summary', { token });
    expect(r.status).toBe(401);
    expect(r.json.code).toBe('UNAUTHORISED');
    api.forgetTokens();
    expect((await api.get('/titles/MID15313/summary')).status).toBe(200);
  });

  describe('with tokenTtlSeconds 10', () => {
    test.override({ emuOptions: { tokenTtlSeconds: 10 } });
    test('the token lifetime is configurable', async ({ api, emu }) => {
      const r = await api.call('POST', '/oauth/token?grant_type=client_credentials', {
        client: null,
        headers: { authorization: Api.basic('client-a', 'secret-a') },
      });
      expect(r.json.expires_in).toBe(10);
      emu.clock.advance(10_000);
      expect((await api.get('/titles/MID15313/summary', { token: r.json.access_token })).status).toBe(401);
    });
  });
});

describe('public and unknown routes', () => {
  test('the OpenAPI document is public', async ({ api }) => {
    const r = await api.get('/openapi.json', { client: null });
    expect(r.status).toBe(200);
    expect(r.json.openapi).toBe('3.1.0');
  });

  test('unknown paths are 404 and wrong methods 405, and every call is recorded', async ({ api, emu }) => {
    expect((await api.get('/nothing-here')).status).toBe(404);
    expect((await api.call('DELETE', '/titles/MID15313/summary')).status).toBe(405);
    expect(emu.calls.count({ route: 'unknown' })).toBe(2);
    expect(emu.calls.count({ route: 'token', status: 200, clientId: 'client-a' })).toBe(1);
  });

  test('records 401s without a client and successful calls with one', async ({ api, emu }) => {
    await api.get('/titles/MID15313/summary', { client: null });
    await api.get('/titles/MID15313/summary', { client: 'client-b' });
    const calls = emu.calls.list().filter((c) => c.route === 'titleSummary');
    expect(calls.map((c) => [c.status, c.clientId])).toEqual([
      [401, undefined],
      [200, 'client-b'],
    ]);
    expect(calls[0]!.path).toBe('/v1/titles/MID15313/summary');
    expect(calls[0]!.at).toBeInstanceOf(Date);
    emu.calls.reset();
    expect(emu.calls.list()).toHaveLength(0);
  });
});
