/**
 * How a fresh service's CPU per request moves over a minute of load: one service, one query at
 * 16 connections, CPU per request of each 3 s window. A service still getting cheaper after its
 * first windows is paying a warm-up that a short measurement charges to it.
 *
 *   npx tsx bench/experiments/warming.ts [QUERY=title|typename] [WINDOWS=15] [NODE_FLAGS...]
 */
import { readFileSync } from 'node:fs';
import { graphqlTarget, probe, throughput } from '../lib/load';
import { cpuMs, killAll, startEmulatorProcess, startService } from '../lib/procs';
import { TITLE_QUERY, TYPENAME_QUERY } from '../queries';

const which = process.argv[2] ?? 'title';
const windows = Number(process.argv[3] ?? 15);
const flags = process.argv.slice(4);
const [query, variables] = which === 'typename' ? [TYPENAME_QUERY, undefined] : [TITLE_QUERY, { titleNumber: 'MID15313' }];
/** Minor page faults of a process so far (/proc/<pid>/stat, field 10). */
const minorFaults = (pid: number) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[7]);
const emu = await startEmulatorProcess(0);
try {
  const svc = await startService('warming', emu.url, {}, flags);
  const t = graphqlTarget(svc.base, query, variables);
  await probe(t);
  const rows: string[] = [];
  for (let i = 0; i < windows; i++) {
    const before = cpuMs(svc.pid);
    const faultsBefore = minorFaults(svc.pid);
    const r = await throughput(t, 16, 3);
    rows.push(
      `${Math.round(r.rps)} req/s ${Math.round(((cpuMs(svc.pid) - before) / r.requests) * 1000)} µs, ${((minorFaults(svc.pid) - faultsBefore) / r.requests).toFixed(2)} page faults`,
    );
  }
  console.log(rows.join('\n'));
  await svc.stop();
} finally {
  await emu.stop();
  killAll();
}
