/**
 * The service's V8 settings (src/v8-settings.ts) take effect on the Node it runs on: set at run
 * time, they could be ignored or refused by a Node that freezes its flags. Each is checked in a
 * child of its own, against the same workload without it:
 *  - a literal whose objects all survive young collections is pretenured by V8 (its trace says
 *    "=> tenure"); with the settings no site is;
 *  - a loop run 2,000 times is compiled by TurboFan only with the settings.
 * --single-threaded: with V8's compiler on a thread of its own, what is compiled when a
 * collection or a count weighs it depends on timing; on one thread each verdict is the same every run.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';

const MODULE = fileURLToPath(new URL('../../src/v8-settings.ts', import.meta.url));

function traceOf(workload: string, flag: string, settings: boolean): string {
  const script = `import { applyV8Settings } from ${JSON.stringify(MODULE)};\nif (process.env.SETTINGS === '1') applyV8Settings();\n${workload}`;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--single-threaded', flag, '--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: { ...process.env, SETTINGS: settings ? '1' : '0' },
    timeout: 60_000,
  });
  expect(run.status, run.stderr).toBe(0);
  return run.stdout;
}

// Objects of one literal kept across young collections: the shape V8 pretenures.
const KEPT_LITERALS = `
const kept = [];
function make(i) { return { index: i, next: [i] }; }
for (let r = 0; r < 30; r++) for (let i = 0; i < 200_000; i++) { kept.push(make(i)); if (kept.length >= 200_000) kept.length = 0; }
`;

// A function called 40 times, each call a loop of 50: far below V8's default count for TurboFan.
const WARMING_LOOP = `
let sum = 0;
function callMany(n) { for (let i = 0; i < n; i++) sum += (i * 2 + 1) % 7; }
for (let round = 0; round < 40; round++) callMany(50);
console.log('END', sum);
`;

describe('V8 settings', () => {
  test('V8 pretenures the workload’s literals by default, and none once the service’s settings are made', () => {
    const pretenured = (settings: boolean) =>
      traceOf(KEPT_LITERALS, '--trace-pretenuring-statistics', settings)
        .split('\n')
        .filter((line) => line.includes('=> tenure')).length;
    expect(pretenured(false)).toBeGreaterThan(0);
    expect(pretenured(true)).toBe(0);
  });

  test('a loop run 2,000 times reaches TurboFan only with the service’s settings', () => {
    const turbofanned = (settings: boolean) =>
      traceOf(WARMING_LOOP, '--trace-opt', settings)
        .split('END')[0]!
        .split('\n')
        .filter((line) => line.includes('callMany') && line.includes('for optimization to TURBOFAN')).length;
    expect(turbofanned(false)).toBe(0);
    expect(turbofanned(true)).toBeGreaterThan(0);
  });
});
