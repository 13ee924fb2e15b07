/**
 * package.json `overrides` give graphql-yoga and @whatwg-node/server (Yoga's HTTP layer) the 2.x
 * line of @whatwg-node/promise-helpers, whose sync path calls a hook straight away instead of
 * wrapping every step of every plugin hook in fake promises (3 objects and their closures each):
 * about 5 % of the service's CPU per request (docs/performance.md). Both still declare ^1.3.2, and
 * 2.x dropped `mapMaybePromise`, which @envelop/core 5 and @graphql-tools/utils 11 re-export: those
 * two are held on 1.x. An install that loses either half fails here, not in production.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { expect, test } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const requireFromRoot = createRequire(join(root, 'package.json'));

/** The promise-helpers a package gets when it imports it, as Node resolves it from that package's folder. */
function promiseHelpersOf(pkg: string): { version: string; exports: string[] } {
  const pkgDir = dirname(requireFromRoot.resolve(`${pkg}/package.json`));
  const fromPkg = createRequire(join(pkgDir, 'package.json'));
  const manifest = fromPkg.resolve('@whatwg-node/promise-helpers/package.json');
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  return { version, exports: Object.keys(fromPkg('@whatwg-node/promise-helpers') as object) };
}

test.each(['graphql-yoga', '@whatwg-node/server', '@whatwg-node/node-fetch'])(
  '%s runs on promise-helpers 2.x (its allocation-free sync path)',
  (pkg) => {
    expect(promiseHelpersOf(pkg).version).toMatch(/^2\./);
  },
);

test.each(['@envelop/core', '@graphql-tools/utils'])(
  '%s keeps a promise-helpers that still has the mapMaybePromise it re-exports',
  (pkg) => {
    expect(promiseHelpersOf(pkg).exports).toContain('mapMaybePromise');
  },
);

test('the overrides are written where npm reads them', () => {
  const { overrides } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { overrides?: Record<string, unknown> };
  expect(Object.keys(overrides ?? {})).toEqual(expect.arrayContaining(['graphql-yoga', '@whatwg-node/server']));
});
