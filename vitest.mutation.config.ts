/**
 * The vitest configuration Stryker runs (stryker.config.mjs): the project's own, narrowed to the
 * tests of one group of modules (MUTATION_TESTS, set by stryker.config.mjs).
 */
import base from './vitest.config';

export default {
  ...base,
  // One project of the group's tests: the base's tiers would each bring their own file lists.
  test: {
    ...base.test,
    projects: undefined,
    include: (process.env.MUTATION_TESTS ?? '').split(',').filter(Boolean),
    reporters: ['default'],
  },
};
