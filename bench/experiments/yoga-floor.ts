/**
 * What the prescribed HTTP and GraphQL layer costs on its own, against the Apollo peer: titlegraph
 * (every feature on), graphql-yoga bare (bench/experiments/bare-yoga-server.ts: no plugins, no
 * features, the peer's schema, one undici request per title, graphql-jit) and the Apollo Server 5 peer, all
 * three loaded at the same time with the same `title` query over one emulator, 8 connections
 * each; CPU per request from /proc, each round's ratios to the peer, then their median.
 * With --lean, also titlegraph with its log lines and metrics off (LOG_LEVEL=silent,
 * METRICS_ENABLED=false).
 *
 *   npx tsx bench/experiments/yoga-floor.ts [ROUNDS=8] [--lean]
 *
 * Needs bench/peers installed (`npm run bench` installs it; or `npm ci --prefix bench/peers`).
 */
import { graphqlTarget, probe, registerToken, type Target, throughput, warmUp } from '../lib/load';
import { cpuMs, killAll, startApolloPeer, startBareYoga, startEmulatorProcess, startService } from '../lib/procs';
import { TITLE_QUERY } from '../queries';
import { median } from '../lib/stats';

const rounds = Number(process.argv.find((a) => /^\d+$/.test(a)) ?? 8);
const lean = process.argv.includes('--lean');
const variables = { titleNumber: 'MID15313' };

const emu = await startEmulatorProcess(0);
const token = await registerToken(emu.url);
const withToken = (t: Target): Target => ({ ...t, headers: { ...t.headers, authorization: `Bearer ${token}` } });
const ours = await startService('floor-titlegraph', emu.url);
const oursLean = lean ? await startService('floor-lean', emu.url, { LOG_LEVEL: 'silent', METRICS_ENABLED: 'false' }) : undefined;
const bare = await startBareYoga(emu.url);
const apollo = await startApolloPeer(emu.url);
const targets = [
  { name: 'titlegraph', pid: ours.pid, target: graphqlTarget(ours.base, TITLE_QUERY, variables) },
  ...(oursLean
    ? [{ name: 'titlegraph, no log or metrics', pid: oursLean.pid, target: graphqlTarget(oursLean.base, TITLE_QUERY, variables) }]
    : []),
  { name: 'bare yoga', pid: bare.pid, target: withToken(graphqlTarget(bare.base, TITLE_QUERY, variables)) },
  { name: 'apollo peer', pid: apollo.pid, target: withToken(graphqlTarget(apollo.base, TITLE_QUERY, variables)) },
];
try {
  // The same answer from each, or the comparison is of different work.
  const answers = await Promise.all(targets.map(({ target }) => probe(target)));
  const title = (text: string) => JSON.stringify((JSON.parse(text) as { data: { title: unknown } }).data.title);
  for (const [i, text] of answers.entries()) {
    if (title(text) !== title(answers[0]!)) throw new Error(`${targets[i]!.name} answered differently: ${text.slice(0, 300)}`);
  }
  await warmUp([ours.base, ...(oursLean ? [oursLean.base] : [])], [['title', TITLE_QUERY, variables]], 2);
  for (const { target } of targets.slice(-2)) await throughput(target, 8, 2);
  const cpuUs = new Map(targets.map((t) => [t.name, [] as number[]]));
  for (let round = 0; round < rounds; round++) {
    const before = targets.map(({ pid }) => cpuMs(pid));
    const runs = await Promise.all(targets.map(({ target }) => throughput(target, 8, 3)));
    for (const [i, { name, pid }] of targets.entries()) cpuUs.get(name)!.push(((cpuMs(pid) - before[i]!) / runs[i]!.requests) * 1000);
    console.log(
      `round ${round + 1}: ${targets.map(({ name }, i) => `${name} ${Math.round(cpuUs.get(name)![round]!)} µs (${Math.round(runs[i]!.rps)} req/s)`).join(' | ')}`,
    );
  }
  const peer = cpuUs.get('apollo peer')!;
  for (const { name } of targets.slice(0, -1)) {
    const ratios = cpuUs.get(name)!.map((us, i) => us / peer[i]!);
    console.log(
      `${name} ÷ apollo peer, CPU per request: median ${median(ratios).toFixed(2)} (${ratios.map((r) => r.toFixed(2)).join(', ')})`,
    );
  }
} finally {
  await Promise.all([ours.stop(), oursLean?.stop(), bare.stop(), apollo.stop(), emu.stop()]);
  killAll();
}
