/**
 * Writes docs/test-strength.md from the JSON reports of the groups in stryker.config.mjs and
 * the committed list of equivalent mutants (test/repo/equivalent-mutants.json): a mutant on
 * that list counts as killed, and the list is printed with its reasons so a reader can judge it.
 * Run by `npm run test:mutation` after Stryker; `tsx scripts/test-strength.ts` alone re-renders.
 * A group with no report here (not run on this machine) keeps its modules' rows from the committed
 * page, each with the date of the run it comes from: one group can be run again without the hours
 * all of them take.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GROUPS } from '../stryker.config.mjs';

const ROOT = join(import.meta.dirname, '..');
const REPORT_DIR = join(ROOT, 'reports/mutation');
const EQUIVALENTS = join(ROOT, 'test/repo/equivalent-mutants.json');
const OUT = join(ROOT, 'docs/test-strength.md');
const BAR = 85;

interface Mutant {
  mutatorName: string;
  replacement?: string;
  status: string;
  location: { start: { line: number; column: number } };
}
interface Report {
  files: Record<string, { mutants: Mutant[] }>;
}
interface Equivalent {
  file: string;
  line: number;
  mutator: string;
  replacement?: string;
  reason: string;
}

/** The reports of the groups in stryker.config.mjs (reports/mutation/<group>.json); a file's newest report counts. */
function loadReports(): Report {
  const newest = new Map<string, { at: number; mutants: Mutant[] }>();
  for (const group of Object.keys(GROUPS)) {
    const path = join(REPORT_DIR, `${group}.json`);
    if (!existsSync(path)) {
      console.error(`No report for the group ${group} (${path}): its rows are kept from ${OUT}.`);
      continue;
    }
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Report;
    const at = statSync(path).mtimeMs;
    for (const [file, { mutants }] of Object.entries(parsed.files)) {
      if ((newest.get(file)?.at ?? -1) < at) newest.set(file, { at, mutants });
    }
  }
  return { files: Object.fromEntries([...newest].map(([file, { mutants }]) => [file, { mutants }])) };
}

interface Row {
  file: string;
  total: number;
  killed: number;
  timeout: number;
  survived: number;
  noCoverage: number;
  equivalent: number;
  score: number;
  rawScore: number;
  run: string;
}

