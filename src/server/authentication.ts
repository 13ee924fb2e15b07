/**
 * Who is calling, decided at the HTTP edge before anything of the request is read: an API key,
 * or a person's sign-in token (services/identity.ts), whose verification may have to fetch the
 * provider's keys, so it is awaited here rather than in the context factory. A GraphQL request
 * without valid credentials is refused before its document is parsed or validated, so nobody
 * learns field names from validation errors without them. /downloads and /statements.csv refuse
 * with the same words (route-problems.ts).
 */
import { topLevelError } from '../graphql/error-codes';
import type { Plugin } from 'graphql-yoga';
import { rememberCaller, type Services } from '../graphql/context';
import type { AuthFailure } from '../services/callers';
import { requestRecordOf } from '../observability/request-record';
import { rememberGateway, ROUTER_KEY_HEADER } from '../security/gateway-mark';

export interface CredentialRefusal {
  status: 401 | 429 | 503;
  code: 'UNAUTHENTICATED' | 'IDENTITY_PROVIDER_UNAVAILABLE' | 'TOO_MANY_BAD_TOKENS';
  message: string;
  headers: Record<string, string>;
}

/** RFC 6750 allows printable ASCII but `"` and `\` in an error_description. */
const headerText = (text: string) => text.replace(/[^\x20-\x21\x23-\x5b\x5d-\x7e]/g, "'");

/** The status, words and headers of a refused credential, the same on every route. */
export function credentialRefusal(failure: AuthFailure): CredentialRefusal {
  switch (failure.reason) {
    case 'missing':
      return {
        status: 401,
        code: 'UNAUTHENTICATED',
        message: 'Authentication required: send Authorization: Bearer <API key or sign-in access token>.',
        headers: { 'www-authenticate': 'Bearer' },
      };
    case 'unknown':
      return { status: 401, code: 'UNAUTHENTICATED', message: 'Unknown API key.', headers: { 'www-authenticate': 'Bearer' } };
    case 'malformed':
      // `Authorization: dev-key-a` (no scheme) used to read "Unknown API key.", which sent people to check a key that was right.
      return {
        status: 401,
        code: 'UNAUTHENTICATED',
        message:
          'The Authorization header must use the Bearer scheme: send Authorization: Bearer <API key or sign-in access token> (one credential, after "Bearer ").',
        headers: { 'www-authenticate': 'Bearer' },
      };
    case 'invalid_token':
      return {
        status: 401,
        code: 'UNAUTHENTICATED',
        message: `The sign-in token was refused: ${failure.description}.`,
        headers: {
          'www-authenticate': `Bearer error="invalid_token", error_description="${headerText(failure.description)}"`,
        },
      };
    case 'unavailable':
      return {
        status: 503,
        code: 'IDENTITY_PROVIDER_UNAVAILABLE',
        message: `We could not verify your sign-in now: your identity provider's signing keys cannot be fetched. Retry in ${failure.retryAfterSeconds} s; nothing was done.`,
        headers: { 'retry-after': String(failure.retryAfterSeconds) },
      };
    case 'too_many_failures':
      return {
        status: 429,
        code: 'TOO_MANY_BAD_TOKENS',
        message: `Too many sign-in tokens from your address failed verification: new tokens from it are not checked for ${failure.retryAfterSeconds} s. Sign in again to get a valid token; nothing was done.`,
        headers: { 'retry-after': String(failure.retryAfterSeconds) },
      };
    case 'misconfigured':
      // No Retry-After: waiting mends nothing until the operator corrects the tenants file or the provider.
      return {
        status: 503,
        code: 'IDENTITY_PROVIDER_UNAVAILABLE',
        message: `We could not verify your sign-in: your identity provider is misconfigured (${failure.description}). Tell the service's operator; nothing was done.`,
        headers: {},
      };
  }
}

const UNKNOWN_ROUTER_KEY = `The ${ROUTER_KEY_HEADER} header holds no router key of this service: send your gateway's router key there (a tenants-file entry with router: true), or leave the header out. Nothing was run.`;

/** Authenticates every GraphQL request before its body is parsed; the caller is then the context's, and a gateway's router key is checked. */
export function useAuthentication(services: Pick<Services, 'callers'>): Plugin {
  return {
    async onRequestParse({ request }) {
      const auth = await services.callers.authenticate(request.headers.get('authorization'), requestRecordOf(request).address);
      if (!auth.ok) {
        const refusal = credentialRefusal(auth);
        throw topLevelError(refusal.code, refusal.message, { http: { status: refusal.status, headers: refusal.headers } });
      }
      const routerKey = request.headers.get(ROUTER_KEY_HEADER);
      if (routerKey !== null) {
        // The router key names the gateway, never a caller: the caller stays the one Authorization names.
        const gateway = services.callers.routerOf(routerKey);
        if (!gateway)
          throw topLevelError('UNAUTHENTICATED', UNKNOWN_ROUTER_KEY, { http: { status: 401, headers: { 'www-authenticate': 'Bearer' } } });
        rememberGateway(request, gateway);
      }
      rememberCaller(request, auth.caller);
      requestRecordOf(request).authenticated = true;
    },
  };
}
