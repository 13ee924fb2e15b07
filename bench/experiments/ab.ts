/**
 * Side by side: the working tree against another commit, one emulator, interleaved autocannon
 * rounds (`{ __typename }` and `title`, 8 connections each, both services loaded at once), with the service's CPU per request.
 * A change to the hot path is kept only when it wins here, round after round.
 *
 *   npx tsx bench/experiments/ab.ts [REV=HEAD] [ROUNDS=4]
 *
 * REV is checked out as a git worktree under the system temp folder, with the dependencies of its
 * own package-lock.json (bench/lib/baseline.ts); a directory is run as it stands. Bounded: ROUNDS rounds
 * of 3 s per service and query.
 */
import { existsSync } from 'node:fs';
import { baselineCheckout } from '../lib/baseline';
import { graphqlTarget, throughput, warmUp } from '../lib/load';
import { cpuMs, killAll, startEmulatorProcess, startService } from '../lib/procs';
import { SIDE_BY_SIDE_QUERIES } from '../queries';
import { median } from '../lib/stats';

const rev = process.argv[2] ?? 'HEAD';
const rounds = Number(process.argv[3] ?? 4);
// A directory is taken as another checkout as it stands (an experiment's patched copy, say).
const { sha, root: other } = existsSync(rev) ? { sha: rev, root: rev } : baselineCheckout(rev);

const emu = await startEmulatorProcess(0);
const services = [
  { name: 'working tree', svc: await startService('ab-work', emu.url) },
  { name: sha, svc: await startService('ab-base', emu.url, {}, [], other) },
];
const target = graphqlTarget;
const queries = SIDE_BY_SIDE_QUERIES;
try {
  await warmUp(
    services.map((s) => s.svc.base),
    queries,
    2,
  );
  const rows: Record<string, { rps: number[]; cpuUs: number[] }> = {};
  // Both services under load at the same time: whatever else the machine does falls on both alike.
  for (let round = 0; round < rounds; round++) {
    for (const [name, q, v] of queries) {
      const before = services.map(({ svc }) => cpuMs(svc.pid));
      const runs = await Promise.all(services.map(({ svc }) => throughput(target(svc.base, q, v), 8, 3)));
      for (const [i, { name: variant, svc }] of services.entries()) {
        rows[`${variant} | ${name}`] ??= { rps: [], cpuUs: [] };
        const row = rows[`${variant} | ${name}`]!;
        row.rps.push(Math.round(runs[i]!.rps));
        row.cpuUs.push(Math.round(((cpuMs(svc.pid) - before[i]!) / runs[i]!.requests) * 1000));
      }
    }
  }
  console.log('| service | query | req/s per round | CPU µs/req per round | median CPU µs/req |\n|---|---|---|---|---|');
  for (const [k, r] of Object.entries(rows)) console.log(`| ${k} | ${r.rps.join(', ')} | ${r.cpuUs.join(', ')} | ${median(r.cpuUs)} |`);
  // Each round's ratio, the two loaded at the same time: steadier than the ratio of the medians.
  for (const [name] of queries) {
    const [a, b] = services.map((s) => rows[`${s.name} | ${name}`]!.cpuUs);
    const ratios = a!.map((x, i) => x / b![i]!);
    console.log(
      `${name}: ${services[0]!.name} ÷ ${services[1]!.name}, CPU per request, median of the rounds' ratios ${median(ratios).toFixed(3)} (${ratios.map((r) => r.toFixed(2)).join(', ')})`,
    );
  }
} finally {
  for (const { svc } of services) await svc.stop();
  await emu.stop();
  killAll();
}
