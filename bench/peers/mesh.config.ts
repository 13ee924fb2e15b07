/**
 * Mesh Compose: a supergraph generated from the register emulator's OpenAPI description.
 * REGISTER_ORIGIN is the emulator's origin (set by bench/run.ts). The caller's Authorization
 * header (a register bearer token) is forwarded to the register as it is.
 */
import { defineConfig } from '@graphql-mesh/compose-cli';
import { loadOpenAPISubgraph } from '@omnigraph/openapi';

const origin = process.env.REGISTER_ORIGIN ?? 'http://127.0.0.1:4010';

export const composeConfig = defineConfig({
  subgraphs: [
    {
      sourceHandler: loadOpenAPISubgraph('Register', {
        source: `${origin}/v1/openapi.json`,
        endpoint: `${origin}/v1`,
        operationHeaders: { Authorization: '{context.headers.authorization}' },
      }),
    },
  ],
});
