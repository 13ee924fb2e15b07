/**
 * Where a request's CPU goes, on two commits: both services under `node --cpu-prof` and under load
 * at the same time (8 connections each, the same query, one emulator), self time per request by function and by
 * package, and the difference. The profiles stay in bench/.logs/profiles-ab/ for a closer look.
 *
 *   npx tsx bench/experiments/profile-ab.ts [REV=HEAD] [QUERY=title|typename] [SECONDS=5]
 */
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { baselineCheckout } from '../lib/baseline';
import { graphqlTarget, probe, throughput } from '../lib/load';
import { killAll, LOG_DIR, ROOT, startEmulatorProcess, startService } from '../lib/procs';
import { summariseProfile } from '../lib/profile';
import { TITLE_QUERY, TYPENAME_QUERY } from '../queries';

const rev = process.argv[2] ?? 'HEAD';
const which = process.argv[3] ?? 'title';
const seconds = Number(process.argv[4] ?? 5);
const [query, variables] = which === 'typename' ? [TYPENAME_QUERY, undefined] : [TITLE_QUERY, { titleNumber: 'MID15313' }];
const base = baselineCheckout(rev);
const dir = join(LOG_DIR, 'profiles-ab');
rmSync(dir, { recursive: true, force: true });
mkdirSync(dir, { recursive: true });

const emu = await startEmulatorProcess(0);
const perRequest: Record<string, { busyUs: number; fns: Map<string, number>; pkgs: Map<string, number> }> = {};
try {
  const services = await Promise.all(
    (
      [
        ['working tree', ROOT, 'work'],
        [base.sha, base.root, base.sha],
      ] as const
    ).map(async ([name, root, tag]) => {
      const file = `${tag}-${which}.cpuprofile`;
      const svc = await startService(
        `profile-ab-${tag}`,
        emu.url,
        {},
        ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${file}`],
        root,
      );
      return { name, file, svc, target: graphqlTarget(svc.base, query, variables) };
    }),
  );
  for (const s of services) await probe(s.target);
  await Promise.all(services.map((s) => throughput(s.target, 8, 2)));
  // Both under load at once: whatever else the machine does falls on both alike.
  const fromMs = services.map((s) => Date.now() - s.svc.spawnedAt);
  const runs = await Promise.all(services.map((s) => throughput(s.target, 8, seconds)));
  const toMs = services.map((s) => Date.now() - s.svc.spawnedAt);
  for (const [i, s] of services.entries()) {
    await s.svc.stop();
    if (!existsSync(join(dir, s.file))) throw new Error(`no profile ${s.file}`);
    const summary = summariseProfile(join(dir, s.file), 400, { fromMs: fromMs[i]!, toMs: toMs[i]! });
    const us = (ms: number) => (ms * 1000) / runs[i]!.requests;
    perRequest[s.name] = {
      busyUs: us(summary.busyMs),
      fns: new Map(summary.topFunctions.map((f) => [`${f.name} ${f.where}`, us(f.ms)])),
      pkgs: new Map(summary.byPackage.map((p) => [p.name, us(p.ms)])),
    };
    console.log(`${s.name}: ${runs[i]!.rps.toFixed(0)} req/s under the profiler, ${us(summary.busyMs).toFixed(0)} µs busy per request`);
  }
  const [a, b] = [perRequest['working tree']!, perRequest[base.sha]!];
  const diff = (x: Map<string, number>, y: Map<string, number>, n: number) =>
    [...new Set([...x.keys(), ...y.keys()])]
      .map((k) => [k, x.get(k) ?? 0, y.get(k) ?? 0] as const)
      .sort((p, q) => Math.abs(q[1] - q[2]) - Math.abs(p[1] - p[2]))
      .slice(0, n);
  console.log(`\n| package | working tree µs/req | ${base.sha} µs/req | difference |\n|---|---|---|---|`);
  for (const [k, x, y] of diff(a.pkgs, b.pkgs, 25)) console.log(`| ${k} | ${x.toFixed(1)} | ${y.toFixed(1)} | ${(x - y).toFixed(1)} |`);
  console.log(`\n| function | working tree µs/req | ${base.sha} µs/req | difference |\n|---|---|---|---|`);
  for (const [k, x, y] of diff(a.fns, b.fns, 40)) console.log(`| ${k} | ${x.toFixed(1)} | ${y.toFixed(1)} | ${(x - y).toFixed(1)} |`);
} finally {
  await emu.stop();
  killAll();
}
