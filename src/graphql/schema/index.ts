/** Assembles the schema from every domain file; printed as a federation subgraph. */
import { printSubgraphSchema } from '@apollo/subgraph';
import type { GraphQLSchema } from 'graphql';
import { builder } from '../builder';
import './common';
import './user-error';
import './charge';
import './charge-records';
import './spend';
import './node';
import './title';
import './security';
import './creditor';
import './reference-list';
import './title-details';
import './pending-applications';
import './document';
import './plan';
import './case';
import './deed';
import './register-usage';

let schema: GraphQLSchema | undefined;

export function buildSchema(): GraphQLSchema {
  schema ??= builder.toSubGraphSchema({ linkUrl: 'https://specs.apollo.dev/federation/v2.9' });
  return schema;
}

export function printSchema(): string {
  return `${printSubgraphSchema(buildSchema()).trim()}\n`;
}
