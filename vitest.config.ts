import { defineConfig } from 'vitest/config';

/** The fault matrix, the money properties, the database-outage drill, and the input properties. */
const MONEY = ['test/money/**/*.test.ts', 'test/graphql/input-properties.test.ts'];

/** Whole processes, real gateways and clients, browsers, sockets, outage drills, and checks of the repository itself. */
const SYSTEM = [
  'test/process/**/*.test.ts',
  'test/interop/**/*.test.ts',
  'test/repo/**/*.test.ts',
  'test/observability/**/*.test.ts',
  'test/server/{download-links-http,graphiql-page,cors,http-caching}.test.ts',
  'test/security/http-limits.test.ts',
  // Outage drills: a frozen or unreachable database, a register that hangs (seconds each, waiting out real deadlines).
  'test/storage/pg-deadlines.test.ts',
  'test/server/register-hang.test.ts',
  'test/server/data-route-hang.test.ts',
  'test/server/database-outage-status.test.ts',
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
        // app as a production start does (test/support/harness.ts).
        extends: true,
        test: {
          name: 'production',
          include: [
            'test/security/limit-refusals.test.ts',
            'test/security/router-key.test.ts',
            'test/security/gateway-mark.test.ts',
            'test/security/credentials-first.test.ts',
            'test/security/sign-in-tokens.test.ts',
            'test/security/token-rules.test.ts',
            'test/security/scopes.test.ts',
            'test/server/production-errors.test.ts',
            'test/server/breaker-refusal-words.test.ts',
            'test/server/database-outage-log.test.ts',
            'test/server/validation-once.test.ts',
            'test/server/input-errors.test.ts',
            'test/server/jit.test.ts',
            'test/server/jit-differential.test.ts',
            'test/graphql/actionable-errors.test.ts',
            'test/money/charges-in-answer.test.ts',
            'test/money/register-midnight.test.ts',
            'test/money/statement-settling.test.ts',
            'test/server/accept-before-execution.test.ts',
            'test/interop/graphql-http.test.ts',
            'test/observability/operator-signals.test.ts',
            'test/graphql/messages-to-act-on.test.ts',
            'test/server/register-hang.test.ts',
            'test/server/database-outage-status.test.ts',
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
