/**
 * GraphiQL served from the bundled `@graphql-yoga/render-graphiql` package: its JS, CSS, editor
 * workers and favicon are inlined in the page, so it needs no CDN (yoga's default page loads them
 * from unpkg.com, which offline and many corporate networks cannot reach).
 */
import { renderGraphiQL as renderBundledGraphiQL } from '@graphql-yoga/render-graphiql';
import type { GraphiQLOptions } from 'graphql-yoga';

/** The page is ~9 MB of inlined assets: render it once per distinct options, not per request. */
const pages = new Map<string, string>();

export function renderGraphiQL(options: GraphiQLOptions): string {
  const key = JSON.stringify(options);
  let page = pages.get(key);
  if (page === undefined) {
    page = renderBundledGraphiQL(options);
    if (pages.size > 16) pages.clear();
    pages.set(key, page);
  }
  return page;
}
