/**
 * @defer and @stream results go out in the 2022-08-24 incremental format (`incremental`, `path`,
 * `hasNext`), the one graphql-yoga's defer-stream plugin writes and Apollo Client 4's
 * `Defer20220824Handler` reads. A client that asks for another format only
 * (`multipart/mixed;incrementalSpec=v0.2`, Apollo Client's `GraphQL17Alpha9Handler`) would get
 * parts it cannot read and fail with no useful message: it is told instead, before anything runs.
 */
import { topLevelError } from '../graphql/error-codes';
import type { Plugin } from 'graphql-yoga';

const MESSAGE =
  'This service sends @defer and @stream results in the 2022-08-24 incremental format (multipart/mixed;deferSpec=20220824); incrementalSpec=v0.2 is not supported. In Apollo Client 4, set incrementalHandler: new Defer20220824Handler() (from @apollo/client/incremental).';

/** True when every multipart/mixed range of the Accept header names an incremental format other than ours. */
function asksOnlyForAnotherFormat(accept: string): boolean {
  const multipart = accept
    .split(',')
    .map((range) => range.trim().toLowerCase())
    .filter((range) => range.startsWith('multipart/mixed'));
  return multipart.length > 0 && multipart.every((range) => /;\s*incrementalspec=/.test(range) && !/;\s*deferspec=20220824/.test(range));
}

export function useIncrementalFormat(): Plugin {
  return {
    onRequest({ request, endResponse, fetchAPI }) {
      const accept = request.headers.get('accept');
      if (!accept || !asksOnlyForAnotherFormat(accept)) return;
      endResponse(
        new fetchAPI.Response(JSON.stringify({ errors: [topLevelError('INCREMENTAL_FORMAT_NOT_SUPPORTED', MESSAGE)] }), {
          // 200 and application/json, as a client reads an error it can show: Apollo Client
          // reports only "Received status code 406" for a 4xx, never the message.
          status: 200,
          headers: { 'content-type': 'application/json; charset=utf-8' },
        }),
      );
    },
  };
}
