/**
 * Every link of the README and of docs/ leads somewhere: a relative link to a file of the
 * repository that exists, and an anchor to a heading of its page (GitHub's slugs: lower case,
 * punctuation dropped, spaces as hyphens). Links out of the repository are not followed.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { ROOT } from '../support/processes';

const PAGES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((n) => n.endsWith('.md'))
    .map((n) => `docs/${n}`),
];

/** Lines outside fenced code blocks: links inside code are examples, not links. */
function prose(text: string): string[] {
  let fenced = false;
  return text.split('\n').filter((line) => {
    if (line.startsWith('```')) fenced = !fenced;
    return !fenced && !line.startsWith('```');
  });
}

const slug = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/`/g, '')
    .replace(/[^\p{L}\p{N}_\- ]/gu, '')
    .replace(/ /g, '-');

const anchorsOf = new Map<string, Set<string>>();
function anchors(file: string): Set<string> {
  let found = anchorsOf.get(file);
  if (!found) {
    found = new Set(
      prose(readFileSync(file, 'utf8'))
        .map((line) => /^#{1,6} (.+)$/.exec(line)?.[1])
        .filter((heading): heading is string => heading !== undefined)
        .map(slug),
    );
    anchorsOf.set(file, found);
  }
  return found;
}

test('every relative link and anchor in the README and docs/ resolves', () => {
  const broken: string[] = [];
  for (const page of PAGES) {
    const file = join(ROOT, page);
    for (const line of prose(readFileSync(file, 'utf8'))) {
      for (const [, target] of line.matchAll(/\]\(([^)\s]+)\)/g)) {
        if (/^(https?:|mailto:)/.test(target!)) continue;
        const [path, anchor] = target!.split('#') as [string, string | undefined];
        const into = path === '' ? file : resolve(dirname(file), path);
        if (!existsSync(into)) broken.push(`${page}: ${target} (no such file)`);
        else if (anchor !== undefined && into.endsWith('.md') && !anchors(into).has(anchor))
          broken.push(`${page}: ${target} (no heading #${anchor} in ${relative(ROOT, into)})`);
      }
    }
  }
  expect(broken).toEqual([]);
});

test('the README is a landing page: about 150 lines, every section of the manual a link away', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  expect(readme.split('\n').length).toBeLessThan(200);
  for (const page of ['getting-started', 'authentication', 'configuration', 'errors', 'money', 'operations', 'federation', 'http'])
    expect(readme).toContain(`(docs/${page}.md`);
});
