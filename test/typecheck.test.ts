/** The whole project (src, tests, benchmarks, scripts) type-checks under strict TypeScript. */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { expect, it } from 'vitest';

it('tsc --noEmit reports no error', () => {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const result = spawnSync(process.execPath, [tsc, '--noEmit', '-p', 'tsconfig.json'], { encoding: 'utf8', timeout: 120_000 });
  expect(`${result.stdout}${result.stderr}`.trim()).toBe('');
  expect(result.status).toBe(0);
}, 150_000);
