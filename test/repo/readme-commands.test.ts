/**
 * The README's two commands are the ones that work: its first block starts the service and runs
 * the tests with the package's own scripts, and .ci/run runs exactly the README's test command,
 * so what a newcomer types is what CI checks.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { docPage } from '../support/docs';
import { ROOT } from '../support/processes';

/** The commands of the README's first sh block, comments dropped. */
function firstCommands(): string[] {
  const block = /```sh\n([\s\S]*?)```/.exec(docPage('README'));
  expect(block, 'the README opens with a sh block').not.toBeNull();
  return block![1]!
    .split('\n')
    .map((line) => line.replace(/#.*$/, '').trim())
    .filter(Boolean);
}

test('the README opens with npm install && npm start, and npm test', () => {
  expect(firstCommands()).toEqual(['npm install && npm start', 'npm test']);
  const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
  expect(Object.keys(scripts)).toEqual(expect.arrayContaining(['start', 'test']));
});

test(".ci/run runs the README's test command, and no other test command", () => {
  const testCommand = firstCommands().at(-1)!;
  const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8')
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#'));
  const runs = ci.map((line) => line.trim()).filter((line) => /^(npm (run )?test|npx vitest|vitest)\b/.test(line));
  expect(runs).toEqual([testCommand]);
});