const TODAY = new Date().toISOString().slice(0, 10);
const ROW =
  /^\| `([^`]+)` \| [\d.]+%(?: ✗)? \| [\d.]+% \| (\d+) \| (\d+) \| (\d+) \| (\d+) \((\d+)\) \| (\d+) \|(?: (\d{4}-\d\d-\d\d) \|)?$/;

/** The committed page's rows, each with the date of its run (the page's own date for rows written before runs were dated). */
function committedRows(): Row[] {
  if (!existsSync(OUT)) return [];
  const page = readFileSync(OUT, 'utf8');
  const pageDate = / on (\d{4}-\d\d-\d\d)\./.exec(page)?.[1] ?? 'an earlier run';
  return page.split('\n').flatMap((line) => {
    const m = ROW.exec(line);
    if (!m) return [];
    const [total, killed, timeout, survived, equivalent, noCoverage] = m.slice(2, 8).map(Number) as [
      number,
      number,
      number,
      number,
      number,
      number,
    ];
    return [scored({ file: m[1]!, total, killed, timeout, survived, equivalent, noCoverage, run: m[8] ?? pageDate })];
  });
}

function scored(r: Omit<Row, 'score' | 'rawScore'>): Row {
  const score = r.total === 0 ? 100 : ((r.killed + r.timeout + r.equivalent) / r.total) * 100;
  const rawScore = r.total === 0 ? 100 : ((r.killed + r.timeout) / r.total) * 100;
  return { ...r, score, rawScore };
}

const report = loadReports();
const equivalents: Equivalent[] = existsSync(EQUIVALENTS) ? (JSON.parse(readFileSync(EQUIVALENTS, 'utf8')) as Equivalent[]) : [];

const isEquivalent = (file: string, mutant: Mutant) =>
  equivalents.some(
    (e) =>
      e.file === file &&
      e.line === mutant.location.start.line &&
      e.mutator === mutant.mutatorName &&
      (e.replacement === undefined || e.replacement === mutant.replacement),
  );

const fresh: Row[] = Object.entries(report.files).map(([file, { mutants }]) => {
  const valid = mutants.filter((m) => !['CompileError', 'RuntimeError', 'Ignored', 'Pending'].includes(m.status));
  const count = (status: string) => valid.filter((m) => m.status === status).length;
  const equivalent = valid.filter((m) => (m.status === 'Survived' || m.status === 'NoCoverage') && isEquivalent(file, m)).length;
  return scored({
    file,
    total: valid.length,
    killed: count('Killed'),
    timeout: count('Timeout'),
    survived: count('Survived'),
    noCoverage: count('NoCoverage'),
    equivalent,
    run: TODAY,
  });
});
const rows = [...fresh, ...committedRows().filter((old) => !fresh.some((r) => r.file === old.file))].sort((a, b) =>
  a.file.localeCompare(b.file),
);

const sum = (key: 'total' | 'killed' | 'timeout' | 'survived' | 'noCoverage' | 'equivalent') => rows.reduce((n, r) => n + r[key], 0);
const rawOverall = sum('total') === 0 ? 100 : ((sum('killed') + sum('timeout')) / sum('total')) * 100;
const overall = sum('total') === 0 ? 100 : ((sum('killed') + sum('timeout') + sum('equivalent')) / sum('total')) * 100;
const commit = spawnSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout?.trim() || 'unknown';

const lines = [
  '# Test strength: mutation testing of the money and quota code',
  '',
  'StrykerJS 10 (vitest runner, per-test coverage, static mutants included) over the modules that guard money and quota,',
  'one group of modules at a time against the tests that exercise it (the groups are in stryker.config.mjs). Generated by',
  `\`npm run test:mutation\` (scripts/test-strength.ts) on ${TODAY}. A module whose group was not run again keeps the row of`,
  'the run its date names.',
  '',
  `Score = (killed + timed out + listed equivalent) / all valid mutants, no-coverage included; the bar is ${BAR}%. Stryker's`,
  'own score (no equivalents counted) is shown beside it.',
  '',
  "| module | score | Stryker's score | mutants | killed | timed out | survived (of which listed equivalent) | no coverage | run |",
  '|---|---:|---:|---:|---:|---:|---:|---:|---|',
  ...rows.map(
    (r) =>
      `| \`${r.file}\` | ${r.score.toFixed(1)}%${r.score < BAR ? ' ✗' : ''} | ${r.rawScore.toFixed(1)}% | ${r.total} | ${r.killed} | ${r.timeout} | ${r.survived} (${r.equivalent}) | ${r.noCoverage} | ${r.run} |`,
  ),
  `| **all** | **${overall.toFixed(1)}%** | ${rawOverall.toFixed(1)}% | ${sum('total')} | ${sum('killed')} | ${sum('timeout')} | ${sum('survived')} (${sum('equivalent')}) | ${sum('noCoverage')} | |`,
  '',
  '## Equivalent mutants',
  '',
  'Each changes the code without changing any behaviour a caller, the register or the journal can see.',
  '',
  ...(equivalents.length === 0
    ? ['None listed.']
    : equivalents.map((e) => `- \`${e.file}:${e.line}\` ${e.mutator}${e.replacement ? ` → \`${e.replacement}\`` : ''}: ${e.reason}`)),
  '',
  `Rendered on commit ${commit}; the HTML reports are in reports/mutation/ (not committed).`,
  '',
];
writeFileSync(OUT, lines.join('\n'));
console.log(lines.slice(6, 8 + rows.length + 1).join('\n'));
