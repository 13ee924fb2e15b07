/**
 * bench/RESULTS.md is made from a run's data (bench/results.json) and nothing else: figures, goals
 * met or not, a line of reading per section and a link to docs/performance.md, where the method,
 * the history and the decisions are written. The README's benchmark table quotes RESULTS.md.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { goalRows, goals, markdown, type Results } from '../../bench/lib/report';
import { keepingSeparateSections } from '../../bench/lib/results-sections';

const ROOT = join(import.meta.dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
const PROSE_LIMIT = 400;

/** The last run's data as `npm run bench -- --report-only` reads it back. */
function savedRun(): Results {
  const saved = JSON.parse(read('bench/results.json')) as Results & { goals?: unknown };
  delete saved.goals;
  return saved;
}

const render = (r: Results) => markdown(r, goals(r));
const goalTable = (md: string) => md.slice(md.indexOf('## Goals'), md.indexOf('\n## ', md.indexOf('## Goals') + 1));
const tableRows = (md: string) => md.split('\n').filter((line) => /^\| [^-]/.test(line) && !line.startsWith('| # |'));

/** Lines longer than the limit; a table row is data, so each of its cells is held to the limit instead. */
function proseOverLimit(md: string): string[] {
  return md.split('\n').filter((line) => {
    if (!line.startsWith('|')) return line.length > PROSE_LIMIT;
    return line.split(' | ').some((cell) => cell.length > PROSE_LIMIT);
  });
}

/** A heading's anchor as GitHub makes it. */
const anchor = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

test('the committed bench/RESULTS.md is what the report makes of bench/results.json', () => {
  const committed = read('bench/RESULTS.md');
  const saved = savedRun();
  expect(keepingSeparateSections(committed, render(saved)), 'run `npm run bench -- --report-only`').toBe(committed);
  const stored = JSON.parse(read('bench/results.json')) as { goals: unknown };
  expect(stored.goals).toEqual(JSON.parse(JSON.stringify(goals(saved))));
});

test('no line of bench/RESULTS.md holds more than a line of prose', () => {
  expect(proseOverLimit(render(savedRun()))).toEqual([]);
  expect(proseOverLimit(read('bench/RESULTS.md'))).toEqual([]);
});

test('every goal row comes from the run: none without data, and a figure that changes changes its row', () => {
  const saved = savedRun();
  const empty = render({ meta: saved.meta });
  expect(tableRows(goalTable(empty))).toEqual([]);
  expect(empty).not.toMatch(/^## \d/m);

  const md = render(saved);
  expect(tableRows(goalTable(md))).toEqual(goalRows(goals(saved)));
  expect(goals(saved).length).toBeGreaterThan(20);

  const slower: Results = structuredClone(saved);
  slower.latency!['GraphQL title']!.p50 += 1;
  const row = (r: Results) => goalRows(goals(r)).find((line) => line.includes('Added latency p50'));
  expect(row(slower)).not.toBe(row(saved));
  expect(row(slower)).toContain('**not met**');
});

test('every link from bench/RESULTS.md and from the contents of docs/performance.md names a heading there', () => {
  const story = read('docs/performance.md');
  const headings = new Set(
    story
      .split('\n')
      .filter((line) => /^#{1,6} /.test(line))
      .map((line) => anchor(line.replace(/^#+ /, ''))),
  );
  const fromResults = [...read('bench/RESULTS.md').matchAll(/\]\(\.\.\/docs\/performance\.md#([^)]+)\)/g)].map((m) => m[1]!);
  const fromContents = [...story.matchAll(/\]\(#([^)]+)\)/g)].map((m) => m[1]!);
  expect(fromResults.length).toBeGreaterThan(10);
  expect([...fromResults, ...fromContents].filter((a) => !headings.has(a))).toEqual([]);
});

test('the report keeps no prose in its code: no line of bench/lib/report.ts holds a paragraph', () => {
  // What a line says outside its `${…}` interpolations: a paragraph in a string would be long.
  const words = (line: string) => {
    let out = '';
    let depth = 0;
    for (let i = 0; i < line.length; i++) {
      if (line[i] === '$' && line[i + 1] === '{') {
        depth++;
        i++;
      } else if (depth > 0) {
        if (line[i] === '{') depth++;
        if (line[i] === '}') depth--;
      } else out += line[i];
    }
    return out;
  };
  const long = read('bench/lib/report.ts')
    .split('\n')
    .filter((line) => words(line).length > 240);
  expect(long).toEqual([]);
});

test("the README's benchmark table quotes the goals with a verdict from bench/RESULTS.md", () => {
  const readme = read('README.md');
  const start = readme.indexOf('\n## Benchmarks\n');
  expect(start, 'the README has a Benchmarks section').toBeGreaterThan(-1);
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1) === -1 ? undefined : readme.indexOf('\n## ', start + 1));
  const results = read('bench/RESULTS.md');
  const judged = tableRows(goalTable(results)).filter((row) => !row.endsWith('| — |'));
  expect(tableRows(section), 'copy the rows with a verdict from the Goals table of bench/RESULTS.md').toEqual(judged);
  const { meta } = savedRun();
  expect(section).toContain(meta.date);
  expect(section).toContain(`commit ${meta.commit}`);
  expect(section).toContain('(docs/performance.md)');
  expect(section).toContain('(bench/RESULTS.md)');
});
