// urql for titlegraph: persisted queries over GET (cacheable), with the CSRF header GET needs.
import { createHash } from 'node:crypto'; // in a browser: crypto.subtle.digest('SHA-256', …)
import { Client, fetchExchange } from '@urql/core';
import { persistedExchange } from '@urql/exchange-persisted';

export function createTitlegraphClient(url: string, apiKey: string) {
  return new Client({
    url,
    fetchOptions: { headers: { authorization: `Bearer ${apiKey}`, 'x-graphql-yoga-csrf': '1' } },
    exchanges: [
      persistedExchange({
        preferGetForPersistedQueries: true,
        generateHash: async (query) => createHash('sha256').update(query).digest('hex'),
      }),
      fetchExchange,
    ],
  });
}
