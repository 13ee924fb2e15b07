/**
 * Side by side: the same service under different Node/V8 flags, one emulator, interleaved
 * autocannon rounds (`{ __typename }` and `title`, 16 connections), with CPU per request.
 *
 *   npx tsx bench/experiments/node-flags.ts default --max-semi-space-size=1 --max-semi-space-size=4
 *
 * Each argument is one variant ("default" = no flags; several flags in one argument, space
 * separated). Bounded: 3 rounds of 3 s per variant and query.
 */
import { cpuMs, killAll, startEmulatorProcess, startService } from '../lib/procs';
import { graphqlTarget, throughput, warmUp } from '../lib/load';
import { SIDE_BY_SIDE_QUERIES } from '../queries';

const variants = process.argv.slice(2).length ? process.argv.slice(2) : ['default', '--max-semi-space-size=1'];
const emu = await startEmulatorProcess(0);
const services = [];
for (const [i, v] of variants.entries()) {
  services.push({ name: v, svc: await startService(`flags-${i}`, emu.url, {}, v === 'default' ? [] : v.split(' ')) });
}
const target = graphqlTarget;
const queries = SIDE_BY_SIDE_QUERIES;
try {
  await warmUp(
    services.map((s) => s.svc.base),
    queries,
    1,
  );
  const rows: Record<string, { rps: number[]; cpuUs: number[] }> = {};
  for (let round = 0; round < 3; round++) {
    for (const [name, q, v] of queries) {
      for (const { name: variant, svc } of round % 2 ? [...services].reverse() : services) {
        const before = cpuMs(svc.pid);
        const r = await throughput(target(svc.base, q, v), 16, 3);
        rows[`${variant} | ${name}`] ??= { rps: [], cpuUs: [] };
        const row = rows[`${variant} | ${name}`]!;
        row.rps.push(Math.round(r.rps));
        row.cpuUs.push(Math.round(((cpuMs(svc.pid) - before) / r.requests) * 1000));
      }
    }
  }
  console.log('| variant | query | req/s per round | service CPU µs/req per round |\n|---|---|---|---|');
  for (const [k, r] of Object.entries(rows)) console.log(`| ${k} | ${r.rps.join(', ')} | ${r.cpuUs.join(', ')} |`);
} finally {
  for (const { svc } of services) await svc.stop();
  await emu.stop();
  killAll();
}
