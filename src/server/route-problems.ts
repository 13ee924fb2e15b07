/**
 * What the routes beside GraphQL (/downloads, /statements.csv) share: their refusals, as JSON
 * `{ error: { code, message } }`, and who the caller is by their key.
 */
import type { Services } from '../graphql/context';
import { authFailureMessage, ROUTER_KEY_MESSAGE, type Tenant } from '../services/tenants';

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

/** The API client whose key the request carries, or why it is refused: no or an unknown key (401), a router's key (403). */
export function callerByKey(services: Services, request: Request): { tenant: Tenant } | { refusal: Refusal } {
  const auth = services.tenants.authenticate(request.headers.get('authorization'));
  if (!auth.ok) {
    return {
      refusal: {
        status: 401,
        code: 'UNAUTHENTICATED',
        message: authFailureMessage(auth.reason),
        headers: { 'www-authenticate': 'Bearer' },
      },
    };
  }
  if (auth.tenant.router) return { refusal: { status: 403, code: 'ROUTER_KEY_NOT_A_CLIENT', message: ROUTER_KEY_MESSAGE } };
  return { tenant: auth.tenant };
}
