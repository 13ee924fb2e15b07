/**
 * Writes schema.graphql (the subgraph SDL, directives included) and schema.client.graphql (the
 * schema as clients see it, without federation) from the code (`npm run schema:print`); a test
 * fails when either is stale.
 */
import { writeFileSync } from 'node:fs';
import { printClientSchema, printSchema } from '../src/graphql/schema';

writeFileSync(new URL('../schema.graphql', import.meta.url), printSchema());
writeFileSync(new URL('../schema.client.graphql', import.meta.url), printClientSchema());
console.log('schema.graphql and schema.client.graphql written');
