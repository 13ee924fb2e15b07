/** Assembles the schema from every domain file; printed as a federation subgraph. */
import { printSubgraphSchema } from '@apollo/subgraph';
import { Kind, parse, print, printSchema as printPlainSchema, specifiedDirectives, type GraphQLSchema } from 'graphql';
import { builder } from '../builder';
import './common';
import './user-error';
import './charge';
import { CHARGEABLE_DIRECTIVE, CHARGEABLE_SPEC_URL } from './chargeable';
import './charge-records';
import './spend';
import './viewer';
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
  schema ??= builder.toSubGraphSchema({
    linkUrl: 'https://specs.apollo.dev/federation/v2.9',
    // Given directives replace graphql's own (@skip, @include, …) unless they are listed too.
    directives: [...specifiedDirectives, CHARGEABLE_DIRECTIVE],
    composeDirectives: ['@chargeable'],
    extensions: { directives: [{ name: 'link', args: { url: CHARGEABLE_SPEC_URL, import: ['@chargeable'] } }] },
  });
  return schema;
}

export function printSchema(): string {
  return `${printSubgraphSchema(buildSchema()).trim()}\n`;
}

/** What federation adds for routers only: a client never asks for these (nor uses the `@chargeable` marker). */
const FEDERATION_TYPES = new Set(['_Any', '_Entity', '_Service', 'chargeable']);
const FEDERATION_FIELDS = new Set(['_entities', '_service']);

/**
 * The schema as a client sees it (schema.client.graphql): no `@link` extension, no federation
 * directives, no `_entities`/`_service`. Relay's compiler and other client tools read it; they
 * reject the subgraph SDL's `extend schema @link(...)`.
 */
export function printClientSchema(): string {
  const document = parse(printPlainSchema(buildSchema()));
  const definitions = document.definitions
    .filter((d) => !('name' in d && d.name && FEDERATION_TYPES.has(d.name.value)))
    .map((d) =>
      d.kind === Kind.OBJECT_TYPE_DEFINITION && d.name.value === 'Query'
        ? { ...d, fields: d.fields?.filter((f) => !FEDERATION_FIELDS.has(f.name.value)) }
        : d,
    );
  return `${print({ ...document, definitions }).trim()}\n`;
}
