/** Writes schema.graphql from the code (`npm run schema:print`); a test fails when it is stale. */
import { writeFileSync } from 'node:fs';
import { printSchema } from '../src/graphql/schema';

writeFileSync(new URL('../schema.graphql', import.meta.url), printSchema());
console.log('schema.graphql written');
