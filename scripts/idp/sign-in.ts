/**
 * Signing a person in at the local provider without a browser: the same authorization code +
 * PKCE exchange a browser makes (the login form posted, redirects followed by hand, the code
 * taken from the redirect to the web example, never opened). For `npm run idp:token` (a token
 * for curl) and the tests that need a person's token outside Chromium.
 */
import { createHash, randomBytes } from 'node:crypto';
import { CLIENT_ID } from './defaults';

export interface SignInOptions {
  issuer: string;
  login: string;
  password: string;
  /** One of the client's redirect URIs; only its address is used (the code is read from the redirect). */
  redirectUri: string;
  clientId?: string;
  scope?: string;
}

export interface Tokens {
  access_token: string;
  id_token?: string;
  expires_in: number;
  scope?: string;
}

export const WEB_SCOPE = 'openid profile email titles:read titles:buy cases:write charges:read';

const base64url = (bytes: Buffer) => bytes.toString('base64url');

/** A tiny cookie jar: the provider's interaction and session cookies between redirects. */
class Cookies {
  readonly #values = new Map<string, string>();
  take(response: Response) {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      if (at > 0) this.#values.set(pair!.slice(0, at).trim(), pair!.slice(at + 1).trim());
    }
  }
  header(): string {
    return [...this.#values].map(([name, value]) => `${name}=${value}`).join('; ');
  }
}

export async function signIn(options: SignInOptions): Promise<Tokens> {
  const clientId = options.clientId ?? CLIENT_ID;
  const discovery = (await (await fetch(new URL('/.well-known/openid-configuration', options.issuer))).json()) as {
    authorization_endpoint: string;
    token_endpoint: string;
  };
  const verifier = base64url(randomBytes(32));
  const state = base64url(randomBytes(16));
  const authorize = new URL(discovery.authorization_endpoint);
  authorize.search = new URLSearchParams({
    client_id: clientId,
    response_type: 'code',
    redirect_uri: options.redirectUri,
    scope: options.scope ?? WEB_SCOPE,
    state,
    code_challenge: base64url(createHash('sha256').update(verifier).digest()),
    code_challenge_method: 'S256',
  }).toString();

  const cookies = new Cookies();
  const step = async (url: string, init: RequestInit = {}) => {
    const response = await fetch(url, { ...init, redirect: 'manual', headers: { ...init.headers, cookie: cookies.header() } });
    cookies.take(response);
    return response;
  };
  const next = (response: Response, from: string) => {
    const location = response.headers.get('location');
    if (!location) throw new Error(`sign-in stopped at ${new URL(from).pathname} with HTTP ${response.status}`);
    return new URL(location, from).href;
  };

  const authorized = await step(authorize.href);
  // The provider answers an authorization request it refuses with an error page, not a redirect:
  // with a client it knows, an address missing from IDP_CLIENT_ORIGINS is what it refuses.
  if (authorized.status === 400) {
    throw new Error(
      `the provider refused the authorization request (HTTP 400): it does not take ${options.redirectUri} as a redirect address; give \`npm run idp\` and this command the same IDP_CLIENT_ORIGINS`,
    );
  }
  const toLogin = next(authorized, authorize.href);
  const loginUrl = `${toLogin}/login`;
  const afterLogin = await step(loginUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ login: options.login, password: options.password }),
  });
  if (afterLogin.status === 200) throw new Error(`the provider refused ${options.login}'s login or password`);
  const resume = next(afterLogin, loginUrl);
  const back = new URL(next(await step(resume), resume));
  const code = back.searchParams.get('code');
  if (!code || back.searchParams.get('state') !== state) {
    throw new Error(`no code in the redirect: ${back.searchParams.get('error') ?? ''} ${back.searchParams.get('error_description') ?? ''}`);
  }

  const token = await fetch(discovery.token_endpoint, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: options.redirectUri,
      client_id: clientId,
      code_verifier: verifier,
    }),
  });
  const body = (await token.json()) as Tokens & { error?: string; error_description?: string };
  if (!token.ok) throw new Error(`token request refused: ${body.error} ${body.error_description ?? ''}`);
  return body;
}
