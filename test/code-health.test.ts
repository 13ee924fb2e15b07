/**
 * The code's own health, checked with the suite so CI runs it: strict TypeScript over the whole
 * project, Biome (format and lint, including no import cycles and the contract's dependency
 * direction: biome.json), and knip (no unused file, export or dependency: knip.jsonc).
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..');
const resolveBin = (specifier: string) => createRequire(import.meta.url).resolve(specifier);

function run(script: string, args: string[]) {
  const result = spawnSync(process.execPath, [script, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 240_000,
    env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0' },
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}`.trim() };
}

it('tsc --noEmit reports no error', () => {
  const result = run(resolveBin('typescript/bin/tsc'), ['--noEmit', '-p', 'tsconfig.json']);
  expect(result.output).toBe('');
  expect(result.status).toBe(0);
}, 250_000);

it('no import cycle, types included (Biome noImportCycles)', () => {
  const result = run(join(ROOT, 'node_modules/@biomejs/biome/bin/biome'), [
    'lint',
    '--only=suspicious/noImportCycles',
    '--max-diagnostics=20',
    '.',
  ]);
  expect(result.status, result.output).toBe(0);
}, 250_000);

it('Biome: formatted, and no lint finding', () => {
  const result = run(join(ROOT, 'node_modules/@biomejs/biome/bin/biome'), ['ci', '--error-on-warnings', '--max-diagnostics=20', '.']);
  expect(result.status, result.output).toBe(0);
}, 250_000);

it('knip: no unused file, export or dependency', () => {
  const result = run(join(ROOT, 'node_modules/knip/bin/knip.js'), ['--no-progress']);
  expect(result.status, result.output).toBe(0);
}, 250_000);
