/**
 * Mutation testing of the code that guards money and quota. `npm run test:mutation`
 * (scripts/test-mutation.mjs) runs Stryker once per group of modules below, each against the
 * tests that exercise it, then writes docs/test-strength.md. Not part of `npm test`.
 *
 * Run one group by hand: MUTATION_GROUP=exchange npx stryker run
 *
 * Why groups with their own tests: the whole suite takes minutes and Stryker runs it again for
 * every static mutant (code that runs at module load, or in a test's set-up); a group's own
 * tests take seconds. The tests are narrowed through vitest's `include`
 * (vitest.mutation.config.ts), not Stryker's --testFiles, which activates static mutants too late
 * and reports them as survivors (stryker-js#6144, #6209).
 */
export const GROUPS = {
  'client-pure': {
    mutate: ['src/register/client/retry.ts', 'src/register/client/classify.ts', 'src/register/client/circuit-breaker.ts'],
    tests: [
      'test/register/classify.test.ts',
      'test/register/retry-decision.test.ts',
      'test/register/faults.test.ts',
      'test/register/retry-helpers.test.ts',
      'test/register/exchange.test.ts',
      'test/register/breaker.test.ts',
    ],
  },
  exchange: {
    mutate: ['src/register/client/exchange.ts'],
    tests: ['test/register/*.test.ts', 'test/register/exchange.test.ts', 'test/register/exchange-direct.test.ts'],
  },
  runner: {
    mutate: [
      'src/services/idempotency/*.ts',
      'src/graphql/mutations/run-idempotent.ts',
      'src/graphql/mutations/run-chargeable.ts',
    ],
    tests: [
      'test/money/idempotency-runner.test.ts',
      'test/money/money-safety-edges.test.ts',
      'test/money/money-safety.test.ts',
      'test/money/idempotency.test.ts',
      'test/money/chargeable.test.ts',
      'test/graphql/cases.test.ts',
      'test/graphql/actionable-errors.test.ts',
      // maxFee, spending refusals and their words, and a key that is another caller's
      'test/money/spend-control.test.ts',
      'test/money/spend-refusal-words.test.ts',
      'test/graphql/callers.test.ts',
      // extensions.charges on answers and replays that end in errors; the register day of a charge
      'test/money/charges-in-answer.test.ts',
      'test/money/charge-day.test.ts',
      // a person's name on each charge they make
      'test/security/sign-in-tokens.test.ts',
      // near the register's midnight: what counts as bought today, and the refusal's words
      'test/money/register-midnight.test.ts',
      // an outcome held in memory while the store cannot take it, and its replay
      'test/money/replay-unwritten.test.ts',
    ],
  },
  stores: {
    mutate: ['src/storage/idempotency/sqlite-store.ts', 'src/storage/idempotency/pg-store.ts'],
    tests: ['test/storage/idempotency-store-contract.test.ts', 'test/money/idempotency-runner.test.ts', 'test/storage/idempotency-stores.test.ts'],
  },
  security: {
    mutate: ['src/security/cost.ts', 'src/security/gateway-rules.ts', 'src/security/entities.ts'],
    tests: [
      'test/security/limits.test.ts',
      'test/security/limit-refusals.test.ts',
      'test/security/cost.test.ts',
      'test/security/entities.test.ts',
      'test/security/one-chargeable.test.ts',
    ],
  },
  leases: {
    mutate: ['src/services/quota-leases.ts'],
    tests: [
      'test/services/quota-leases.test.ts',
      'test/services/quota-lease-per-replica.test.ts',
      'test/services/quota-lease-differential.test.ts',
      'test/services/quota-lease-steps.test.ts',
      'test/storage/quota-leases-pg.test.ts',
    ],
  },
  quota: {
    mutate: [
      'src/services/quota.ts',
      'src/storage/quota/admission-decision.ts',
      'src/storage/quota/sqlite-store.ts',
      'src/storage/quota/pg-store.ts',
    ],
    tests: [
      'test/services/org-quota.test.ts',
      'test/services/quota-usage.test.ts',
      'test/storage/quota-store-contract.test.ts',
      'test/services/quota-guard.test.ts',
      'test/storage/quota-stores.test.ts',
      'test/storage/quota-ledger.test.ts',
      // The lease paths of quota.ts and of the stores (a lease's give-back, NOTIFY's recall).
      'test/services/quota-leases.test.ts',
      'test/services/quota-lease-differential.test.ts',
      'test/storage/quota-leases-pg.test.ts',
    ],
  },
  spend: {
    mutate: [
      'src/services/spend.ts',
      'src/services/statements.ts',
      'src/server/statements-csv.ts',
      // What both stores share: the spending decision made inside the claim's transaction, the claim
      // protocol, the journal's rows and tables, and statement pages.
      'src/storage/idempotency/spending-decision.ts',
      'src/storage/idempotency/claim.ts',
      'src/storage/idempotency/rows.ts',
      'src/storage/idempotency/tables.ts',
      'src/storage/idempotency/statement-pages.ts',
    ],
    tests: [
      'test/money/spend-control.test.ts',
      'test/services/spend.test.ts',
      // chargeStatement's pages and cursors, and the CSV
      'test/graphql/callers.test.ts',
      'test/server/statements-csv.test.ts',
      // how long the journal is kept, and the warning a statement reaching past it carries
      'test/services/journal-retention.test.ts',
      // a person's statement, in GraphQL and CSV, and another's refused
      'test/security/sign-in-tokens.test.ts',
      'test/storage/statement-pages.test.ts',
      'test/storage/idempotency-store-contract.test.ts',
      // The claim protocol and the journal entries both stores write.
      'test/storage/idempotency-stores.test.ts',
      // the shortest journal a start accepts (MIN_JOURNAL_RETENTION_DAYS)
      'test/process/config.test.ts',
    ],
  },
  ledger: {
    mutate: ['src/emulator/ledger.ts'],
    tests: ['test/emulator/charging.test.ts', 'test/emulator/ledger.test.ts'],
  },
};

