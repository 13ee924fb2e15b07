// Apollo Client for titlegraph: titles normalised by their key, automatic persisted queries.
import { createHash } from 'node:crypto'; // in a browser: crypto.subtle.digest('SHA-256', …)
import { ApolloClient, HttpLink, InMemoryCache } from '@apollo/client';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';

const sha256 = (query: string) => createHash('sha256').update(query).digest('hex');

export function createTitlegraphClient(uri: string, apiKey: string) {
  return new ApolloClient({
    cache: new InMemoryCache({
      // A Title has no `id`: its key is its title number (the federation key too).
      typePolicies: { Title: { keyFields: ['titleNumber'] } },
    }),
    // Sends a hash instead of the query text once the service knows it.
    link: new PersistedQueryLink({ sha256 }).concat(new HttpLink({ uri, headers: { authorization: `Bearer ${apiKey}` } })),
  });
}
