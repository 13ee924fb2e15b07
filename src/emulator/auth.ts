/** OAuth 2.0 client credentials (HTTP Basic, no body) and bearer-token checks. */
import type { IncomingHttpHeaders } from 'node:http';
import { ROUTES } from '../register/contract/routes';
import { unauthorised } from './errors';
import type { Env, Reply } from './context';
import { findClient } from './seed/organisations';
import type { Caller } from './store';
import { parseAll, queryObject } from './validate';

/** The client of valid Basic credentials, or undefined. */
export function basicCaller(headers: IncomingHttpHeaders): Caller | undefined {
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(headers.authorization ?? '');
  if (!m) return undefined;
  const decoded = Buffer.from(m[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return undefined;
  const client = findClient(decoded.slice(0, colon));
  if (!client || client.clientSecret !== decoded.slice(colon + 1)) return undefined;
  return { clientId: client.clientId, organisation: client.organisation };
}

/** POST /oauth/token?grant_type=client_credentials: 401 on bad credentials, then 400 on the grant type. */
export function issueToken(env: Env, headers: IncomingHttpHeaders, query: URLSearchParams, now: Date): Reply {
  const caller = basicCaller(headers);
  if (!caller) throw unauthorised('invalid client credentials (HTTP Basic clientId:clientSecret)', 'Basic');
  parseAll([{ schema: ROUTES.token.query, value: queryObject(query) }] as const);
  const token = env.store.issueToken(caller, now);
  return {
    status: 200,
    headers: { 'Cache-Control': 'no-store', Pragma: 'no-cache' },
    json: ROUTES.token.response.parse({ access_token: token, token_type: 'Bearer', expires_in: env.options.tokenTtlSeconds }),
  };
}

/** The caller of a live bearer token, else 401 UNAUTHORISED (WWW-Authenticate: Bearer). */
export function bearerCaller(env: Env, headers: IncomingHttpHeaders, now: Date): Caller {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(headers.authorization ?? '');
  if (!m) throw unauthorised('a bearer access token is required (Authorization: Bearer <token>)');
  const caller = env.store.tokenCaller(m[1]!, now);
  if (!caller) throw unauthorised('the access token is unknown or has expired');
  return caller;
}
