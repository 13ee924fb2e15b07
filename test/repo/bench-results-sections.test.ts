/**
 * bench/RESULTS.md keeps the sections written by the benches of their own (statements, sign-in
 * tokens) when a full `npm run bench` writes the file anew, and a bench of its own run again
 * replaces its section. A full run once dropped both, and with them the statement figures.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { keepingSeparateSections, SEPARATE_BENCH_HEADINGS, withSeparateSection } from '../../bench/lib/results-sections';

const statements = (date: string, seconds: string) =>
  `\n${SEPARATE_BENCH_HEADINGS.statements} (${date}, \`npm run bench:statements\`)\n\n| CSV | ${seconds} s |\n`;
const tokens = `\n${SEPARATE_BENCH_HEADINGS.token} (2026-11-26, \`npm run bench:token\`)\n\n| token ÷ key | 0.98 |\n`;
const fullRun = (date: string) =>
  `# Benchmark results\n\nGenerated on ${date}.\n\n## Goals\n\n| 1 | met |\n\n## 7. The second peer\n\nText.\n`;

test("a full run's new file keeps each separate bench's section, once, after its own sections", () => {
  const previous = withSeparateSection(withSeparateSection(fullRun('2026-11-26'), statements('2026-11-26', '1.17')), tokens);
  const written = keepingSeparateSections(previous, fullRun('2026-11-27'));
  expect(written.startsWith(fullRun('2026-11-27').trimEnd())).toBe(true);
  expect(written).not.toContain('Generated on 2026-11-26');
  expect(written.split(SEPARATE_BENCH_HEADINGS.statements)).toHaveLength(2);
  expect(written.split(SEPARATE_BENCH_HEADINGS.token)).toHaveLength(2);
  expect(written).toContain('| CSV | 1.17 s |');
  expect(written).toContain('| token ÷ key | 0.98 |');
  // Written again from the file it wrote: the same file.
  expect(keepingSeparateSections(written, fullRun('2026-11-27'))).toBe(written);
  expect(keepingSeparateSections(undefined, fullRun('2026-11-27'))).toBe(fullRun('2026-11-27'));
});

test('a separate bench run again replaces its own section and leaves the others', () => {
  const before = withSeparateSection(withSeparateSection(fullRun('2026-11-26'), statements('2026-11-26', '1.17')), tokens);
  const after = withSeparateSection(before, statements('2026-11-27', '1.02'));
  expect(after).toContain('| CSV | 1.02 s |');
  expect(after).not.toContain('| CSV | 1.17 s |');
  expect(after.split(SEPARATE_BENCH_HEADINGS.statements)).toHaveLength(2);
  expect(after).toContain('| token ÷ key | 0.98 |');
  expect(after).toContain('## 7. The second peer\n\nText.');
  expect(() => withSeparateSection(before, '\n## Something else\n\nx\n')).toThrow(/SEPARATE_BENCH_HEADINGS/);
});

test('the committed bench/RESULTS.md holds each separate bench section once', () => {
  const results = readFileSync(join(import.meta.dirname, '..', '..', 'bench', 'RESULTS.md'), 'utf8');
  for (const heading of Object.values(SEPARATE_BENCH_HEADINGS)) {
    expect(results.split(`\n${heading} `), `${heading} in bench/RESULTS.md`).toHaveLength(2);
  }
});
