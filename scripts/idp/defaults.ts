/** The local provider's fixed names and defaults, shared by the provider, its CLI and the headless sign-in. */

export const DEFAULT_IDP_PORT = 4020;
/** The web example's address under `npm run example:web` (Vite's dev server). */
export const DEFAULT_CLIENT_ORIGINS = ['http://localhost:5173', 'http://127.0.0.1:5173'];
/** The web example's client: public (no secret), authorization code + PKCE. */
export const CLIENT_ID = 'titlegraph-web';
/**
 * The resource indicator a client asks tokens for. RFC 8707 wants an absolute URI, so it is a
 * URN; the token's `aud` is the plain AUDIENCE the tenants file names.
 */
export const RESOURCE = 'urn:titlegraph';
export const AUDIENCE = 'titlegraph';

/** IDP_CLIENT_ORIGINS (comma-separated), read alike by `npm run idp` and `npm run idp:token`; unset, the defaults. */
export function clientOrigins(env: NodeJS.ProcessEnv = process.env): string[] {
  const listed = env.IDP_CLIENT_ORIGINS?.split(',')
    .map((origin) => origin.trim())
    .filter(Boolean);
  return listed?.length ? listed : DEFAULT_CLIENT_ORIGINS;
}
