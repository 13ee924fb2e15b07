/**
 * The direction of dependencies (docs/architecture.md): the register contract depends on nothing
 * of ours, and the emulator on nothing of ours but the contract, so the emulator stays a
 * stand-in for the register and never a part of the service.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
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
 * Each import of a file whose values are used (not `import type`), as a path under src/ for our
 * own modules and as the package name for others: what loading the file runs.
 */
function valueImportsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const statements = text.matchAll(/^(?:import|export)\s+(type\s+)?([\s\S]*?)\s*from\s*['"]([^'"]+)['"];?/gm);
  return [...statements]
    .filter(([, typeOnly, names]) => !typeOnly && !/^\{\s*(?:type\s+\w+(?:\s+as\s+\w+)?\s*,?\s*)+\}$/.test(names!.trim()))
    .map(([, , , from]) => (from!.startsWith('.') ? relative(SRC, resolve(dirname(file), from!)).replace(/\.ts$/, '') : from!));
}

/**
 * Packages src/config may load: zod reads the settings, and graphql's parse checks each
 * persisted operation at start (neither runs anything on import).
 */
const PACKAGES_CONFIG_MAY_USE = new Set(['zod', 'graphql']);

/** A module whose loading runs nothing of ours but other leaves, and no package but Node's own. */
function isLeaf(target: string, seen = new Set<string>()): boolean {
  if (target.startsWith('node:')) return true;
  if (!/^[a-z]/.test(target) || !target.includes('/')) return false;
  if (seen.has(target)) return true;
  seen.add(target);
  const file = join(SRC, `${target}.ts`);
  const index = join(SRC, target, 'index.ts');
  const path = statSync(file, { throwIfNoEntry: false }) ? file : statSync(index, { throwIfNoEntry: false }) ? index : undefined;
  return path !== undefined && valueImportsOf(path).every((next) => isLeaf(next, seen));
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

  test('the settings stand on the ground floor: src/config imports only side-effect-free leaves, zod and graphql', () => {
    const offending = filesUnder(join(SRC, 'config')).flatMap((file) =>
      valueImportsOf(file)
        .filter((target) => !(target.startsWith('config/') || PACKAGES_CONFIG_MAY_USE.has(target) || isLeaf(target)))
        .map((target) => `${relative(SRC, file)} → ${target}`),
    );
    expect(offending).toEqual([]);
  });

  test('the src root holds only the entry points and configuration', () => {
    const loose = readdirSync(SRC).filter((name) => statSync(join(SRC, name)).isFile());
    expect(loose.sort()).toEqual(['main.ts', 'node-version.ts', 'start.ts']);
  });
});
