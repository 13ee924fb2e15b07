/**
 * The figures of docs/development.md and of the README's npm scripts that change with the code
 * are checked against it, not typed once and left: every npm script has its row (and every row's
 * script exists), the codegen row names the folders codegen.ts writes, and the test row names
 * vitest's projects and their number.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import codegen from '../../codegen';
import { docPage } from '../support/docs';
import { ROOT } from '../support/processes';

const scripts = Object.keys(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as object).sort();

/** The rows of a page's first table whose header is `| command | what it does |`. */
function commandRows(page: string): string[] {
  const lines = docPage(page).split('\n');
  const start = lines.indexOf('| command | what it does |');
  expect(start, `${page} has a command table`).toBeGreaterThan(-1);
  const rows = lines.slice(start + 2);
  return rows.slice(
    0,
    rows.findIndex((line) => !line.startsWith('|')),
  );
}

/** The npm scripts a row's first cell names: `npm run x`, `npm start`, `npm test`. */
const named = (row: string) => [...row.split('|')[1]!.matchAll(/`npm (?:run ([\w:-]+)|(start|test))`/g)].map((m) => (m[1] ?? m[2])!);

const rowOf = (rows: string[], command: string) => {
  const row = rows.find((r) => r.split('|')[1]!.includes(`\`${command}\``));
  expect(row, `a row for ${command}`).toBeDefined();
  return row!;
};

test('docs/development.md has a row for every npm script, and the README names only scripts that exist', () => {
  const development = commandRows('development').flatMap(named);
  expect([...new Set(development)].sort()).toEqual(scripts);
  const readme = commandRows('README').flatMap(named);
  expect(readme.filter((script) => !scripts.includes(script))).toEqual([]);
});

test('the codegen row names every folder codegen.ts writes', () => {
  const row = rowOf(commandRows('development'), 'npm run codegen');
  const folders = Object.keys(codegen.generates);
  expect(folders.length).toBeGreaterThan(0);
  for (const folder of folders) expect(row).toContain(`\`${folder}\``);
});

test("the npm test row names vitest's projects, and how many there are", () => {
  const row = rowOf(commandRows('development'), 'npm test');
  const projects = [...readFileSync(join(ROOT, 'vitest.config.ts'), 'utf8').matchAll(/\bname: '(\w+)'/g)].map((m) => m[1]!);
  expect(projects.length).toBeGreaterThan(1);
  const words = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine'];
  expect(row).toContain(`in ${words[projects.length]} projects`);
  const cell = row.split('|')[2]!;
  expect([...cell.matchAll(/`(\w+)` \(/g)].map((m) => m[1]!)).toEqual(projects);
});
