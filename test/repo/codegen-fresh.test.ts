/**
 * The generated clients are what `npm run codegen` makes from today's schema and documents: the
 * typed documents and persisted-document ids of the tests and of the example front end. Run when
 * this fails: `npm run codegen`, and commit what it changes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from '@graphql-codegen/cli';
import { expect, test } from 'vitest';
import config from '../../codegen';

const ROOT = join(import.meta.dirname, '../..');

test('test/gql and examples/web/src/gql are what npm run codegen makes now', { timeout: 120_000 }, async () => {
  const outputs = (await generate({ ...config, cwd: ROOT, silent: true }, false)) as { filename: string; content: string }[];
  expect(outputs.length).toBeGreaterThan(4);
  const stale = outputs.filter((o) => readFileSync(join(ROOT, o.filename), 'utf8') !== o.content).map((o) => o.filename);
  expect(stale, 'generated files differ from what npm run codegen makes: run it and commit the result').toEqual([]);
});
