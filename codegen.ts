/**
 * GraphQL Code Generator (`npm run codegen`): typed documents (client preset) for every
 * operation written with `graphql()` in the tests and in the example front end, plus persisted
 * documents (id → query) for the allow-list mode of production front ends
 * (PERSISTED_OPERATIONS_FILE, PERSISTED_OPERATIONS_ONLY).
 */
import type { CodegenConfig } from '@graphql-codegen/cli';

const typesConfig = {
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
};

const config: CodegenConfig = {
  schema: 'schema.graphql',
  ignoreNoDocuments: false,
  generates: {
    'test/gql/': {
      documents: ['test/**/*.ts', '!test/gql/**'],
      preset: 'client',
      presetConfig: { persistedDocuments: true, fragmentMasking: false },
      config: typesConfig,
    },
    // The example front end: documents as strings (no graphql runtime in the bundle), each with its id.
    'examples/web/src/gql/': {
      documents: ['examples/web/src/**/*.ts', '!examples/web/src/gql/**'],
      preset: 'client',
      presetConfig: { persistedDocuments: true, fragmentMasking: false },
      config: { ...typesConfig, documentMode: 'string' },
    },
  },
};

export default config;
