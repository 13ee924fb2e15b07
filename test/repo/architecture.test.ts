/**
 * The direction of dependencies (docs/architecture.md): the register contract depends on nothing
 * of ours, and the emulator on nothing of ours but the contract, so the emulator stays a
 * stand-in for the register and never a part of the service; the settings (src/config) stand on
 * the ground floor, and loading them runs nothing of the runtime.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';

const SRC = resolve(import.meta.dirname, '../../src');

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : path.endsWith('.ts') ? [path] : [];
  });
}

/** Each relative import of a file, as a path under src/. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/(?:from|import)\s*\(?\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => relative(SRC, resolve(dirname(file), m[1]!)));
}

/**
 * Every module a file imports or re-exports from, `import type` and a bare `import '…'` included:
 * a path under src/ (without .ts) for ours, the package's or node: name for others.
 */
function everyImportOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^(?:import|export)\s(?:[^'";]*?\sfrom\s*)?['"]([^'"]+)['"]/gm)].map(([, from]) =>
    from!.startsWith('.') ? relative(SRC, resolve(dirname(file), from!)).replace(/\.ts$/, '') : from!,
  );
}

/** The lists the settings build on: the register contract's amounts and products, and the scopes. Each imports nothing. */
const PURE_LISTS = ['register/contract/money', 'services/scopes'];

/**
 * What a settings leaf (a module's settings.ts: shapes and defaults) may import, types included:
 * other leaves, the pure lists, zod and Node's own modules; so whatever src/config imports of
 * them stands on the ground floor too.
 */
const leafMayImport = (target: string) =>
  /(^|\/)settings$/.test(target) || PURE_LISTS.includes(target) || target === 'zod' || target.startsWith('node:');

/**
 * Packages src/config may load: zod reads the settings, and graphql's parse checks each
 * persisted operation at start (neither runs anything on import). biome.json's override for
 * src/config/** holds the same list.
 */
const PACKAGES_CONFIG_MAY_USE = ['graphql', 'zod'];

/** What importing src/config must not load: the database drivers, the logger, the HTTP client, the compiler. */
const RUNTIME_PACKAGES = ['pg', 'pino', 'undici', 'node:sqlite', 'graphql-jit'];

/**
 * Every module Node resolves while a fresh process imports src/config/index.ts, as src/ paths,
 * package names and node: builtins: a resolve hook (module.registerHooks) writes each down.
 */
function loadedByConfig(): string[] {
  const script = [
    "import { registerHooks } from 'node:module';",
    'const seen = new Set();',
    'registerHooks({ resolve(specifier, context, next) { const r = next(specifier, context); seen.add(r.url); return r; } });',
    `await import(${JSON.stringify(pathToFileURL(join(SRC, 'config/index.ts')).href)});`,
    'process.stdout.write(JSON.stringify([...seen]));',
  ].join('\n');
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
    cwd: resolve(SRC, '..'),
    encoding: 'utf8',
    timeout: 30_000,
  });
  expect(run.status, run.stderr).toBe(0);
  const urls = JSON.parse(run.stdout) as string[];
  return [
    ...new Set(
      urls.map((url) => {
        if (!url.startsWith('file:')) return url;
        const path = fileURLToPath(url);
        const pkg = /\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
        return pkg ? pkg[1]! : relative(SRC, path);
      }),
    ),
  ].sort();
}

describe('dependency direction', () => {
  test.each([
    ['src/register/contract', ['register/contract']],
    ['src/emulator', ['emulator', 'register/contract']],
  ])('%s imports only from %j', (folder, allowed) => {
    const offending = filesUnder(join(SRC, folder.replace(/^src\//, ''))).flatMap((file) =>
      importsOf(file)
        .filter((target) => !allowed.some((prefix) => target === prefix || target.startsWith(`${prefix}/`)))
        .map((target) => `${relative(SRC, file)} → ${target}`),
    );
    expect(offending).toEqual([]);
  });

  // src/config's own imports are biome.json's (its override for src/config/**); what it imports of them, these.
  test("each settings leaf imports only other leaves, the register contract's money, the scopes, zod and Node, types included", () => {
    const leaves = filesUnder(SRC).filter((file) => file.endsWith('/settings.ts'));
    expect(leaves.map((file) => relative(SRC, file)).sort()).toEqual([
      'observability/settings.ts',
      'register/client/settings.ts',
      'security/settings.ts',
      'server/settings.ts',
      'services/settings.ts',
      'storage/settings.ts',
    ]);
    const offending = leaves.flatMap((file) =>
      everyImportOf(file)
        .filter((target) => !leafMayImport(target))
        .map((target) => `${relative(SRC, file)} → ${target}`),
    );
    expect(offending).toEqual([]);
    expect(PURE_LISTS.flatMap((list) => everyImportOf(join(SRC, `${list}.ts`)))).toEqual([]);
  });

  test(`loading src/config loads none of ${RUNTIME_PACKAGES.join(', ')}: only its own files, settings leaves, zod and graphql`, () => {
    const loaded = loadedByConfig();
    expect(loaded.filter((module) => RUNTIME_PACKAGES.includes(module))).toEqual([]);
    const ours = loaded.filter((module) => module.endsWith('.ts'));
    expect(ours).toContain('config/index.ts');
    expect(ours.filter((path) => !path.startsWith('config/') && !leafMayImport(path.replace(/\.ts$/, '')))).toEqual([]);
    const packages = loaded.filter((module) => !module.endsWith('.ts') && !module.startsWith('node:'));
    expect(packages).toEqual(PACKAGES_CONFIG_MAY_USE);
  }, 40_000);

  test('the src root holds only the entry points and what they set up for the process', () => {
    const loose = readdirSync(SRC).filter((name) => statSync(join(SRC, name)).isFile());
    expect(loose.sort()).toEqual(['main.ts', 'node-version.ts', 'start.ts', 'v8-settings.ts']);
  });
});
