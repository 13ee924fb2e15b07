/**
 * One service under `node --cpu-prof`, one query at 16 connections: prints the profile's path and
 * the measured window, for a closer look at the profile (inclusive times, callers).
 *
 *   npx tsx bench/experiments/profile-one.ts [QUERY=title|typename] [SECONDS=6] [ROOT=this checkout]
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { graphqlTarget, probe, throughput } from '../lib/load';
import { killAll, LOG_DIR, ROOT, startEmulatorProcess, startService } from '../lib/procs';
import { TITLE_QUERY, TYPENAME_QUERY } from '../queries';

const which = process.argv[2] ?? 'title';
const seconds = Number(process.argv[3] ?? 6);
const root = process.argv[4] ?? ROOT;
const [query, variables] = which === 'typename' ? [TYPENAME_QUERY, undefined] : [TITLE_QUERY, { titleNumber: 'MID15313' }];
const dir = join(LOG_DIR, 'profiles-one');
mkdirSync(dir, { recursive: true });
const file = `${which}-${Date.now()}.cpuprofile`;
const emu = await startEmulatorProcess(0);
try {
  const svc = await startService('profile-one', emu.url, {}, ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${file}`], root);
  const t = graphqlTarget(svc.base, query, variables);
  await probe(t);
  await throughput(t, 16, 3);
  const fromMs = Date.now() - svc.spawnedAt;
  const r = await throughput(t, 16, seconds);
  const toMs = Date.now() - svc.spawnedAt;
  await svc.stop();
  console.log(JSON.stringify({ profile: join(dir, file), fromMs, toMs, requests: r.requests, rps: Math.round(r.rps) }));
} finally {
  await emu.stop();
  killAll();
}
