/**
 * The code's own health, checked with the suite so CI runs it: strict TypeScript over the whole
 * project, Biome (format and lint, including no import cycles and the contract's dependency
 * direction: biome.json), and knip (no unused file, export or dependency: knip.jsonc).
 */
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');
/** A package's command, from its package.json `bin` (TypeScript 7's `exports` no longer expose `bin/tsc` to resolve). */
function binOf(pkg: string, command: string): string {
  const manifestPath = createRequire(import.meta.url).resolve(`${pkg}/package.json`);
  const { bin } = JSON.parse(readFileSync(manifestPath, 'utf8')) as { bin: string | Record<string, string> };
  return join(dirname(manifestPath), typeof bin === 'string' ? bin : bin[command]!);
}

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
  const result = run(binOf('typescript', 'tsc'), ['--noEmit', '-p', 'tsconfig.json']);
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

/**
 * Each layer's wrong-way import, written as a probe file where a newcomer would put it: lint must
 * refuse it (biome.json's noRestrictedImports per layer, docs/architecture.md). The probes live
 * only for the lint run of this test.
 */
describe('lint refuses an import that runs up a layer', () => {
  it.for<[string, string]>([
    ['src/graphql/layer-probe.ts', "import { serve } from '../server/serve';\nexport const probe = serve;\n"],
    ['src/services/layer-probe.ts', "import { createContext } from '../graphql/context';\nexport const probe = createContext;\n"],
    ['src/services/layer-probe-server.ts', "import { createApp } from '../server/app';\nexport const probe = createApp;\n"],
    ['src/storage/layer-probe.ts', "import { SpendControl } from '../services/spend';\nexport const probe = SpendControl;\n"],
    ['src/register/client/layer-probe.ts', "import { QuotaGuard } from '../../services/quota';\nexport const probe = QuotaGuard;\n"],
    ['src/server/layer-probe.ts', "import { loadConfig } from '../config';\nexport const probe = loadConfig;\n"],
    ['src/services/layer-probe-config.ts', "import { Env } from '../config/env';\nexport const probe = Env;\n"],
    // config/ stands on the ground floor: a settings shape from the module that runs, or a package of the runtime, is refused.
    ['src/config/layer-probe.ts', "import type { Services } from '../services/create-services';\nexport type Probe = Services;\n"],
    ['src/config/layer-probe-package.ts', "import { Pool } from 'pg';\nexport const probe = Pool;\n"],
    [
      'src/emulator/layer-probe.ts',
      "import { SqliteIdempotencyStore } from '../storage/idempotency/sqlite-store';\nexport const probe = SqliteIdempotencyStore;\n",
    ],
  ])('%s', { timeout: 60_000 }, ([path, source]) => {
    const file = join(ROOT, path);
    writeFileSync(file, source);
    onTestFinished(() => rmSync(file, { force: true }));
    const result = run(join(ROOT, 'node_modules/@biomejs/biome/bin/biome'), ['lint', '--only=style/noRestrictedImports', path]);
    expect(result.status, result.output).not.toBe(0);
    expect(result.output).toContain('noRestrictedImports');
  });
});
