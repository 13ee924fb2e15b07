/**
 * The Pothos schema builder: plugins and scalars only, no domain types (those live in
 * src/graphql/schema/, one file per domain). Fields are non-null unless a field says otherwise.
 */
import SchemaBuilder from '@pothos/core';
import DirectivesPlugin from '@pothos/plugin-directives';
import FederationPlugin from '@pothos/plugin-federation';
import type { Context } from './context';
import type { Scope } from '../services/scopes';
import {
  CaseIdScalar,
  DateScalar,
  DateTimeScalar,
  FasNumberScalar,
  JSONObjectScalar,
  ReferenceValueScalar,
  TitleNumberScalar,
} from './schema/scalars';

export interface BuilderTypes {
  Context: Context;
  /** `@requiresScopes` takes only the scopes services/scopes.ts lists. */
  FederationScopes: Scope;
  DefaultFieldNullability: false;
  DefaultInputFieldRequiredness: false;
  Scalars: {
    TitleNumber: { Input: string; Output: string };
    FasNumber: { Input: string; Output: string };
    CaseId: { Input: string; Output: string };
    Date: { Input: string; Output: string };
    DateTime: { Input: Date; Output: Date | string };
    ReferenceValue: { Input: string | number; Output: string | number };
    JSONObject: { Input: Record<string, unknown>; Output: Record<string, unknown> };
  };
}

export const builder = new SchemaBuilder<BuilderTypes>({
  plugins: [DirectivesPlugin, FederationPlugin],
  defaultFieldNullability: false,
});

builder.addScalarType('TitleNumber', TitleNumberScalar);
builder.addScalarType('FasNumber', FasNumberScalar);
builder.addScalarType('CaseId', CaseIdScalar);
builder.addScalarType('Date', DateScalar);
builder.addScalarType('DateTime', DateTimeScalar);
builder.addScalarType('ReferenceValue', ReferenceValueScalar);
builder.addScalarType('JSONObject', JSONObjectScalar);

builder.queryType({ description: 'Read the register. Every query is free of charge.' });
builder.mutationType({
  description:
    'Chargeable or creating register operations. Each takes a required idempotencyKey and reports business failures as userErrors.',
});
