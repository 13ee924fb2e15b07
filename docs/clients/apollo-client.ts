// Apollo Client for titlegraph: titles normalised by their key, served from the cache whichever
// query brought them, and automatic persisted queries.
import { createHash } from 'node:crypto'; // in a browser: crypto.subtle.digest('SHA-256', …)
import { ApolloClient, HttpLink, InMemoryCache } from '@apollo/client';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';

const sha256 = (query: string) => createHash('sha256').update(query).digest('hex');

export function createTitlegraphClient(uri: string, apiKey: string) {
  return new ApolloClient({
    cache: new InMemoryCache({
      typePolicies: {
        // A title's key is its title number (the federation key too), which every query selects.
        Title: { keyFields: ['titleNumber'] },
        // title(titleNumber: X) reads the title a titles([…, X, …]) page already brought.
        Query: {
          fields: {
            title: {
              read: (existing, { args, toReference }) => existing ?? toReference({ __typename: 'Title', titleNumber: args?.titleNumber }),
            },
          },
        },
      },
    }),
    // Sends a hash instead of the query text once the service knows it.
    link: new PersistedQueryLink({ sha256 }).concat(new HttpLink({ uri, headers: { authorization: `Bearer ${apiKey}` } })),
  });
}
