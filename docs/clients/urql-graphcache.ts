// urql with Graphcache for titlegraph: titles normalised by their title number, served from the
// cache whichever query brought them; the objects inside a title have no key of their own.
import { Client, fetchExchange } from '@urql/core';
import { cacheExchange } from '@urql/exchange-graphcache';

export function createNormalisingClient(url: string, apiKey: string) {
  return new Client({
    url,
    // urql sends queries as GET when they fit in a URL: a GET carries a CSRF header.
    fetchOptions: { headers: { authorization: `Bearer ${apiKey}`, 'x-graphql-yoga-csrf': '1' } },
    exchanges: [
      cacheExchange({
        keys: {
          Title: (title) => title.titleNumber as string,
          // Parts of a title, stored inside it (no "Invalid key" warning for them).
          TitleRight: () => null,
          Proprietorship: () => null,
          ConsiderationEntry: () => null,
          Address: () => null,
          PlanSummary: () => null,
          ApplicationSummary: () => null,
          CodeLabel: () => null,
        },
        resolvers: {
          // title(titleNumber: X) reads the title a titles([…, X, …]) page already brought.
          Query: { title: (_parent, args) => ({ __typename: 'Title', titleNumber: args.titleNumber as string }) },
        },
      }),
      fetchExchange,
    ],
  });
}
