/**
 * The documentation as the tests read it: the README (a landing page) and the pages of docs/ it
 * links to, whole or one page at a time, so that a test finds its passage wherever it lives.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './processes';

/** One page: `README` or the name of a page of docs/ (without `.md`). */
export function docPage(name: string): string {
  return readFileSync(name === 'README' ? join(ROOT, 'README.md') : join(ROOT, 'docs', `${name}.md`), 'utf8');
}

/** The README and every page of docs/, one after the other. */
export function documentation(): string {
  const pages = readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => docPage(name.slice(0, -3)));
  return [docPage('README'), ...pages].join('\n');
}

/** GitHub's anchor for a heading's text: lower case, punctuation dropped, each space a hyphen. */
export function slug(heading: string): string {
  return heading
    .trim()
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-');
}

/** Lines outside fenced code blocks: what is in a block is an example, not the page's own. */
export function prose(text: string): string[] {
  let fenced = false;
  return text.split('\n').filter((line) => {
    if (/^\s*```/.test(line)) {
      fenced = !fenced;
      return false;
    }
    return !fenced;
  });
}
