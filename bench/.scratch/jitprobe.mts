import { parse } from 'graphql';
import { compileQuery, isCompiledQuery } from 'graphql-jit';
import { buildSchema } from '../../src/graphql/schema/index.ts';
const schema = buildSchema();
for (const q of [
 'query($r: [_Any!]! = [{ __typename: "Title", titleNumber: "BLK4001" }, { __typename: "Title" }]) { _entities(representations: $r) { __typename } }',
 'query($t: String!) { _entities(representations: { __typename: "Title", titleNumber: $t }) { __typename } }',
 'query($t: String) { _entities(representations: [{ __typename: "Title", titleNumber: $t }]) { ... on Title { titleNumber } } }',
 '{ _entities(representations: [{ __typename: "Title", titleNumber: "x" }]) { __typename } }',
]) { const r = compileQuery(schema, parse(q)); console.log(isCompiledQuery(r) ? 'compiled' : 'FAILED ' + JSON.stringify(r), q.slice(0, 60)); }
