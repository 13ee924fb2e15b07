/**
 * Where a request's CPU goes, on two commits: both services under `node --cpu-prof` and under load
 * at the same time (8 connections each, the same query, one emulator), self time per request by
 * package and by function, and the difference (bench/lib/profile.ts, profileSideBySide). The
 * profiles stay in bench/.logs/profiles-side-by-side/ for a closer look.
 *
 *   npx tsx bench/experiments/profile-ab.ts [REV=HEAD | DIRECTORY] [QUERY=title|typename] [SECONDS=5]
 */
import { existsSync } from 'node:fs';
import { baselineCheckout } from '../lib/baseline';
import { killAll, ROOT, startEmulatorProcess } from '../lib/procs';
import { largestDifferences, profileSideBySide } from '../lib/profile';
import { TITLE_QUERY, TYPENAME_QUERY } from '../queries';

const rev = process.argv[2] ?? 'HEAD';
const which = process.argv[3] ?? 'title';
const seconds = Number(process.argv[4] ?? 5);
const [query, variables] = which === 'typename' ? [TYPENAME_QUERY, undefined] : [TITLE_QUERY, { titleNumber: 'MID15313' }];
// A directory is taken as another checkout as it stands (an experiment's patched copy), as in ab.ts.
const base = existsSync(rev) ? { sha: rev, root: rev } : baselineCheckout(rev);

const emu = await startEmulatorProcess(0);
try {
  const profile = await profileSideBySide(
    emu,
    [
      { name: 'working tree', root: ROOT },
      { name: base.sha, root: base.root },
    ],
    query,
    variables,
    seconds,
  );
  const [a, b] = profile.services as [(typeof profile.services)[0], (typeof profile.services)[0]];
  for (const s of [a, b])
    console.log(`${s.name}: ${s.rps.toFixed(0)} req/s under the profiler, ${s.busyUs.toFixed(0)} µs busy per request`);
  for (const [what, rows] of [
    ['package', largestDifferences(a.packages, b.packages, 25)],
    ['function', largestDifferences(a.functions, b.functions, 40)],
  ] as const) {
    console.log(`\n| ${what} | working tree µs/req | ${base.sha} µs/req | difference |\n|---|---|---|---|`);
    for (const [k, x, y] of rows) console.log(`| ${k.replace('\t', ' ')} | ${x.toFixed(1)} | ${y.toFixed(1)} | ${(x - y).toFixed(1)} |`);
  }
} finally {
  await emu.stop();
  killAll();
}
