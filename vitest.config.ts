import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    // graphql 16 has no "exports" map: Node loads its CommonJS build for our dependencies, so the
    // test files must get the same build, or graphql's instanceof checks see two copies.
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  test: {
    projects: [
      { extends: true, test: { name: 'default', include: ['test/**/*.test.ts'] } },
      {
        // The paths that differ in production (masking, rewording, no hints, no introspection,
        // compiled queries), run again with NODE_ENV=production: the harness then builds its
        // app as a production start does (test/service/harness.ts).
        extends: true,
        test: {
          name: 'production',
          include: [
            'test/security/limit-refusals.test.ts',
            'test/security/router-key.test.ts',
            'test/server/production-errors.test.ts',
            'test/server/input-errors.test.ts',
            'test/server/jit.test.ts',
            'test/service/actionable-errors.test.ts',
            'test/resilience/charges-in-answer.test.ts',
            'test/ecosystem/graphql-http.test.ts',
          ],
          env: { NODE_ENV: 'production' },
        },
      },
    ],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The JSON report is what .ci/run reads to print its plain "N passed, N failed" line.
    reporters: ['default', ['json', { outputFile: 'test-artifacts/vitest-results.json' }]],
  },
});
