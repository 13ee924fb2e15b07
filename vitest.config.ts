import { defineConfig } from 'vitest/config';

/** The fault matrix, the money properties and the database-outage drill. */
const MONEY = [
  'test/resilience/money-*.test.ts',
  'test/resilience/properties.test.ts',
  'test/resilience/charges-in-answer.test.ts',
  'test/resilience/faults.test.ts',
  'test/resilience/caller-gone.test.ts',
];

/** Whole processes, real gateways and clients, browsers, and checks of the repository itself. */
const SYSTEM = [
  'test/browser/**/*.test.ts',
  'test/ecosystem/**/*.test.ts',
  'test/idempotency/{runtime,shutdown,startup,replicas}.test.ts',
  'test/security/http-limits.test.ts',
  'test/code-health.test.ts',
  'test/architecture.test.ts',
];

export default defineConfig({
  resolve: {
    // graphql 16 has no "exports" map: Node loads its CommonJS build for our dependencies, so the
    // test files must get the same build, or graphql's instanceof checks see two copies.
    alias: [{ find: /^graphql$/, replacement: 'graphql/index.js' }],
  },
  test: {
    // Three tiers (`npm test` runs them all; `npx vitest --project core` is the loop while editing):
    // core: emulator-backed and pure tests, seconds; money: the fault matrix and the properties;
    // system: processes, gateways and clients, browsers, repository checks. And `production`, below.
    projects: [
      {
        extends: true,
        // One module graph per worker, not per file: the schema, the emulator and the service are
        // loaded once instead of 60 times (3 min → under 1 min here). The files share no state but
        // what they start themselves, and none mocks a module.
        test: { name: 'core', include: ['test/**/*.test.ts'], exclude: [...MONEY, ...SYSTEM], isolate: false },
      },
      { extends: true, test: { name: 'money', include: MONEY } },
      { extends: true, test: { name: 'system', include: SYSTEM } },
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
