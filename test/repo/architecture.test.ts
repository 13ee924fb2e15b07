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

  test('the src root holds only the entry points and configuration', () => {
    const loose = readdirSync(SRC).filter((name) => statSync(join(SRC, name)).isFile());
    expect(loose.sort()).toEqual(['main.ts', 'node-version.ts', 'start.ts']);
  });
});
