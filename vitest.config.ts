import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The JSON report is what .ci/run reads to print its plain "N passed, N failed" line.
    reporters: ['default', ['json', { outputFile: 'test-artifacts/vitest-results.json' }]],
  },
});
