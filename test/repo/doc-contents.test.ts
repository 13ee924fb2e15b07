/**
 * Every page of docs/ opens with its contents: a `## Contents` list, before the first section,
 * of exactly the page's sections (##) and their subsections (###), in order and with their
 * anchors, so that a section added, renamed or moved shows in the list or fails here.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { docPage, prose, slug } from '../support/docs';
import { ROOT } from '../support/processes';

/** Written whole by a script from its data (scripts/test-strength.ts): one table, no sections to list. */
const GENERATED = ['test-strength'];

const pages = readdirSync(join(ROOT, 'docs'))
  .filter((name) => name.endsWith('.md'))
  .map((name) => name.slice(0, -3))
  .filter((name) => !GENERATED.includes(name))
  .sort();

/** The contents list a page's headings call for. */
function contentsOf(lines: string[]): string[] {
  return lines.flatMap((line) => {
    const heading = /^(##|###) (.+)$/.exec(line);
    if (!heading || heading[2] === 'Contents') return [];
    const indent = heading[1] === '##' ? '' : '  ';
    return [`${indent}- [${heading[2]}](#${slug(heading[2]!)})`];
  });
}

test.each(pages)('docs/%s.md opens with the list of its sections', (page) => {
  const lines = prose(docPage(page));
  const sections = lines.filter((line) => line.startsWith('## '));
  expect(sections[0], 'the first section is the contents').toBe('## Contents');
  const start = lines.indexOf('## Contents') + 1;
  const listed = lines
    .slice(
      start,
      lines.findIndex((line, i) => i >= start && line.startsWith('## ')),
    )
    .filter((line) => line.trim() !== '');
  expect(listed).toEqual(contentsOf(lines));
});
