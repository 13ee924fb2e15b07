/**
 * The service's one V8 setting (src/garbage-collection.ts) takes effect on the Node it runs on:
 * set at run time, it could be ignored or refused by a Node that freezes its flags. A literal
 * whose objects all survive young collections is pretenured by V8 (its trace says "=> tenure");
 * after tuneGarbageCollection() no site is.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const MODULE = fileURLToPath(new URL('../../src/garbage-collection.ts', import.meta.url));
// Objects of one literal kept across young collections: the shape V8 pretenures.
const WORKLOAD = `
import { tuneGarbageCollection } from ${JSON.stringify(MODULE)};
if (process.env.TUNE === '1') tuneGarbageCollection();
const kept = [];
function make(i) { return { index: i, next: [i] }; }
for (let r = 0; r < 30; r++) for (let i = 0; i < 200_000; i++) { kept.push(make(i)); if (kept.length >= 200_000) kept.length = 0; }
`;

// --single-threaded: with V8's compiler on a thread of its own, whether the literal is still run
// by code that marks its objects when a collection weighs it depends on timing (seen: 2 sites one
// run, 0 the next); on one thread the default's verdict is the same every run.
const pretenured = (tune: boolean): number => {
  const flags = ['--single-threaded', '--trace-pretenuring-statistics'];
  const run = spawnSync(process.execPath, ['--import', 'tsx', ...flags, '--input-type=module', '-e', WORKLOAD], {
    encoding: 'utf8',
    env: { ...process.env, TUNE: tune ? '1' : '0' },
    timeout: 60_000,
  });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout.split('\n').filter((line) => line.includes('=> tenure')).length;
};

describe('garbage collection tuning', () => {
  test('V8 pretenures the workload’s literals by default, and none once the service’s setting is made', () => {
    expect(pretenured(false)).toBeGreaterThan(0);
    expect(pretenured(true)).toBe(0);
  });
});
