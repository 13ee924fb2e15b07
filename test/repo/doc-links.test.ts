/**
 * Every link of the README and of docs/ leads somewhere: a relative link to a file of the
 * repository that exists, and an anchor to a heading of its page, slugged as GitHub does (lower
 * case, punctuation dropped, each space a hyphen, a repeated heading suffixed -1, -2, …). Links
 * out of the repository are not followed. The checker is run on a page it must refuse, too.
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { expect, test } from 'vitest';
import { prose, slug } from '../support/docs';
import { ROOT } from '../support/processes';

/** The README and every Markdown page under docs/, relative to `root`. */
function pagesOf(root: string): string[] {
  return [
    'README.md',
    ...readdirSync(join(root, 'docs'), { recursive: true, encoding: 'utf8' })
      .filter((n) => n.endsWith('.md'))
      .sort()
      .map((n) => `docs/${n}`),
  ];
}

/** The anchors of a page: its headings' slugs, a repeated one numbered as GitHub numbers it. */
function anchorsIn(text: string): Set<string> {
  const found = new Set<string>();
  const seen = new Map<string, number>();
  for (const line of prose(text)) {
    const heading = /^#{1,6} (.+?)(?: #+)?$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const times = seen.get(base) ?? 0;
    seen.set(base, times + 1);
    found.add(times === 0 ? base : `${base}-${times}`);
  }
  return found;
}

/** Every relative link or anchor of the README and docs/ under `root` that leads nowhere. */
function brokenLinks(root: string): string[] {
  const anchorsOf = new Map<string, Set<string>>();
  const anchors = (file: string) => {
    let found = anchorsOf.get(file);
    if (!found) {
      found = anchorsIn(readFileSync(file, 'utf8'));
      anchorsOf.set(file, found);
    }
    return found;
  };
  const broken: string[] = [];
  for (const page of pagesOf(root)) {
    const file = join(root, page);
    for (const line of prose(readFileSync(file, 'utf8'))) {
      // Inline code is an example too: `[a](b)` in backticks is not a link.
      const text = line.replace(/`[^`]*`/g, '``');
      for (const [, target] of text.matchAll(/\]\(<?([^)\s>]+)>?(?: "[^"]*")?\)/g)) {
        if (/^[a-z][a-z+.-]*:/i.test(target!)) continue;
        const [path, anchor] = target!.split('#') as [string, string | undefined];
        const into = path === '' ? file : resolve(dirname(file), decodeURI(path));
        if (!existsSync(into)) broken.push(`${page}: ${target} (no such file)`);
        else if (anchor !== undefined && into.endsWith('.md') && !anchors(into).has(decodeURIComponent(anchor)))
          broken.push(`${page}: ${target} (no heading #${anchor} in ${relative(root, into)})`);
      }
    }
  }
  return broken;
}

test('every relative link and anchor in the README and docs/ resolves', () => {
  expect(brokenLinks(ROOT)).toEqual([]);
});

test('the checker refuses a missing file, a missing anchor and a heading repeated once too often', () => {
  const root = mkdtempSync(join(tmpdir(), 'doc-links-'));
  try {
    mkdirSync(join(root, 'docs'));
    writeFileSync(join(root, 'docs', 'page.md'), '# Page\n\n## Rotating `A_SECRET` (twice)\n## Step\n## Step\n');
    writeFileSync(
      join(root, 'README.md'),
      [
        '[fine](./docs/page.md) [fine](./docs/page.md#rotating-a_secret-twice) [fine](./docs/page.md#step-1)',
        '[gone](./docs/gone.md) [no anchor](./docs/page.md#rotating) [third](./docs/page.md#step-2)',
        '[away](https://example.com/x.md#nowhere) `[code](./docs/not-a-link.md)`',
        '```md',
        '[in a block](./docs/also-not-a-link.md)',
        '```',
      ].join('\n'),
    );
    // The fixture's paths start with ./ so that test/repo/named-paths.test.ts does not look for them in the repository.
    const page = join('docs', 'page.md');
    expect(brokenLinks(root)).toEqual([
      'README.md: ./docs/gone.md (no such file)',
      `README.md: ./docs/page.md#rotating (no heading #rotating in ${page})`,
      `README.md: ./docs/page.md#step-2 (no heading #step-2 in ${page})`,
    ]);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test('the README is a landing page: about 150 lines, every section of the manual a link away', () => {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  expect(readme.split('\n').length).toBeLessThan(200);
  for (const page of [
    'getting-started',
    'authentication',
    'configuration',
    'errors',
    'money',
    'operations',
    'federation',
    'http',
    'clients',
  ])
    expect(readme).toContain(`(docs/${page}.md`);
});
