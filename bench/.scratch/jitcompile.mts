import { parse } from 'graphql';
import { compileQuery } from 'graphql-jit';
import { buildSchema } from '../../src/graphql/schema/index.ts';
import { PAGE_QUERY, TITLE_QUERY } from '../queries.ts';
const schema = buildSchema();
for (const [n, q] of [['title', TITLE_QUERY], ['page', PAGE_QUERY]] as const) {
  for (let i = 0; i < 3; i++) { const d = parse(q); const t = performance.now(); compileQuery(schema, d); console.log(n, (performance.now() - t).toFixed(2), 'ms'); }
}
