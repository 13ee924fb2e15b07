/**
 * The emulator's docs list every route name a fault or a call record uses, with its request and
 * effect, exactly as src/register/contract/routes.ts defines them: a route added or renamed there
 * fails here until the table says so.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { ROUTES } from '../../src/register/contract/routes';
import { ROOT } from '../support/processes';

test('docs/emulator.md names every route as routes.ts defines it', () => {
  const docs = readFileSync(join(ROOT, 'docs/emulator.md'), 'utf8');
  const listed = [...docs.matchAll(/^\| `(\w+)` \| `(GET|POST) ([^`]+)` \| (charges|creates|none) \|$/gm)].map(
    ([, name, method, path, effect]) => ({
      name,
      method,
      path,
      effect,
    }),
  );
  const defined = Object.values(ROUTES).map(({ name, method, path, effect }) => ({ name, method, path, effect }));
  expect(listed).toEqual(defined);
});
