/**
 * Every path of the repository that its text names (a comment, the README and docs, biome.json,
 * the vitest and Stryker configurations) exists, and every glob matches a file: a file that moves
 * or goes fails here until what names it follows.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, globSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../..');

/** What is named but made by a run, a build or a test, not kept in the repository. */
const MADE_ELSEWHERE = [
  /^bench\/\.logs\b/, // bench and soak logs (npm run bench)
  /^bench\/peers\/node_modules\b/, // the Mesh peer's own install
  /^examples\/web\/(dist|\.env\.local)\b/, // the web example's build and local settings
  /\/layer-probe[\w-]*\.ts$/, // written and removed by test/repo/code-health.test.ts
  /^src\/gql\b/, // examples/web's own src/gql, named from the web example's folder
];

const TEXT = /\.(ts|mjs|md|json|jsonc|ya?ml|graphql|sh)$|(^|\/)Dockerfile$/;
// bench/RESULTS.md and results.json are written by a bench run: their profiles name files as they were then.
const GENERATED =
  /^(test\/gql|examples\/web\/src\/gql|examples\/relay\/src\/__generated__)\/|(^|\/)package-lock\.json$|^bench\/(RESULTS\.md|results\.json)$/;
const NAMED = /(?<![\w./-])((?:src|test|docs|scripts|examples|bench)\/[\w./*{},-]*[\w*}])/g;

/** `a/{b,c}.ts` as `a/b.ts` and `a/c.ts` (one brace group is all the repository uses). */
function expand(pattern: string): string[] {
  const brace = /\{([^}]*)\}/.exec(pattern);
  if (!brace) return [pattern];
  return brace[1]!
    .split(',')
    .map((alternative) => pattern.slice(0, brace.index) + alternative + pattern.slice(brace.index + brace[0].length));
}

function exists(named: string): boolean {
  return expand(named).every((path) => (/[*?]/.test(path) ? globSync(path, { cwd: ROOT }).length > 0 : existsSync(join(ROOT, path))));
}

test('every path named in the repository exists', () => {
  const tracked = execFileSync('git', ['ls-files'], { cwd: ROOT, encoding: 'utf8' })
    .split('\n')
    .filter((file) => TEXT.test(file) && !GENERATED.test(file) && existsSync(join(ROOT, file)));
  expect(tracked.length).toBeGreaterThan(100);
  const missing = tracked.flatMap((file) =>
    [...readFileSync(join(ROOT, file), 'utf8').matchAll(NAMED)]
      .map((match) => match[1]!.replace(/[.]+$/, ''))
      .filter((named) => !MADE_ELSEWHERE.some((made) => made.test(named)) && !exists(named))
      .map((named) => `${file}: ${named}`),
  );
  expect([...new Set(missing)]).toEqual([]);
});
