/**
 * The vitest configuration Stryker runs (stryker.config.mjs): the project's own, narrowed to the
 * tests of one group of modules (MUTATION_TESTS, set by stryker.config.mjs).
 */
import base from './vitest.config';

export default {
  ...base,
  test: { ...base.test, include: (process.env.MUTATION_TESTS ?? '').split(',').filter(Boolean), reporters: ['default'] },
};
