/**
 * A local OpenID Provider (oidc-provider 9) for trying sign-in and for the tests: the two people
 * of ./people.ts, RFC 9068 JWT access tokens for titlegraph (audience `titlegraph`) carrying each
 * person's scopes and name, and a public client for examples/web (authorization code + PKCE).
 * Development only: its keys and session secrets are made at start and kept in memory, its
 * passwords are public, and it listens on a loopback address over plain HTTP (which titlegraph
 * accepts for an issuer on loopback only).
 */
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { calculateJwkThumbprint, exportJWK, generateKeyPair } from 'jose';
import Provider, { errors, type KoaContextWithOIDC } from 'oidc-provider';
import { AUDIENCE, CLIENT_ID, DEFAULT_CLIENT_ORIGINS, DEFAULT_IDP_PORT, RESOURCE } from './defaults';
import { ALL_SCOPES } from '../../src/services/scopes';
import { findPerson, PEOPLE, type Person } from './people';

const ACCESS_TOKEN_TTL_SECONDS = 3600;

export interface IdpOptions {
  /** Default DEFAULT_IDP_PORT; 0 picks a free one (tests). */
  port?: number;
  /** Default 127.0.0.1. The issuer is http://<host>:<port>, so keep it a loopback address. */
  host?: string;
  /** Origins the web example is served from: its sign-in returns to `<origin>/`. */
  clientOrigins?: readonly string[];
}

export interface Idp {
  /** The issuer, e.g. http://127.0.0.1:4020: the `issuer` of titlegraph's identity provider entry. */
  issuer: string;
  clientId: string;
  /** The redirect URIs the client may use (one per origin). */
  redirectUris: string[];
  close(): Promise<void>;
}

