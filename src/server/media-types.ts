/**
 * Media types are case-insensitive (RFC 9110 §8.3.1), but Yoga matches `Content-Type` as written:
 * `application/JSON` is answered 415. A JSON body under any spelling of the JSON media types is
 * parsed here as Yoga parses its own, with the same refusal for a body that is not JSON.
 */
import { createGraphQLError, type Plugin } from 'graphql-yoga';

const JSON_TYPES = new Set(['application/json', 'application/graphql+json', 'application/graphql-response+json']);

function mediaType(request: Request): string | undefined {
  return request.headers.get('content-type')?.split(',')[0]?.split(';')[0]?.trim();
}

export function useCaseInsensitiveMediaTypes(): Plugin {
  return {
    onRequestParse({ request, setRequestParser }) {
      if (request.method !== 'POST') return;
      const type = mediaType(request);
      // Yoga's own parser takes the lower-case spellings; only the others need this one.
      if (!type || type === type.toLowerCase() || !JSON_TYPES.has(type.toLowerCase())) return;
      setRequestParser(async (req) => {
        const text = await req.text();
        try {
          return JSON.parse(text);
        } catch (error) {
          throw createGraphQLError('POST body sent invalid JSON.', {
            originalError: error as Error,
            extensions: { http: { status: 400 } },
          });
        }
      });
    },
  };
}