const name = process.env.MUTATION_GROUP ?? '';
// Imported without a group by scripts/test-mutation.mjs, for the list of groups only.
const group = GROUPS[name] ?? { mutate: [], tests: [] };
if (name && !GROUPS[name]) throw new Error(`MUTATION_GROUP must be one of ${Object.keys(GROUPS).join(', ')} (got "${name}")`);
// Read by vitest.mutation.config.ts in the test runner processes.
process.env.MUTATION_TESTS = group.tests.join(',');

export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutation.config.ts', related: false },
  // Per-test coverage: each mutant runs only the tests that reach it. Mutants that run only at
  // module load (static) cannot be traced to a test, so they run the group's whole test list.
  coverageAnalysis: 'perTest',
  ignoreStatic: false,
  incremental: true,
  incrementalFile: `reports/stryker-incremental-${name}.json`,
  mutate: group.mutate,
  concurrency: 2,
  timeoutMS: 20_000,
  reporters: ['clear-text', 'json', 'html'],
  jsonReporter: { fileName: `reports/mutation/${name}.json` },
  htmlReporter: { fileName: `reports/mutation/${name}.html` },
  thresholds: { high: 90, low: 85, break: null },
  // Stryker's default adds // @ts-nocheck to every sandbox file, docs/clients/*.ts too, which
  // breaks test/interop/clients-docs.test.ts (the docs must show those files verbatim).
  disableTypeChecks: 'src/**/*.ts',
  // Stryker rewrites the tsconfig's `extends` and `references` in its sandbox through
  // TypeScript's JavaScript API, which TypeScript 7 no longer ships. Ours has neither, so it is
  // pointed at no file and nothing is rewritten.
  tsconfigFile: 'tsconfig.stryker-none.json',
  tempDirName: '.stryker-tmp',
  cleanTempDir: 'always',
};
