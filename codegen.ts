/**
 * GraphQL Code Generator (`npm run codegen`): typed documents (client preset) for every
 * operation written with `graphql()` in the tests and examples, plus persisted documents
 * (hash → query) for the allow-list mode of production front ends.
 */
import type { CodegenConfig } from '@graphql-codegen/cli';

const config: CodegenConfig = {
  schema: 'schema.graphql',
  documents: ['test/**/*.ts', '!test/gql/**'],
  ignoreNoDocuments: false,
  generates: {
    'test/gql/': {
      preset: 'client',
      presetConfig: { persistedDocuments: true, fragmentMasking: false },
      config: {
        enumsAsTypes: true,
        useTypeImports: true,
        scalars: {
          TitleNumber: 'string',
          FasNumber: 'string',
          CaseId: 'string',
          Date: 'string',
          DateTime: 'string',
          ReferenceValue: 'string | number',
          JSONObject: 'Record<string, unknown>',
        },
      },
    },
  },
};

export default config;
