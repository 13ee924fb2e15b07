/**
 * CORS for browser front ends (config CORS_ORIGINS). No origins (the default): no CORS headers at
 * all, so browsers only let same-origin pages (e.g. GraphiQL served by titlegraph) call the API.
 * With an allow-list, a request whose Origin is listed gets Access-Control-Allow-Origin: <origin>;
 * any other origin gets no CORS headers (the browser blocks it). `*` allows every origin.
 *
 * Callers authenticate with `Authorization: Bearer`, never cookies, so credentials are not
 * allowed (no Access-Control-Allow-Credentials). Request headers asked for in a preflight are
 * allowed: the origin is the gate.
 */
import type { CORSOptions, Plugin } from 'graphql-yoga';

export const ANY_ORIGIN = '*';

/** Value of yoga's `cors` option for an allow-list of origins (empty: CORS off). */
export function corsOption(origins: readonly string[]): false | ((request: Request) => CORSOptions) {
  if (origins.length === 0) return false;
  const any = origins.includes(ANY_ORIGIN);
  const allowed = new Set(origins);
  return (request) => {
    const origin = request.headers.get('origin');
    if (!origin || !(any || allowed.has(origin))) return false;
    return {
      origin,
      methods: ['GET', 'POST'],
      credentials: false,
      // www-authenticate: a front end reads why its sign-in token was refused (RFC 6750), to sign in again.
      exposedHeaders: ['content-disposition', 'retry-after', 'www-authenticate'],
      maxAge: 600,
    };
  };
}

/** Responses differ by Origin once CORS is on: tell caches (Vary: Origin). */
export function useVaryOrigin(): Plugin {
  return {
    onResponse({ response }) {
      const vary = response.headers.get('vary');
      if (!vary) response.headers.set('vary', 'Origin');
      else if (!/(^|,)\s*(origin|\*)\s*(,|$)/i.test(vary)) response.headers.set('vary', `${vary}, Origin`);
    },
  };
}
