/**
 * What the routes beside GraphQL (/downloads, /statements.csv) share: their refusals, as JSON
 * `{ error: { code, message } }`, and who the caller is by their credentials.
 */
import { requestRecordOf } from '../observability/request-record';
import type { Services } from '../graphql/context';
import type { Scope } from '../services/scopes';
import { ROUTER_KEY_MESSAGE, type Caller } from '../services/callers';
import { missingScopeMessage } from '../graphql/field-scopes';
import { credentialRefusal } from './authentication';
import { READ_ONLY_ALLOW } from '../observability/read-only-route';

export interface Refusal {
  status: number;
  code: string;
  message: string;
  headers?: Record<string, string>;
}

export const problemResponse = ({ status, code, message, headers = {} }: Refusal) =>
  new Response(JSON.stringify({ error: { code, message } }), {
    status,
    headers: { 'content-type': 'application/json; charset=utf-8', ...headers },
  });

/** The 405 of a route that only reads: `what` (e.g. "Downloads") are GET only. */
export const methodNotAllowed = (what: string): Refusal => ({
  status: 405,
  code: 'METHOD_NOT_ALLOWED',
  message: `${what} are GET only.`,
  headers: { ...READ_ONLY_ALLOW },
});

/**
 * The caller of a request by its credentials (an API key or a sign-in token), or why it is
 * refused: none or bad ones (401), an identity provider we cannot reach (503), a router's key
 * (403), or a caller without `scope` (403).
 */
export async function authenticatedCaller(
  services: Pick<Services, 'callers'>,
  request: Request,
  scope: Scope,
): Promise<{ caller: Caller } | { refusal: Refusal }> {
  const auth = await services.callers.authenticate(request.headers.get('authorization'), requestRecordOf(request).address);
  if (!auth.ok) return { refusal: credentialRefusal(auth) };
  if (auth.caller.router) return { refusal: { status: 403, code: 'ROUTER_KEY_NOT_A_CLIENT', message: ROUTER_KEY_MESSAGE } };
  if (!auth.caller.scopes.has(scope)) return { refusal: { status: 403, code: 'FORBIDDEN', message: missingScopeMessage(scope) } };
  return { caller: auth.caller };
}
