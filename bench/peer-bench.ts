/**
 * `npm run bench:peer`: the instrument that decides issue 49's CPU goal, run as its README says
 * (../shared/peer-bench: titlegraph compiled, as the container runs it, beside its Apollo Server 5
 * + RESTDataSource peer over one emulator, taking turns), three times in a row; each run's ratio of
 * CPU per `title` and of throughput, and their medians, go into bench/RESULTS.md under
 * "The Apollo peer on peer-bench", in place of the last ones. peer-bench is not part of this
 * repository: it is run where it lies, or from a copy when it has no dependencies installed and its
 * folder cannot take them (a read-only share).
 *
 *   npm run bench:peer -- [--runs=3] [--peer-bench=../shared/peer-bench]
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { accessSync, constants, cpSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { putSectionInResults } from './lib/report';
import { ROOT } from './lib/procs';
import { SEPARATE_BENCH_HEADINGS } from './lib/results-sections';
import { median } from './lib/stats';

const option = (name: string) => new RegExp(`--${name}=(\\S+)`).exec(process.argv.join(' '))?.[1];
const runs = Number(option('runs') ?? 3);
const given = resolve(ROOT, option('peer-bench') ?? join('..', 'shared', 'peer-bench'));
if (!existsSync(join(given, 'with-peer.sh'))) {
  console.error(`bench:peer: no peer-bench at ${given} (--peer-bench=DIR names another)`);
  process.exit(1);
}

function writable(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

// with-peer.sh installs its own dependencies (and its peer's) into its folder on first use.
const installed = existsSync(join(given, 'node_modules')) && existsSync(join(given, 'peers', 'apollo-rest', 'node_modules'));
const peerBench = installed || writable(given) ? given : mkdtempSync(join(tmpdir(), 'peer-bench-'));
if (peerBench !== given) cpSync(given, peerBench, { recursive: true });

interface Run {
  cpu: number;
  throughput: number;
  ours: number;
  peer: number;
}

// The tool's last line: `... (ratio R); added p50 a vs b ms; CPU/req c vs d ms (ratio Q, ...)`.
const LAST_LINE = /req\/s \(ratio ([\d.]+)\);.*CPU\/req ([\d.]+) vs ([\d.]+) ms \(ratio ([\d.]+)/;

function runOnce(): Run {
  const run = spawnSync(join(peerBench, 'with-peer.sh'), ['node', join(peerBench, 'peer-compare.mjs')], {
    cwd: ROOT,
    env: { ...process.env, SVC_COMPILED: '1' },
    encoding: 'utf8',
    timeout: 15 * 60_000,
  });
  const line = run.stdout.split('\n').findLast((l) => l.startsWith('peer-compare: titlegraph ') && LAST_LINE.test(l));
  if (!line) throw new Error(`peer-bench did not end with its figures:\n${run.stdout.slice(-2000)}\n${run.stderr.slice(-2000)}`);
  const [, throughput, ours, peer, cpu] = LAST_LINE.exec(line)!.map(Number);
  console.log(line);
  return { cpu: cpu!, throughput: throughput!, ours: ours!, peer: peer! };
}

const done: Run[] = [];
for (let i = 0; i < runs; i++) done.push(runOnce());
const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
const list = (pick: (r: Run) => number, digits: number) => done.map((r) => pick(r).toFixed(digits)).join(', ');
const cpuMedian = median(done.map((r) => r.cpu));
const throughputMedian = median(done.map((r) => r.throughput));

putSectionInResults(
  [
    '',
    `${SEPARATE_BENCH_HEADINGS.peerBench} (${new Date().toISOString().slice(0, 10)}, \`npm run bench:peer\`)`,
    '',
    `../shared/peer-bench (its README): commit ${commit} compiled as the container runs it, beside its Apollo Server 5 + RESTDataSource peer over one emulator, taking turns, ${runs} runs in a row. Goal (issue 49): the median CPU per \`title\` ≤ 0.7 of the peer's, and ≥ 1.2× its throughput. How to read it: [docs/performance.md](../docs/performance.md#the-apollo-server-peer).`,
    '',
    '| measure | each run | median | goal | result |',
    '|---|---|---|---|---|',
    `| CPU per \`title\`, titlegraph ÷ the peer | ${list((r) => r.cpu, 2)} (${done.map((r) => `${r.ours.toFixed(3)} vs ${r.peer.toFixed(3)} ms`).join('; ')}) | ${cpuMedian.toFixed(2)} | ≤ 0.7 | **${cpuMedian <= 0.7 ? 'met' : 'not met'}** |`,
    `| throughput, titlegraph ÷ the peer | ${list((r) => r.throughput, 2)} | ${throughputMedian.toFixed(2)} | ≥ 1.2 | **${throughputMedian >= 1.2 ? 'met' : 'not met'}** |`,
    '',
  ].join('\n'),
);
