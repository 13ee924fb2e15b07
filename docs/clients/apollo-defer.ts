// Apollo Client 4 and @defer: titlegraph sends the 2022-08-24 incremental format.
import { ApolloClient, HttpLink, InMemoryCache } from '@apollo/client';
import { Defer20220824Handler } from '@apollo/client/incremental';

export function createDeferringClient(uri: string, apiKey: string) {
  return new ApolloClient({
    cache: new InMemoryCache({ typePolicies: { Title: { keyFields: ['titleNumber'] } } }),
    link: new HttpLink({ uri, headers: { authorization: `Bearer ${apiKey}` } }),
    // Without a handler, or with GraphQL17Alpha9Handler (incrementalSpec=v0.2), a deferred query fails.
    incrementalHandler: new Defer20220824Handler(),
  });
}
