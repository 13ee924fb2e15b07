/**
 * The sections of bench/RESULTS.md that benches of their own write (`npm run bench:statements`,
 * `npm run bench:token`, `npm run bench:leases`, `npm run bench:peer`): a full `npm run bench` writes the file anew and must keep them, and a
 * bench of its own run again must replace its section, not add a second one. A full run once
 * dropped both, and with them the figures issue 34 asks the file to show.
 */

/** Each such bench's section heading, up to the date it adds: the one place they are named. */
export const SEPARATE_BENCH_HEADINGS = {
  statements: '## Statements at scale',
  token: '## Sign-in tokens against API keys',
  leases: '## Quota leases on PostgreSQL',
  peerBench: '## The Apollo peer on peer-bench',
} as const;

const HEADINGS: readonly string[] = Object.values(SEPARATE_BENCH_HEADINGS);

/** The markdown's `## ` sections in order; text before the first heading is its own entry. */
function sections(markdown: string): string[] {
  const parts: string[] = [];
  let current: string[] = [];
  for (const line of markdown.split('\n')) {
    if (line.startsWith('## ') && current.length > 0) {
      parts.push(current.join('\n'));
      current = [];
    }
    current.push(line);
  }
  if (current.length > 0) parts.push(current.join('\n'));
  return parts;
}

/** Which separate bench wrote a section, by its heading; undefined for the full run's own sections. */
function separateHeadingOf(section: string): string | undefined {
  return HEADINGS.find((heading) => section.startsWith(heading));
}

/** The file with `section` (a separate bench's) in place of the one that bench wrote before, or at the end. */
export function withSeparateSection(results: string, section: string): string {
  const heading = separateHeadingOf(section.trimStart());
  if (!heading)
    throw new Error(`not a separate bench's section (add its heading to SEPARATE_BENCH_HEADINGS): ${section.trim().split('\n')[0]}`);
  const kept = sections(results.trimEnd()).filter((s) => separateHeadingOf(s) !== heading);
  return `${kept.join('\n').trimEnd()}\n\n${section.trim()}\n`;
}

/** A full run's new file, followed by the sections the separate benches had written into the old one. */
export function keepingSeparateSections(previous: string | undefined, fresh: string): string {
  const carried = previous === undefined ? [] : sections(previous.trimEnd()).filter((s) => separateHeadingOf(s) !== undefined);
  return carried.reduce((file, section) => withSeparateSection(file, section), fresh);
}
