/**
 * Every package runs on the 2.x line of @whatwg-node/promise-helpers, whose sync path calls a hook
 * straight away instead of wrapping every step of every plugin hook in fake promises (3 objects and
 * their closures each): graphql-yoga and @whatwg-node/server through package.json `overrides`,
 * and the packages that ask for 1.x (@envelop/core 5 and @graphql-tools/utils 11 among them, which
 * re-export 1.x's `mapMaybePromise`) through vendor/promise-helpers, 2.x with that function added
 * back (its README says how it is wired). An install that loses either half fails here, not in
 * production; so does the day @envelop/core moves to 2.x and the vendored package can go.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { expect, test } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const requireFromRoot = createRequire(join(root, 'package.json'));

/** A package's folder, as Node resolves it from the project. */
const folderOf = (pkg: string) => dirname(requireFromRoot.resolve(`${pkg}/package.json`));

/** The promise-helpers a package gets when it imports it, as Node resolves it from that package's folder. */
function promiseHelpersOf(pkg: string): { version: string; module: Record<string, unknown> } {
  const fromPkg = createRequire(join(folderOf(pkg), 'package.json'));
  const manifest = fromPkg.resolve('@whatwg-node/promise-helpers/package.json');
  const { version } = JSON.parse(readFileSync(manifest, 'utf8')) as { version: string };
  return { version, module: fromPkg('@whatwg-node/promise-helpers') as Record<string, unknown> };
}

/** The 2.x line itself, as the vendored package depends on it. */
const twoX = createRequire(join(root, 'vendor', 'promise-helpers', 'package.json'))('promise-helpers-2') as Record<string, unknown>;

test.each(['graphql-yoga', '@whatwg-node/server', '@whatwg-node/node-fetch'])(
  '%s runs on promise-helpers 2.x (its allocation-free sync path)',
  (pkg) => {
    expect(promiseHelpersOf(pkg).version).toMatch(/^2\./);
  },
);

test.each(['@envelop/core', '@graphql-tools/utils', '@envelop/instrumentation'])(
  "%s runs on 2.x's helpers through vendor/promise-helpers, with the mapMaybePromise it re-exports",
  (pkg) => {
    const { version, module } = promiseHelpersOf(pkg);
    expect(version).toBe('1.99.0');
    expect(module.handleMaybePromise).toBe(twoX.handleMaybePromise);
    expect(module.iterateAsync).toBe(twoX.iterateAsync);
    const mapMaybePromise = module.mapMaybePromise as (input: unknown, onSuccess: (v: number) => number) => unknown;
    expect(mapMaybePromise(20, (v) => v + 1)).toBe(21);
  },
);

test("graphql-yoga's ES modules load on it (@envelop/core's and @graphql-tools/utils' re-export mapMaybePromise)", async () => {
  const yoga = (await import('graphql-yoga')) as Record<string, unknown>;
  const mapMaybePromise = yoga.mapMaybePromise as (input: unknown, onSuccess: (v: number) => number) => unknown;
  await expect(mapMaybePromise(Promise.resolve(1), (v) => v + 1)).resolves.toBe(2);
});

test('vendor/promise-helpers is still needed: @envelop/core asks for promise-helpers 1.x', () => {
  const manifest = JSON.parse(readFileSync(join(folderOf('@envelop/core'), 'package.json'), 'utf8')) as {
    version: string;
    dependencies: Record<string, string>;
  };
  // When this fails, @envelop/core loads 2.x itself: delete vendor/promise-helpers, its dependency
  // and the ^1.99.0 overrides in package.json, the COPY vendor lines of the Dockerfile and
  // install-links in .npmrc.
  expect(manifest.dependencies['@whatwg-node/promise-helpers']).toMatch(/^\^?1\./);
});

test('the overrides are written where npm reads them', () => {
  const { overrides } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { overrides?: Record<string, unknown> };
  expect(Object.keys(overrides ?? {})).toEqual(expect.arrayContaining(['graphql-yoga', '@whatwg-node/server']));
});
