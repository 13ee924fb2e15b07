/**
 * Automatic persisted queries, Apollo's protocol, as Apollo Client's PersistedQueryLink and
 * urql's persistedExchange speak it: a request with only `extensions.persistedQuery.sha256Hash`
 * runs the query registered under that hash, or is answered PERSISTED_QUERY_NOT_FOUND (and the
 * client sends the query with its hash, which registers it). Written here rather than with
 * @graphql-yoga/plugin-apq: that plugin's peer range pins @graphql-tools/utils 10, while this
 * project (codegen) is on 11, and npm refuses the install.
 */
import { createHash } from 'node:crypto';
import { createGraphQLError, type Plugin } from 'graphql-yoga';
import type { ApqStore } from '../storage/apq-store';

const HEX_SHA256 = /^[0-9a-f]{64}$/;

const refusal = (message: string, code: string) => createGraphQLError(message, { extensions: { code, http: { status: 200 } } });

export function useAutomaticPersistedQueries(store: ApqStore): Plugin {
  return {
    async onParams({ params, setParams }) {
      const persisted = params.extensions?.persistedQuery as { version?: unknown; sha256Hash?: unknown } | undefined;
      if (!persisted || typeof persisted !== 'object') return;
      const hash = typeof persisted.sha256Hash === 'string' ? persisted.sha256Hash.toLowerCase() : '';
      if (persisted.version !== 1 || !HEX_SHA256.test(hash)) {
        throw createGraphQLError('extensions.persistedQuery must be { version: 1, sha256Hash: <64 hex digits> }.', {
          extensions: { code: 'PERSISTED_QUERY_INVALID', http: { status: 400 } },
        });
      }
      if (typeof params.query === 'string') {
        // The client registers: the hash must be the query's, or anyone could shadow another's query.
        if (createHash('sha256').update(params.query, 'utf8').digest('hex') !== hash) {
          throw createGraphQLError('PersistedQueryMismatch: sha256Hash is not the SHA-256 of the query text.', {
            extensions: { code: 'PERSISTED_QUERY_MISMATCH', http: { status: 400 } },
          });
        }
        await store.set(hash, params.query);
        return;
      }
      const query = await store.get(hash);
      // The message and code Apollo Client and urql look for before sending the query itself.
      if (query === undefined) throw refusal('PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND');
      setParams({ ...params, query });
    },
  };
}
