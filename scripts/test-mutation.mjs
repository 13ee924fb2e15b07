/**
 * `npm run test:mutation [-- group …] [-- --force]`: Stryker over each group of money and quota
 * modules in stryker.config.mjs (all groups, or the ones named), one after the other, then
 * docs/test-strength.md from their reports. Incremental: a re-run after a small change reuses
 * the results of unchanged code and tests. `--force` runs every mutant again; use it after
 * changing tests that kill static mutants, whose earlier results Stryker otherwise reuses.
 */
import { spawnSync } from 'node:child_process';
import { GROUPS } from '../stryker.config.mjs';

const args = process.argv.slice(2);
const force = args.includes('--force');
const named = args.filter((a) => !a.startsWith('--'));
const unknown = named.filter((n) => !(n in GROUPS));
if (unknown.length > 0) {
  console.error(`Unknown group(s): ${unknown.join(', ')}. Groups: ${Object.keys(GROUPS).join(', ')}`);
  process.exit(2);
}
let failed = false;
for (const group of named.length > 0 ? named : Object.keys(GROUPS)) {
  console.log(`\n=== mutation testing: ${group}`);
  const run = spawnSync('npx', ['stryker', 'run', ...(force ? ['--force'] : [])], {
    stdio: 'inherit',
    env: { ...process.env, MUTATION_GROUP: group },
  });
  if (run.status !== 0) failed = true;
}
const report = spawnSync('npx', ['tsx', 'scripts/test-strength.ts'], { stdio: 'inherit' });
process.exit(failed || report.status !== 0 ? 1 : 0);
