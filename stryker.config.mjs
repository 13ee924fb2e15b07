/**
 * Mutation testing of the code that guards money and quota (`npm run test:mutation`, not part
 * of `npm test`: most of an hour on 2 cores the first time; incremental re-runs take minutes).
 * docs/test-strength.md holds the summary of the last full run; scripts/test-strength.ts writes it.
 */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.config.ts', related: true },
  // Per-test coverage: each mutant runs only the tests that reach it. Mutants that run only at
  // module load (static) cannot be traced to a test, so they run the whole related suite.
  coverageAnalysis: 'perTest',
  ignoreStatic: false,
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  mutate: [
    'src/register/client/retry.ts',
    'src/register/client/classify.ts',
    'src/register/client/exchange.ts',
    'src/register/client/circuit-breaker.ts',
    'src/graphql/mutations/run-idempotent.ts',
    'src/graphql/mutations/run-chargeable.ts',
    'src/idempotency/sqlite-store.ts',
    'src/idempotency/pg-store.ts',
    'src/security/cost.ts',
    'src/security/one-chargeable-mutation.ts',
    'src/security/entities.ts',
    'src/services/quota.ts',
    'src/services/quota-store.ts',
    'src/services/quota-store-pg.ts',
    'src/emulator/ledger.ts',
  ],
  concurrency: 2,
  timeoutMS: 20_000,
  reporters: ['clear-text', 'progress', 'json', 'html'],
  jsonReporter: { fileName: 'reports/mutation/mutation.json' },
  htmlReporter: { fileName: 'reports/mutation/mutation.html' },
  thresholds: { high: 90, low: 85, break: null },
  // Stryker's default adds // @ts-nocheck to every sandbox file, docs/clients/*.ts too, which
  // breaks test/ecosystem/clients-docs.test.ts (the docs must show those files verbatim).
  disableTypeChecks: 'src/**/*.ts',
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