const html = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A page of the provider's own, with no outside resources (the browser tests run offline). */
function page(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${html(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,">
<style>body{font-family:system-ui,sans-serif;background:#f5f6f8;color:#1d2433}main{max-width:24rem;margin:3rem auto;background:#fff;padding:1.5rem 2rem;border-radius:6px;box-shadow:0 1px 3px #0002}
label{display:block;margin-top:.75rem}input{width:100%;box-sizing:border-box;padding:.5rem;font-size:1rem}button{margin-top:1rem;padding:.5rem 1rem;font-size:1rem}
.error{color:#b42318}.muted{color:#667085;font-size:.9rem}</style></head><body><main>${body}</main></body></html>`;
}

function loginPage(uid: string, clientName: string, problem?: string): string {
  const people = PEOPLE.map(
    (p) => `<li><code>${html(p.login)}</code> / <code>${html(p.password)}</code>: ${html(p.name)} (${html(p.scopes.join(' '))})</li>`,
  ).join('');
  return page(
    'Sign in',
    `<h1>Sign in</h1><p>to ${html(clientName)}</p>
${problem ? `<p class="error" id="login-error">${html(problem)}</p>` : ''}
<form method="post" action="/interaction/${encodeURIComponent(uid)}/login" autocomplete="off">
<label for="login">Login</label><input id="login" name="login" required autofocus>
<label for="password">Password</label><input id="password" name="password" type="password" required>
<button id="login-submit" type="submit">Sign in</button></form>
<p class="muted">Local development provider: these people and passwords are public.</p><ul class="muted">${people}</ul>`,
  );
}

async function formBody(req: IncomingMessage): Promise<URLSearchParams> {
  let text = '';
  for await (const chunk of req) {
    text += chunk;
    // a login form is a few hundred bytes
    if (text.length > 10_000) throw new Error('form too large');
  }
  return new URLSearchParams(text);
}

/** The login form (oidc-provider's own dev interactions take any name and no password). */
async function interaction(provider: Provider, req: IncomingMessage, res: ServerResponse, path: string): Promise<void> {
  const details = await provider.interactionDetails(req, res);
  const clientName = String(details.params.client_id ?? 'the application');
  if (details.prompt.name !== 'login') {
    // Consent is given by loadExistingGrant for the one first-party client, so nothing else should come here.
    res.writeHead(501, { 'content-type': 'text/plain' }).end(`no page for the ${details.prompt.name} prompt`);
    return;
  }
  if (req.method === 'POST' && path.endsWith('/login')) {
    const form = await formBody(req);
    const person = findPerson(form.get('login') ?? '');
    if (person && person.password === form.get('password')) {
      await provider.interactionFinished(req, res, { login: { accountId: person.login } }, { mergeWithLastSubmission: false });
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(loginPage(details.uid, clientName, 'Wrong login or password.'));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
  res.end(loginPage(details.uid, clientName));
}

/**
 * The person's grant for the first-party client, without a consent page: titlegraph's scopes
 * they hold are granted, the others refused, so an access token carries exactly their scopes
 * whatever the client asked for.
 */
async function firstPartyGrant(ctx: KoaContextWithOIDC) {
  const { oidc } = ctx;
  const existing = oidc.result?.consent?.grantId ?? oidc.session?.grantIdFor(oidc.client!.clientId);
  if (existing) return oidc.provider.Grant.find(existing);
  const person = findPerson(oidc.session?.accountId ?? '');
  if (!person) return undefined;
  const grant = new oidc.provider.Grant({ accountId: person.login, clientId: oidc.client!.clientId });
  grant.addOIDCScope('openid profile email');
  grant.addResourceScope(RESOURCE, person.scopes.join(' '));
  const refused = ALL_SCOPES.filter((scope) => !person.scopes.includes(scope));
  if (refused.length > 0) grant.rejectResourceScope(RESOURCE, refused.join(' '));
  await grant.save();
  return grant;
}

const personClaims = (person: Person) => ({ name: person.name, email: person.email });

export async function startIdp(options: IdpOptions = {}): Promise<Idp> {
  const host = options.host ?? '127.0.0.1';
  const origins = options.clientOrigins ?? DEFAULT_CLIENT_ORIGINS;
  const redirectUris = origins.map((origin) => `${new URL(origin).origin}/`);

  // The issuer names the port, so listen first and hand requests over once the provider exists.
  let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.writeHead(503).end();
  const server = createServer((req, res) => handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? DEFAULT_IDP_PORT, host, resolve);
  });
  const { port } = server.address() as AddressInfo;
  const issuer = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk = await exportJWK(privateKey);
  const signingKey = { ...jwk, kid: await calculateJwkThumbprint(jwk), alg: 'RS256', use: 'sig' };

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: CLIENT_ID,
        client_name: 'titlegraph example front end',
        application_type: 'web',
        // a browser app keeps no secret: PKCE protects its code
        token_endpoint_auth_method: 'none',
        grant_types: ['authorization_code'],
        response_types: ['code'],
        redirect_uris: redirectUris,
        post_logout_redirect_uris: redirectUris,
      },
    ],
    jwks: { keys: [signingKey] },
    cookies: { keys: [randomBytes(32).toString('base64url')] },
    claims: { openid: ['sub'], profile: ['name'], email: ['email'] },
    // profile and email in the ID token too, so the page can greet the person without a userinfo call
    conformIdTokenClaims: false,
    findAccount: (_ctx: unknown, id: string) => {
      const person = findPerson(id);
      return person && { accountId: person.login, claims: () => ({ sub: person.login, ...personClaims(person) }) };
    },
    // RFC 9068 access tokens name the person, so titlegraph's journal can say who bought.
    extraTokenClaims: (_ctx: unknown, token: { kind: string; accountId?: string }) => {
      const person = token.kind === 'AccessToken' && token.accountId ? findPerson(token.accountId) : undefined;
      return person ? personClaims(person) : undefined;
    },
    loadExistingGrant: firstPartyGrant,
    clientBasedCORS: (_ctx: unknown, origin: string, client: { redirectUris: string[] }) =>
      client.redirectUris.some((uri) => new URL(uri).origin === origin),
    pkce: { required: () => true },
    // In seconds. A working day's session; an access token lasts an hour (the resource server's accessTokenTTL).
    ttl: {
      AccessToken: ACCESS_TOKEN_TTL_SECONDS,
      AuthorizationCode: 60,
      IdToken: ACCESS_TOKEN_TTL_SECONDS,
      Interaction: 600,
      Session: 8 * 3600,
      Grant: 8 * 3600,
    },
    features: {
      devInteractions: { enabled: false },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_ctx: unknown, _client: unknown, oneOf?: string[]) => oneOf?.[0] ?? RESOURCE,
        // The token request need not repeat the resource: the code's own is used.
        useGrantedResource: () => true,
        getResourceServerInfo: (_ctx: unknown, indicator: string) => {
          if (indicator !== RESOURCE) throw new errors.InvalidTarget(`this provider issues tokens for ${RESOURCE} only`);
          return {
            // every scope titlegraph knows is offered; each person is granted their own (firstPartyGrant)
            scope: ALL_SCOPES.join(' '),
            audience: AUDIENCE,
            accessTokenFormat: 'jwt',
            accessTokenTTL: ACCESS_TOKEN_TTL_SECONDS,
            jwt: { sign: { alg: 'RS256' } },
          };
        },
      },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx: KoaContextWithOIDC, form: string) => {
          ctx.type = 'html';
          ctx.body = page(
            'Sign out',
            `<h1>Sign out of ${html(ctx.host)}?</h1>${form}
<button id="logout-yes" type="submit" form="op.logoutForm" value="yes" name="logout">Yes, sign me out</button>
<button id="logout-no" type="submit" form="op.logoutForm">No, stay signed in</button>`,
          );
        },
        postLogoutSuccessSource: (ctx: KoaContextWithOIDC) => {
          ctx.type = 'html';
          ctx.body = page('Signed out', '<h1>Signed out</h1>');
        },
      },
    },
    renderError: (ctx: KoaContextWithOIDC, out: Record<string, string>) => {
      ctx.type = 'html';
      ctx.body = page(
        'Sign-in error',
        `<h1>Sign-in error</h1><p class="error">${html(out.error ?? '')}: ${html(out.error_description ?? '')}</p>`,
      );
    },
  });

  const callback = provider.callback();
  handle = (req, res) => {
    const path = new URL(req.url ?? '/', issuer).pathname;
    if (!path.startsWith('/interaction/')) {
      callback(req, res);
      return;
    }
    interaction(provider, req, res, path).catch((error: Error) => {
      if (res.headersSent) return res.destroy();
      res.writeHead(400, { 'content-type': 'text/html; charset=utf-8' });
      res.end(page('Sign-in error', `<h1>Sign-in error</h1><p class="error">${html(error.message)}</p>`));
    });
  };

  return {
    issuer,
    clientId: CLIENT_ID,
    redirectUris,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
