// codegen.ts of a front end using titlegraph: its custom scalars typed, not `unknown`.
import type { CodegenConfig } from '@graphql-codegen/cli';

export const titlegraphScalars = {
  TitleNumber: 'string', // MID15313
  FasNumber: 'string', // '0877': leading zeros matter, never a number
  CaseId: 'string',
  Date: 'string', // YYYY-MM-DD
  DateTime: 'string', // ISO 8601 with offset
  ReferenceValue: 'string | number',
  JSONObject: 'Record<string, unknown>',
};

export function titlegraphCodegen(schema: string, documents: string[], output: string): CodegenConfig {
  return {
    schema, // e.g. 'https://titlegraph.example.com/graphql' (introspection) or a copy of schema.graphql
    documents,
    generates: { [output]: { preset: 'client', config: { scalars: titlegraphScalars, enumsAsTypes: true } } },
  };
}
