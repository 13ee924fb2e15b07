/**
 * HTTP caching of queries sent by GET (the cacheable form, e.g. urql's persisted GETs):
 * `Cache-Control: private` with a max-age as long as the service itself may serve a title
 * summary from its cache (SUMMARY_CACHE_TTL_MS; 0 means revalidate every time), an `ETag` over
 * the caller and the body, and `304 Not Modified` for a matching `If-None-Match`. `private` and
 * `Vary: Authorization` keep each caller's answers in their own cache; the ETag differs per
 * caller, so one caller's validator never revalidates another's answer. Answers with errors,
 * and anything but a single JSON result, keep Yoga's own processing (and no cache headers).
 */
import { createHash } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';

const JSON_TYPES = ['application/graphql-response+json', 'application/json'];

function etagOf(authorization: string, body: string): string {
  return `W/"${createHash('sha256').update(authorization).update('\n').update(body).digest('base64url').slice(0, 32)}"`;
}

function matches(ifNoneMatch: string | null, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch === '*' || ifNoneMatch.split(',').some((tag) => tag.trim() === etag || tag.trim() === etag.slice(2));
}

export function useQueryCaching(maxAgeMs: () => number): Plugin {
  return {
    onResultProcess({ request, result, acceptableMediaTypes, setResultProcessor }) {
      if (request.method !== 'GET' || Array.isArray(result) || !result || Symbol.asyncIterator in result) return;
      if (result.errors?.length) return;
      const mediaType = acceptableMediaTypes.find((t) => JSON_TYPES.includes(t));
      if (!mediaType) return;
      setResultProcessor((processed, fetchAPI) => {
        const { data, extensions } = processed as { data?: unknown; extensions?: Record<string, unknown> };
        const body = JSON.stringify(extensions && Object.keys(extensions).length ? { data, extensions } : { data });
        const etag = etagOf(request.headers.get('authorization') ?? '', body);
        const seconds = Math.floor(maxAgeMs() / 1000);
        const headers = {
          etag,
          'cache-control': seconds > 0 ? `private, max-age=${seconds}` : 'private, no-cache',
          vary: 'Authorization, Accept',
        };
        if (matches(request.headers.get('if-none-match'), etag)) return new fetchAPI.Response(null, { status: 304, headers });
        return new fetchAPI.Response(body, { status: 200, headers: { ...headers, 'content-type': `${mediaType}; charset=utf-8` } });
      }, mediaType);
    },
  };
}
