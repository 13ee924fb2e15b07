/** Turns one run's measurements into goals (met or not), RESULTS.md, results.json and chart.svg. */
import { median } from './stats';
import type { ApqFloodResult } from './apq-flood';
import type { SpendCpuResult } from './spend-cpu';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { LatencyStats, Throughput } from './load';
import { LOG_DIR, ROOT } from './procs';
import { largestDifferences, type ProfileSummary, type SideBySideProfile } from './profile';
import { keepingSeparateSections, withSeparateSection } from './results-sections';

/** A section of a bench of its own (statements, tokens) printed and put in bench/RESULTS.md, in place of its last one. */
export function putSectionInResults(section: string): void {
  console.log(section);
  const results = join(ROOT, 'bench', 'RESULTS.md');
  writeFileSync(results, withSeparateSection(readFileSync(results, 'utf8'), section));
}

export interface Results {
  meta: {
    date: string;
    node: string;
    cpus: number;
    cpuModel: string;
    loadavgAtStart: number[];
    loadavgAtEnd?: number[];
    commit: string;
    dirty: boolean;
    quick: boolean;
    only?: string[] | undefined;
    connections: number;
    roundSeconds: number;
    rounds: number;
    seconds?: number;
    /** `--baseline <ref>`: the other commit whose service ran beside ours (target `baseline title`). */
    baseline?: { ref: string; sha: string };
  };
  peer?: { available: boolean; error?: string };
  /** The second peer: Apollo Server 5 + @apollo/datasource-rest (bench/peers/apollo-peer.mjs). */
  apolloPeer?: { available: boolean; error?: string };
  economy?: {
    titles: string[];
    query: string;
    scenarios: {
      label: string;
      settings: string;
      load: number;
      calls: Record<string, number>;
      total: number;
      expected: Record<string, number>;
      minimum: number;
      met: boolean;
    }[];
  };
  latency?: Record<string, LatencyStats>;
  throughput?: Record<string, (Throughput & { cpuMsPerRequest: Record<string, number> })[]>;
  /** CPU per request with ours, the Apollo peer (and the baseline) loaded at the same time, round by round. */
  sideBySide?: {
    connections: number;
    rounds: Record<string, { process: string; rps: number; cpuMsPerRequest: number; non2xx: number }>[];
  };
  /** The same `title` direct and through each federation gateway (bench/gateway.ts), interleaved rounds. */
  gateways?: { query: string; rounds: Record<string, (Throughput & { cpuMsPerRequest: Record<string, number> })[]> };
  streaming?: {
    bytes: number;
    sha256: string;
    runs: {
      directMBps: number;
      serviceMBps: number;
      /** Through the bare Node relay (bench/lib/bare-relay.ts): the ceiling of any Node relay here. */
      relayMBps: number;
      serviceRssBaseline: number;
      serviceRssPeak: number;
      serviceRssGrowth: number;
      /** CPU ms per process over the download (emulator, service, relay, client = the load generator). */
      directCpuMs?: Record<string, number>;
      serviceCpuMs?: Record<string, number>;
      relayCpuMs: Record<string, number>;
    }[];
    /** The same download through a service whose V8 collects young garbage often. */
    diagnosis?: { nodeArgs: string[]; runs: { mbPerS: number; rssGrowth: number; serviceCpuMs?: number }[] } | undefined;
    peer?:
      | {
          status: number;
          responseBytes: number;
          seconds: number;
          rssBaseline: number;
          rssPeak: number;
          rssGrowth: number;
          pdfDelivered: boolean;
          outcome: string;
        }
      | undefined;
  };
  batching?: {
    latencyMs: number;
    concurrency: number;
    titles: number;
    runs: { withSecurities: boolean; ms: number; calls: Record<string, number> }[];
    /** The same queries against the emulator without latency. */
    atZeroLatency?: { withSecurities: boolean; ms: number }[];
    /** The summaries page with @stream (multipart/mixed): time to the first title and to the end. */
    stream?: { query: string; runs: { firstItemMs: number; totalMs: number; parts: number }[] } | undefined;
  };
  profiles?: Record<string, ProfileSummary & { requests: number; rps: number; busyMsPerRequest: number }>;
  /** `title` on this checkout and on the `--baseline` commit, profiled side by side. */
  profileVsBaseline?: SideBySideProfile;
  apqFlood?: ApqFloodResult;
  spendCpu?: SpendCpuResult;
}

export interface Goal {
  id: string;
  what: string;
  goal: string;
  measured: string;
  met: boolean | null;
  note?: string;
}

const REST = 'REST direct';
const OURS = 'GraphQL title';
const PEER = 'peer title';
const APOLLO = 'apollo title';
const TYPENAME = 'GraphQL { __typename }';
const BASELINE = 'baseline title';
/** The gateway targets of bench/run.ts's gateways phase, and the process each one's gateway runs in. */
const GATEWAYS = [
  ['through Hive Gateway', 'Hive Gateway'],
  ['through Apollo Gateway', 'Apollo Gateway'],
] as const;
/** The process whose CPU a target's requests cost (the throughput rounds measure every process). */
const SERVES: Record<string, string> = { [OURS]: 'service', [APOLLO]: 'apollo', [BASELINE]: 'baseline', [PEER]: 'peer' };

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const ms = (v: number) => `${v.toFixed(2)} ms`;
const mb = (bytes: number) => `${(bytes / 1048576).toFixed(1)} MB`;
const x = (v: number) => `${v.toFixed(2)}×`;

/** Median over rounds of one process's CPU ms per request while `target` was loaded. */
function cpuPerRequest(t: NonNullable<Results['throughput']>, target: string, process: string): number {
  return median((t[target] ?? []).map((q) => q.cpuMsPerRequest[process] ?? NaN));
}

/**
 * The run the absolute CPU goals (ms per request) were judged on, measured by two programs this
 * project does not change; each run scales its absolute CPU figures by its own host against it
 * (docs/performance.md, "Host speed").
 */
const REFERENCE_RUN = { label: 'commit a4cac59, 2026-11-23 12:19 UTC', apolloCpuMs: 0.237, emulatorRestCpuMs: 0.028 };

/** How much more CPU this run's host spends on the same work than the reference run's (the Apollo peer's `title`). */
function hostFactor(t: Results['throughput']): number | undefined {
  if (!t?.[APOLLO]) return undefined;
  const factor = cpuPerRequest(t, APOLLO, 'apollo') / REFERENCE_RUN.apolloCpuMs;
  return Number.isFinite(factor) && factor > 0 ? factor : undefined;
}

/** Per-round ratio a/b (rounds are interleaved, so each pair shares the machine's state). */
function roundRatios(t: NonNullable<Results['throughput']>, a: string, b: string): number[] {
  const ra = t[a] ?? [];
  const rb = t[b] ?? [];
  return ra.slice(0, rb.length).map((r, i) => r.rps / rb[i]!.rps);
}

/** Per-round ratio of CPU per request: target a (served by its process) over target b (by its own). */
function cpuRoundRatios(t: NonNullable<Results['throughput']>, a: string, b: string): number[] {
  const ra = t[a] ?? [];
  const rb = t[b] ?? [];
  return ra.slice(0, rb.length).map((r, i) => (r.cpuMsPerRequest[SERVES[a]!] ?? NaN) / (rb[i]!.cpuMsPerRequest[SERVES[b]!] ?? NaN));
}

/** Per-round ratio of CPU per request in the side-by-side rounds: target a over target b, each on its own process. */
export function sideBySideRatios(s: NonNullable<Results['sideBySide']>, a: string, b: string): number[] {
  return s.rounds.filter((q) => q[a] && q[b]).map((q) => q[a]!.cpuMsPerRequest / q[b]!.cpuMsPerRequest);
}

/** The ratios `npm run bench` prints after the throughput rounds: ours and the baseline against the Apollo peer, and ours against the baseline. */
export function ratioLines(t: NonNullable<Results['throughput']>): string[] {
  const lines: string[] = [];
  const line = (a: string, b: string) => {
    if (!t[a] || !t[b]) return;
    const cpu = cpuRoundRatios(t, a, b);
    const rps = roundRatios(t, a, b);
    lines.push(
      `${a} ÷ ${b}: CPU per request ${median(cpu).toFixed(2)} (rounds ${cpu.map((v) => v.toFixed(2)).join(', ')}), throughput ${median(rps).toFixed(2)}`,
    );
  };
  line(OURS, APOLLO);
  line(BASELINE, APOLLO);
  line(OURS, BASELINE);
  return lines;
}

export function goals(r: Results): Goal[] {
  const out: Goal[] = [];
  const lat = r.latency;
  if (lat?.[REST] && lat[OURS]) {
    const p50 = lat[OURS].p50 - lat[REST].p50;
    const p99 = lat[OURS].p99 - lat[REST].p99;
    out.push({
      id: '1',
      what: 'Added latency p50 (GraphQL `title` − REST summary, 1 connection, sequential)',
      goal: '≤ 0.7 ms',
      measured: ms(p50),
      met: p50 <= 0.7,
    });
    out.push({ id: '1', what: 'Added latency p99', goal: '≤ 2.5 ms', measured: ms(p99), met: p99 <= 2.5 });
  }
  const tp = r.throughput;
  if (tp?.[OURS] && tp[TYPENAME]) {
    const ratios = roundRatios(tp, OURS, TYPENAME);
    const v = median(ratios);
    out.push({
      id: '2',
      what: `Efficiency: \`title\` ÷ \`{ __typename }\` throughput, ${r.meta.connections} connections`,
      goal: '≥ 0.6',
      measured: `${v.toFixed(2)} (rounds: ${ratios.map((q) => q.toFixed(2)).join(', ')})`,
      met: v >= 0.6,
    });
  }
  for (const [target, label, limit] of [
    [OURS, '`title`', 0.3],
    [TYPENAME, '`{ __typename }`', 0.15],
  ] as const) {
    if (!tp?.[target]) continue;
    const v = cpuPerRequest(tp, target, 'service');
    const factor = hostFactor(tp);
    const scaled =
      factor === undefined
        ? ''
        : `; ${(v / factor).toFixed(3)} ms scaled to the reference run's host (÷ ${factor.toFixed(2)}), ${v / factor <= limit ? 'within' : 'over'} the goal there`;
    out.push({
      id: '2',
      what: `Service CPU per ${label} request, every feature on (user + system, /proc, ${r.meta.connections} connections)`,
      goal: `≤ ${limit.toFixed(2)} ms`,
      measured: `${v.toFixed(3)} ms (median of ${tp[target].length} rounds)${scaled}`,
      met: v <= limit,
    });
  }
  if (r.economy) {
    for (const s of r.economy.scenarios) {
      out.push({
        id: '3',
        what: `Register calls, page load ${s.load}: ${s.label}`,
        goal: `= minimum (${s.minimum})`,
        measured: `${s.total}: ${
          Object.entries(s.calls)
            .map(([k, v]) => `${k} ${v}`)
            .join(', ') || 'none'
        }`,
        met: s.met,
      });
    }
  }
  if (r.batching) {
    const b = r.batching;
    const waves = Math.ceil(b.titles / b.concurrency);
    const ideal = waves * b.latencyMs;
    const withS = median(b.runs.filter((q) => q.withSecurities).map((q) => q.ms));
    const without = median(b.runs.filter((q) => !q.withSecurities).map((q) => q.ms));
    out.push({
      id: '4',
      what: `Batching: \`titles\` (${b.titles} distinct) with \`securities\`, latency ${b.latencyMs} ms, concurrency ${b.concurrency}`,
      goal: `≤ 1.10 × ceil(${b.titles}/${b.concurrency}) × ${b.latencyMs} ms = ${(ideal * 1.1).toFixed(0)} ms`,
      measured: `${withS.toFixed(0)} ms (${x(withS / ideal)} of ${ideal} ms)`,
      met: withS <= ideal * 1.1,
      note: 'listings fetched alongside summaries (SECURITIES_PREFETCH, default on)',
    });
    out.push({
      id: '4',
      what: `Batching: \`titles\` (${b.titles} distinct), summaries only`,
      goal: `≤ ${(ideal * 1.1).toFixed(0)} ms`,
      measured: `${without.toFixed(0)} ms (${x(without / ideal)} of ${ideal} ms)`,
      met: without <= ideal * 1.1,
    });
    if (b.stream?.runs.length) {
      const first = median(b.stream.runs.map((q) => q.firstItemMs));
      const total = median(b.stream.runs.map((q) => q.totalMs));
      out.push({
        id: '4',
        what: `@stream: the first title of \`titles\` (${b.titles} distinct, summaries) reaches the client, latency ${b.latencyMs} ms`,
        goal: `≤ 1.5 × ${b.latencyMs} ms = ${(1.5 * b.latencyMs).toFixed(0)} ms`,
        measured: `${first.toFixed(0)} ms (the whole page: ${total.toFixed(0)} ms; runs: ${b.stream.runs.map((q) => q.firstItemMs.toFixed(0)).join(', ')} ms)`,
        met: first <= 1.5 * b.latencyMs,
      });
    }
  }
  if (r.streaming) {
    const s = r.streaming;
    const growth = Math.max(...s.runs.map((q) => q.serviceRssGrowth));
    const ratio = median(s.runs.map((q) => q.serviceMBps / q.directMBps));
    const relayRatio = median(s.runs.map((q) => q.relayMBps / q.directMBps));
    const ofRelay = median(s.runs.map((q) => q.serviceMBps / q.relayMBps));
    out.push({
      id: '5',
      what: 'Streaming 50 MB: peak RSS growth of the service',
      goal: '≤ 32 MB',
      measured: `${mb(growth)} (worst of ${s.runs.length}; median ${mb(median(s.runs.map((q) => q.serviceRssGrowth)))})`,
      note: 'garbage awaiting collection, see section 5',
      met: growth <= 32 * 1048576,
    });
    out.push({
      id: '5',
      what: 'Streaming 50 MB: throughput through the service ÷ direct',
      goal: '≥ 0.8',
      measured: `${ratio.toFixed(2)} (${median(s.runs.map((q) => q.serviceMBps)).toFixed(0)} vs ${median(s.runs.map((q) => q.directMBps)).toFixed(0)} MB/s); a bare Node relay (undici → pipe, no features): ${relayRatio.toFixed(2)}`,
      met: ratio >= 0.8,
    });
    out.push({
      id: '5',
      what: 'Streaming 50 MB: service ÷ bare Node relay',
      goal: 'reported',
      measured: `${ofRelay.toFixed(2)} (${median(s.runs.map((q) => q.serviceMBps)).toFixed(0)} vs ${median(s.runs.map((q) => q.relayMBps)).toFixed(0)} MB/s)`,
      met: null,
    });
  }
  if (r.peer && !r.peer.available) {
    out.push({
      id: '6',
      what: 'Peer (GraphQL Mesh + Hive Gateway)',
      goal: 'measured',
      measured: `unavailable: ${r.peer.error}`,
      met: null,
    });
  }
  if (tp?.[OURS] && tp[PEER]) {
    const ratios = roundRatios(tp, OURS, PEER);
    const v = median(ratios);
    out.push({
      id: '6',
      what: "Mesh + Hive Gateway peer: our `title` throughput ÷ the peer's, same query, same emulator",
      goal: '≥ 2',
      measured: `${v.toFixed(2)} (${mean(tp[OURS].map((q) => q.rps)).toFixed(0)} vs ${mean(tp[PEER].map((q) => q.rps)).toFixed(0)} req/s)`,
      met: v >= 2,
    });
  }
  if (lat?.[OURS] && lat[PEER] && lat[REST]) {
    const ours50 = lat[OURS].p50 - lat[REST].p50;
    const peer50 = lat[PEER].p50 - lat[REST].p50;
    const ours99 = lat[OURS].p99 - lat[REST].p99;
    const peer99 = lat[PEER].p99 - lat[REST].p99;
    out.push({
      id: '6',
      what: "Mesh + Hive Gateway peer: added latency, ours vs the peer's (p50 / p99)",
      goal: 'ours ≤ peer',
      measured: `${ms(ours50)} / ${ms(ours99)} vs ${ms(peer50)} / ${ms(peer99)}`,
      met: ours50 <= peer50 && ours99 <= peer99,
    });
  }
  if (r.streaming?.peer) {
    const p = r.streaming.peer;
    out.push({
      id: '6',
      what: 'Mesh + Hive Gateway peer: the 50 MB plan PDF',
      goal: 'reported',
      measured: `${p.outcome}; HTTP ${p.status}, ${mb(p.responseBytes)} JSON in ${p.seconds.toFixed(1)} s, peer RSS +${mb(p.rssGrowth)}`,
      met: null,
    });
  }
  if (r.apolloPeer && !r.apolloPeer.available) {
    out.push({
      id: '7',
      what: 'Peer: Apollo Server 5 + `@apollo/datasource-rest`',
      goal: 'measured',
      measured: `unavailable: ${r.apolloPeer.error}`,
      met: null,
    });
  }
  if (tp?.[OURS] && tp[APOLLO]) {
    const n = Math.min(tp[OURS].length, tp[APOLLO].length);
    const ratios = Array.from(
      { length: n },
      (_, i) => (tp[OURS]![i]!.cpuMsPerRequest.service ?? NaN) / (tp[APOLLO]![i]!.cpuMsPerRequest.apollo ?? NaN),
    );
    const v = median(ratios);
    // With side-by-side rounds (all loaded at once) the goal is judged there; these rounds, one
    // target after another, are then reported beside it.
    const judged = !r.sideBySide?.rounds.some((q) => q[OURS] && q[APOLLO]);
    out.push({
      id: '7',
      what: `Apollo Server 5 peer: titlegraph's CPU per \`title\` request ÷ the peer's, same query, same emulator, every feature on${judged ? '' : ' (throughput rounds, one target after another)'}`,
      goal: judged ? '≤ 0.7' : 'reported',
      measured: `${v.toFixed(2)} (${cpuPerRequest(tp, OURS, 'service').toFixed(3)} vs ${cpuPerRequest(tp, APOLLO, 'apollo').toFixed(3)} ms; rounds: ${ratios.map((q) => q.toFixed(2)).join(', ')})`,
      met: judged ? v <= 0.7 : null,
    });
    const tRatios = roundRatios(tp, OURS, APOLLO);
    out.push({
      id: '7',
      what: "Apollo Server 5 peer: our `title` throughput ÷ the peer's",
      goal: 'reported',
      measured: `${median(tRatios).toFixed(2)} (${mean(tp[OURS].map((q) => q.rps)).toFixed(0)} vs ${mean(tp[APOLLO].map((q) => q.rps)).toFixed(0)} req/s)`,
      met: null,
    });
  }
  const sbs = r.sideBySide;
  if (sbs?.rounds.some((q) => q[OURS] && q[APOLLO])) {
    const ours = sideBySideRatios(sbs, OURS, APOLLO);
    out.push({
      id: '7',
      what: `Apollo Server 5 peer: titlegraph's CPU per \`title\` request ÷ the peer's, both loaded at the same time (${sbs.connections} connections each), every feature on`,
      goal: '≤ 0.7',
      measured: `${median(ours).toFixed(2)} (rounds: ${ours.map((q) => q.toFixed(2)).join(', ')})`,
      met: median(ours) <= 0.7,
    });
    if (sbs.rounds.some((q) => q[BASELINE])) {
      const baseline = sideBySideRatios(sbs, BASELINE, APOLLO);
      const mine = sideBySideRatios(sbs, OURS, BASELINE);
      out.push({
        id: '7',
        what: `The baseline ${r.meta.baseline?.sha ?? ''}'s CPU per \`title\` request ÷ the Apollo peer's, the three loaded at the same time`,
        goal: 'reported',
        measured: `${median(baseline).toFixed(2)} (rounds: ${baseline.map((q) => q.toFixed(2)).join(', ')})`,
        met: null,
      });
      out.push({
        id: '7',
        what: `This commit's CPU per \`title\` request ÷ the baseline ${r.meta.baseline?.sha ?? ''}'s, loaded at the same time`,
        goal: '≤ 1',
        measured: `${median(mine).toFixed(2)} (rounds: ${mine.map((q) => q.toFixed(2)).join(', ')})`,
        met: median(mine) <= 1,
      });
    }
  }
  const base = r.meta.baseline;
  if (base && tp?.[BASELINE] && tp[APOLLO]) {
    const label = `baseline ${base.ref === base.sha ? base.sha : `${base.ref} (${base.sha})`}`;
    const cpu = cpuRoundRatios(tp, BASELINE, APOLLO);
    out.push({
      id: '7',
      what: `Apollo Server 5 peer, against the ${label}: its CPU per \`title\` request ÷ the peer's (throughput rounds, one target after another)`,
      goal: 'reported',
      measured: `${median(cpu).toFixed(2)} (${cpuPerRequest(tp, BASELINE, 'baseline').toFixed(3)} vs ${cpuPerRequest(tp, APOLLO, 'apollo').toFixed(3)} ms; rounds: ${cpu.map((q) => q.toFixed(2)).join(', ')})`,
      met: null,
    });
    if (tp[OURS]) {
      const mine = cpuRoundRatios(tp, OURS, BASELINE);
      const rps = roundRatios(tp, OURS, BASELINE);
      out.push({
        id: '7',
        what: `This commit against the ${label}: CPU per \`title\` request, and throughput (throughput rounds, one target after another)`,
        goal: 'reported',
        measured: `CPU ${median(mine).toFixed(2)} (rounds: ${mine.map((q) => q.toFixed(2)).join(', ')}); throughput ${median(rps).toFixed(2)}`,
        met: null,
      });
    }
  }
  const gw = r.gateways?.rounds;
  if (gw?.direct) {
    const direct = median(gw.direct.map((q) => q.cpuMsPerRequest.service ?? NaN));
    for (const [target, gateway] of GATEWAYS) {
      if (!gw[target]) continue;
      const own = median(gw[target].map((q) => q.cpuMsPerRequest[gateway] ?? NaN));
      const service = median(gw[target].map((q) => q.cpuMsPerRequest.service ?? NaN));
      out.push({
        id: '8',
        what: `\`title\` through ${gateway}: CPU per request (gateway + service) ÷ the service's direct`,
        goal: 'reported',
        measured: `${((own + service) / direct).toFixed(2)} (${gateway} ${own.toFixed(3)} + service ${service.toFixed(3)} ms vs ${direct.toFixed(3)} ms direct)`,
        met: null,
      });
    }
  }
  if (lat?.[OURS] && lat[APOLLO] && lat[REST]) {
    out.push({
      id: '7',
      what: "Apollo Server 5 peer: added latency, ours vs the peer's (p50 / p99)",
      goal: 'reported',
      measured: `${ms(lat[OURS].p50 - lat[REST].p50)} / ${ms(lat[OURS].p99 - lat[REST].p99)} vs ${ms(lat[APOLLO].p50 - lat[REST].p50)} / ${ms(lat[APOLLO].p99 - lat[REST].p99)}`,
      met: null,
    });
  }
  return out;
}

// ------------------------------------------------------------------ chart

const COLORS = {
  rest: '#8c8c8c',
  ours: '#1f6feb',
  peer: '#d9822b',
  floor: '#7fb3f5',
  p99: '#0b3d91',
  peer99: '#8a4a0f',
  apollo: '#8e5cc9',
  apollo99: '#4b2580',
};

function esc(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

interface Bar {
  label: string;
  value: number;
  color: string;
  text?: string;
}

function panel(x0: number, title: string, unit: string, groups: { label: string; bars: Bar[] }[], width = 300, height = 300): string {
  const top = 50;
  const bottom = height - 60;
  const left = x0 + 45;
  const right = x0 + width - 10;
  const top0 = Math.max(1e-9, ...groups.flatMap((g) => g.bars.map((b) => b.value)));
  // a "nice" tick step (1, 2 or 5 × 10^n) giving about four ticks
  const raw = top0 / 4;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((v) => v >= raw)!;
  const ticks = Math.ceil((top0 * 1.12) / step);
  const max = ticks * step;
  const groupW = (right - left) / Math.max(1, groups.length);
  const parts: string[] = [];
  parts.push(`<text x="${x0 + width / 2}" y="22" text-anchor="middle" font-size="14" font-weight="bold">${esc(title)}</text>`);
  parts.push(`<text x="${x0 + width / 2}" y="38" text-anchor="middle" font-size="11" fill="#555">${esc(unit)}</text>`);
  parts.push(`<line x1="${left}" y1="${bottom}" x2="${right}" y2="${bottom}" stroke="#333"/>`);
  parts.push(`<line x1="${left}" y1="${top}" x2="${left}" y2="${bottom}" stroke="#333"/>`);
  for (let i = 0; i <= ticks; i++) {
    const v = step * i;
    const y = bottom - (v / max) * (bottom - top);
    parts.push(`<line x1="${left - 3}" y1="${y.toFixed(1)}" x2="${right}" y2="${y.toFixed(1)}" stroke="#e5e5e5"/>`);
    parts.push(
      `<text x="${left - 5}" y="${(y + 4).toFixed(1)}" text-anchor="end" font-size="10" fill="#555">${Number(v.toPrecision(6))}</text>`,
    );
  }
  groups.forEach((g, gi) => {
    const gx = left + gi * groupW;
    const barW = Math.min(40, (groupW - 12) / g.bars.length);
    const start = gx + (groupW - barW * g.bars.length) / 2;
    g.bars.forEach((b, bi) => {
      const h = (b.value / max) * (bottom - top);
      const bx = start + bi * barW;
      parts.push(
        `<rect x="${bx.toFixed(1)}" y="${(bottom - h).toFixed(1)}" width="${(barW - 2).toFixed(1)}" height="${h.toFixed(1)}" fill="${b.color}"><title>${esc(`${g.label} ${b.label}: ${b.text ?? b.value.toFixed(2)}`)}</title></rect>`,
      );
      parts.push(
        `<text x="${(bx + barW / 2 - 1).toFixed(1)}" y="${(bottom - h - 4).toFixed(1)}" text-anchor="middle" font-size="10">${esc(b.text ?? (b.value >= 100 ? b.value.toFixed(0) : b.value.toFixed(2)))}</text>`,
      );
    });
    const words = g.label.split(' ');
    words.forEach((w, wi) => {
      parts.push(
        `<text x="${(gx + groupW / 2).toFixed(1)}" y="${bottom + 16 + wi * 13}" text-anchor="middle" font-size="11">${esc(w)}</text>`,
      );
    });
  });
  return parts.join('\n');
}

export function chart(r: Results): string {
  const panels: string[] = [];
  let x0 = 0;
  const tp = r.throughput;
  if (tp) {
    const rps = (name: string) => (tp[name]?.length ? mean(tp[name].map((q) => q.rps)) : undefined);
    const groups = [
      { name: REST, label: 'REST direct', color: COLORS.rest },
      { name: TYPENAME, label: 'ours __typename', color: COLORS.floor },
      { name: OURS, label: 'ours title', color: COLORS.ours },
      { name: PEER, label: 'Mesh peer title', color: COLORS.peer },
      { name: APOLLO, label: 'Apollo peer title', color: COLORS.apollo },
    ]
      .filter((g) => rps(g.name) !== undefined)
      .map((g) => ({ label: g.label, bars: [{ label: 'req/s', value: rps(g.name)!, color: g.color }] }));
    const panelWidth = groups.length > 4 ? 370 : 300; // five groups need room for their labels
    panels.push(panel(x0, `Throughput, ${r.meta.connections} connections`, 'requests per second (higher is better)', groups, panelWidth));
    x0 += panelWidth + 20;
  }
  const lat = r.latency;
  if (lat) {
    const groups = [
      { name: REST, label: 'REST direct', c50: COLORS.rest, c99: '#555' },
      { name: OURS, label: 'ours title', c50: COLORS.ours, c99: COLORS.p99 },
      { name: PEER, label: 'Mesh peer title', c50: COLORS.peer, c99: COLORS.peer99 },
      { name: APOLLO, label: 'Apollo peer title', c50: COLORS.apollo, c99: COLORS.apollo99 },
    ]
      .filter((g) => lat[g.name])
      .map((g) => ({
        label: g.label,
        bars: [
          { label: 'p50', value: lat[g.name]!.p50, color: g.c50 },
          { label: 'p99', value: lat[g.name]!.p99, color: g.c99 },
        ],
      }));
    panels.push(panel(x0, 'Latency, 1 connection', 'ms, p50 (light) and p99 (dark); lower is better', groups));
    x0 += 320;
  }
  const s = r.streaming;
  if (s) {
    const direct = median(s.runs.map((q) => q.directMBps));
    const svc = median(s.runs.map((q) => q.serviceMBps));
    const groups = [
      { label: 'REST direct', bars: [{ label: 'MB/s', value: direct, color: COLORS.rest }] },
      {
        label: 'ours download',
        bars: [
          {
            label: 'MB/s',
            value: svc,
            color: COLORS.ours,
            text: `${svc.toFixed(0)} (+${(Math.max(...s.runs.map((q) => q.serviceRssGrowth)) / 1048576).toFixed(0)} MB RSS)`,
          },
        ],
      },
    ];
    if (s.peer) {
      const v = s.peer.pdfDelivered ? s.bytes / 1048576 / s.peer.seconds : 0;
      groups.push({
        label: 'peer downloadPlan',
        bars: [
          {
            label: 'MB/s',
            value: v,
            color: COLORS.peer,
            text: s.peer.pdfDelivered
              ? `${v.toFixed(0)} (+${(s.peer.rssGrowth / 1048576).toFixed(0)} MB RSS)`
              : `no PDF (+${(s.peer.rssGrowth / 1048576).toFixed(0)} MB RSS)`,
          },
        ],
      });
    }
    panels.push(panel(x0, '50 MB plan download', 'MB/s (higher is better); peak RSS growth', groups));
    x0 += 320;
  }
  const width = Math.max(320, x0);
  const footer = `titlegraph npm run bench, ${r.meta.date.slice(0, 10)}, ${r.meta.cpus} cores, Node ${r.meta.node}; service NODE_ENV=production; see bench/RESULTS.md`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="330" viewBox="0 0 ${width} 330" font-family="Helvetica, Arial, sans-serif">
<rect width="100%" height="100%" fill="#fff"/>
${panels.join('\n')}
<text x="${width / 2}" y="322" text-anchor="middle" font-size="10" fill="#777">${esc(footer)}</text>
</svg>
`;
}

// ------------------------------------------------------------------ markdown

/** Where the method, the history and the decisions behind these figures are written, from bench/RESULTS.md. */
const STORY = '../docs/performance.md';

function table(head: string[], rows: (string | number)[][]): string {
  return [`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`, ...rows.map((r) => `| ${r.join(' | ')} |`)].join('\n');
}

const verdict = (met: boolean | null) => (met === null ? '—' : met ? '**met**' : '**not met**');
/** A section's one line pointing at how it is measured: `heading` is a heading of docs/performance.md, its anchor as GitHub makes it. */
const how = (heading: string) =>
  `How it is measured and how to read it: [${heading}](${STORY}#${heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-')}).`;
const calls = (c: Record<string, number>) =>
  Object.entries(c)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ') || 'none';

const GOAL_HEAD = ['#', 'comparison', 'goal', 'measured', 'result'];
const goalCells = (g: Goal) => [g.id, g.what + (g.note ? ` (${g.note})` : ''), g.goal, g.measured, verdict(g.met)];

/** The Goals table's rows, one per goal computed from the run (the README's benchmark table quotes some of them). */
export function goalRows(gs: Goal[]): string[] {
  return gs.map((g) => `| ${goalCells(g).join(' | ')} |`);
}

export function markdown(r: Results, gs: Goal[]): string {
  const lines: string[] = [];
  const m = r.meta;
  lines.push('# Benchmark results');
  lines.push('');
  lines.push(
    `Generated by \`npm run bench\` from bench/results.json: ${m.date}, commit ${m.commit}${m.dirty ? ' plus uncommitted changes in src/' : ''}, ${m.cpus} cores (${m.cpuModel}), Node ${m.node}, ${m.seconds?.toFixed(0) ?? '?'} s in all; load average ${m.loadavgAtStart.map((v) => v.toFixed(1)).join(' ')} at the start, ${m.loadavgAtEnd?.map((v) => v.toFixed(1)).join(' ') ?? '?'} at the end.`,
  );
  lines.push('');
  lines.push(`Set-up, method, the history of what was tried and the decisions: [docs/performance.md](${STORY}).`);
  lines.push('');
  lines.push('![throughput and latency](chart.svg)');
  lines.push('');
  lines.push('## Goals');
  lines.push('');
  const factor = hostFactor(r.throughput);
  if (factor !== undefined && r.throughput?.[REST]) {
    const emulatorRest = cpuPerRequest(r.throughput, REST, 'emulator');
    lines.push(
      `Host speed against the reference run (${REFERENCE_RUN.label}): ${factor.toFixed(2)}× its CPU for the same unchanged programs (the Apollo peer ${cpuPerRequest(r.throughput, APOLLO, 'apollo').toFixed(3)} vs ${REFERENCE_RUN.apolloCpuMs.toFixed(3)} ms per \`title\`; the emulator ${emulatorRest.toFixed(3)} vs ${REFERENCE_RUN.emulatorRestCpuMs.toFixed(3)} ms per REST summary, ${(emulatorRest / REFERENCE_RUN.emulatorRestCpuMs).toFixed(2)}×). [Host speed](${STORY}#host-speed).`,
    );
    lines.push('');
  }
  lines.push(table(GOAL_HEAD, gs.map(goalCells)));
  lines.push('');

  if (r.latency) {
    lines.push('## 1. Added latency');
    lines.push('');
    lines.push(`Targets, interleaved request by request: ${Object.keys(r.latency).join(', ')}. Times in ms. ${how('Added latency')}`);
    lines.push('');
    const rest = r.latency[REST]!;
    lines.push(
      table(
        ['target', 'n', 'p50', 'p90', 'p99', 'mean', 'added p50', 'added p99'],
        Object.entries(r.latency).map(([name, s]) => [
          name,
          s.n,
          s.p50.toFixed(3),
          s.p90.toFixed(3),
          s.p99.toFixed(3),
          s.mean.toFixed(3),
          name === REST ? '—' : (s.p50 - rest.p50).toFixed(3),
          name === REST ? '—' : (s.p99 - rest.p99).toFixed(3),
        ]),
      ),
    );
    lines.push('');
  }
  if (r.latency?.[REST] && r.latency[OURS] && r.latency[TYPENAME]) {
    const l = r.latency;
    const added = l[OURS]!.p50 - l[REST]!.p50;
    const floor = l[TYPENAME]!.p50 - l[REST]!.p50;
    const cpu = r.throughput?.[OURS] ? median(r.throughput[OURS].map((q) => q.cpuMsPerRequest.service ?? NaN)) : undefined;
    lines.push(
      `Of the ${added.toFixed(2)} ms added at p50, ${Math.max(0, floor).toFixed(2)} ms is any GraphQL request's (\`{ __typename }\`) and ${(added - floor).toFixed(2)} ms the \`title\` work` +
        (cpu !== undefined ? `; the service spends ${cpu.toFixed(2)} ms of CPU per \`title\` (section 2).` : '.'),
    );
    lines.push('');
  }
  if (r.throughput) {
    lines.push('## 2. Throughput and efficiency');
    lines.push('');
    lines.push(
      `autocannon, ${m.connections} connections, ${m.rounds} rounds of ${m.roundSeconds} s, targets one after the other. ${how('Throughput and efficiency')}`,
    );
    lines.push('');
    const names = Object.keys(r.throughput);
    const pidNames = Object.keys(r.throughput[names[0]!]?.[0]?.cpuMsPerRequest ?? {});
    lines.push(
      table(
        [
          'target',
          'req/s per round',
          'mean req/s',
          'p50 / p99 latency (ms)',
          'non-2xx / errors',
          ...pidNames.map((p) => `${p} CPU ms/req`),
        ],
        names.map((n) => {
          const rs = r.throughput![n]!;
          return [
            n,
            rs.map((q) => q.rps.toFixed(0)).join(', '),
            mean(rs.map((q) => q.rps)).toFixed(0),
            `${median(rs.map((q) => q.latencyP50))} / ${median(rs.map((q) => q.latencyP99))}`,
            `${rs.reduce((a, q) => a + q.non2xx, 0)} / ${rs.reduce((a, q) => a + q.errors, 0)}`,
            ...pidNames.map((p) => median(rs.map((q) => q.cpuMsPerRequest[p]!)).toFixed(3)),
          ];
        }),
      ),
    );
    lines.push('');
    if (r.throughput[OURS] && r.throughput[REST]) {
      lines.push(`GraphQL \`title\` ÷ REST direct throughput: ${median(roundRatios(r.throughput, OURS, REST)).toFixed(2)}.`);
      lines.push('');
    }
    if (r.throughput[OURS] && r.throughput[TYPENAME]) {
      const cpuT = median(r.throughput[OURS].map((q) => q.cpuMsPerRequest.service ?? NaN));
      const cpuF = median(r.throughput[TYPENAME].map((q) => q.cpuMsPerRequest.service ?? NaN));
      const emuT = median(r.throughput[OURS].map((q) => q.cpuMsPerRequest.emulator ?? NaN));
      lines.push(
        `Service CPU per request: \`{ __typename }\` ${cpuF.toFixed(3)} ms, \`title\` ${cpuT.toFixed(3)} ms (ratio ${(cpuF / cpuT).toFixed(2)}); the emulator ${emuT.toFixed(3)} ms per \`title\`.`,
      );
      lines.push('');
    }
  }
  if (r.meta.baseline && r.throughput?.[BASELINE]) {
    const b = r.meta.baseline;
    lines.push(`### Against the baseline: ${b.ref === b.sha ? b.sha : `${b.ref} (${b.sha})`}`);
    lines.push('');
    lines.push(
      `\`npm run bench -- --baseline ${b.ref}\`, as the target \`${BASELINE}\` in the rounds above. ${how('Against a baseline commit')}`,
    );
    lines.push('');
    lines.push(table(['comparison', 'CPU per request (median)', 'rounds', 'throughput (median)'], baselineRows(r.throughput)));
    lines.push('');
  }
  if (r.sideBySide) lines.push(...sideBySideSection(r.sideBySide));
  if (r.gateways) lines.push(...gatewaysSection(r.gateways));
  if (r.profiles) {
    lines.push('## Where the time goes (`--cpu-prof`)');
    lines.push('');
    lines.push(
      `A service process under \`node --cpu-prof\`, 16 connections, one query at a time; self time of the service only. ${how('Where the time goes')}`,
    );
    lines.push('');
    const t = r.profiles.title;
    const f = r.profiles.typename;
    if (t && f) {
      const per = (p: typeof t, name: string) => (p.byPackage.find((q) => q.name === name)?.ms ?? 0) / Math.max(1, p.requests);
      const names = [...new Set([...t.byPackage, ...f.byPackage].map((q) => q.name))];
      const rows = names.map((n) => ({ n, a: per(t, n), b: per(f, n) })).sort((x, y) => y.a - y.b - (x.a - x.b));
      const shown = rows.slice(0, 16);
      const rest = rows.slice(16).reduce((acc, q) => acc + q.a - q.b, 0);
      lines.push(
        `**What a \`title\` request costs beyond the \`{ __typename }\` floor**, in CPU µs per request (busy: ${(t.busyMsPerRequest * 1000).toFixed(0)} µs vs ${(f.busyMsPerRequest * 1000).toFixed(0)} µs).`,
      );
      lines.push('');
      lines.push(
        table(
          ['package / part', '`title` µs/req', '`{ __typename }` µs/req', 'difference'],
          [
            ...shown.map((q) => [
              q.n,
              (q.a * 1000).toFixed(1),
              (q.b * 1000).toFixed(1),
              `${q.a - q.b >= 0 ? '+' : ''}${((q.a - q.b) * 1000).toFixed(1)}`,
            ]),
            ['everything else', '', '', `${rest >= 0 ? '+' : ''}${(rest * 1000).toFixed(1)}`],
          ],
        ),
      );
      lines.push('');
    }
    for (const [name, p] of Object.entries(r.profiles)) {
      lines.push(
        `### ${name === 'title' ? '`title` (summary fields)' : '`{ __typename }`'}: ${p.busyMsPerRequest.toFixed(3)} ms busy CPU per request (${p.rps.toFixed(0)} req/s under the profiler)`,
      );
      lines.push('');
      lines.push(
        table(
          ['package / part', 'self ms', 'share'],
          p.byPackage.slice(0, 14).map((q) => [q.name, q.ms.toFixed(0), `${(q.share * 100).toFixed(1)} %`]),
        ),
      );
      lines.push('');
      lines.push(
        table(
          ['function', 'where', 'self ms', 'share'],
          p.topFunctions.slice(0, 15).map((q) => [`\`${q.name}\``, q.where, q.ms.toFixed(0), `${(q.share * 100).toFixed(1)} %`]),
        ),
      );
      lines.push('');
    }
  }
  if (r.profileVsBaseline) lines.push(...profileVsBaselineSection(r.profileVsBaseline));
  if (r.economy) {
    lines.push('## 3. Register economy');
    lines.push('');
    lines.push(
      `One page in one request: ${r.economy.titles.length} titles listed twice, a detail pane, securities, a reference list. ${how('Register economy')}`,
    );
    lines.push('');
    lines.push(
      table(
        ['scenario', 'settings', 'load', 'register calls by route', 'total', 'minimum', 'result'],
        r.economy.scenarios.map((s) => [s.label, s.settings, s.load, calls(s.calls), s.total, s.minimum, verdict(s.met)]),
      ),
    );
    lines.push('');
  }
  if (r.batching) {
    const b = r.batching;
    const wave = Math.ceil(b.titles / b.concurrency) * b.latencyMs;
    lines.push('## 4. Batching latency');
    lines.push('');
    lines.push(
      `Emulator latency ${b.latencyMs} ms, \`REGISTER_CONCURRENCY=${b.concurrency}\`, ${b.titles} distinct titles a request: ceil(${b.titles}/${b.concurrency}) × ${b.latencyMs} ms = ${wave} ms a level of calls. ${how('Batching latency')}`,
    );
    lines.push('');
    lines.push(
      table(
        ['query', 'wall time (ms)', 'register calls'],
        b.runs.map((q) => [q.withSecurities ? 'titles + securities' : 'titles (summaries only)', q.ms.toFixed(0), calls(q.calls)]),
      ),
    );
    lines.push('');
    const withS = median(b.runs.filter((q) => q.withSecurities).map((q) => q.ms));
    const without = median(b.runs.filter((q) => !q.withSecurities).map((q) => q.ms));
    const z = b.atZeroLatency ?? [];
    const zero = (withSecurities: boolean) => {
      const v = median(z.filter((q) => q.withSecurities === withSecurities).map((q) => q.ms));
      return Number.isFinite(v) ? v.toFixed(0) : '?';
    };
    lines.push(
      `Summaries only ${without.toFixed(0)} ms, with securities ${withS.toFixed(0)} ms, against ${wave} ms of waiting; without latency ${zero(false)} and ${zero(true)} ms.`,
    );
    lines.push('');
    if (b.stream?.runs.length) {
      lines.push(
        `**@stream**: \`titles\` with \`@stream(initialCount: 0)\`, ${b.titles} new titles each run, read as multipart/mixed with meros.`,
      );
      lines.push('');
      lines.push(
        table(
          ['run', 'first title (ms)', 'whole page (ms)', 'parts'],
          b.stream.runs.map((q, i) => [i + 1, q.firstItemMs.toFixed(0), q.totalMs.toFixed(0), q.parts]),
        ),
      );
      lines.push('');
    }
  }
  if (r.apqFlood) lines.push(...apqFloodSection(r.apqFlood));
  if (r.spendCpu) lines.push(...spendCpuSection(r.spendCpu));
  if (r.streaming) lines.push(...streamingSection(r.streaming));
  if (r.peer) {
    lines.push('## 6. The peer: GraphQL Mesh + Hive Gateway');
    lines.push('');
    if (!r.peer.available) {
      lines.push(`Not measured: ${r.peer.error}`);
    } else {
      lines.push(
        `bench/peers, Mesh Compose over the emulator's OpenAPI, served by Hive Gateway in one process. ${how('The Mesh and Hive Gateway peer')}`,
      );
      if (r.streaming?.peer) {
        const p = r.streaming.peer;
        lines.push('');
        lines.push(
          `**PDF download** (\`downloadPlan\`, 50 MB): HTTP ${p.status}, ${mb(p.responseBytes)} of JSON after ${p.seconds.toFixed(1)} s, RSS +${mb(p.rssGrowth)} (peak ${mb(p.rssPeak)}): ${p.outcome}. ` +
            `Ours: ${median(r.streaming.runs.map((q) => q.serviceMBps)).toFixed(0)} MB/s, RSS at most +${mb(Math.max(...r.streaming.runs.map((q) => q.serviceRssGrowth)))}.`,
        );
      }
    }
    lines.push('');
  }
  if (r.apolloPeer) {
    lines.push('## 7. The second peer: Apollo Server 5 + `@apollo/datasource-rest`');
    lines.push('');
    if (!r.apolloPeer.available) {
      lines.push(`Not measured: ${r.apolloPeer.error}`);
    } else {
      lines.push(`\`bench/peers/apollo-peer.mjs\`, written as Apollo's docs show, one process. ${how('The Apollo Server peer')}`);
      const tp = r.throughput;
      if (tp?.[OURS] && tp[APOLLO]) {
        const ours = cpuPerRequest(tp, OURS, 'service');
        const theirs = cpuPerRequest(tp, APOLLO, 'apollo');
        lines.push('');
        lines.push(
          `CPU per \`title\` request: ours ${ours.toFixed(3)} ms, the Apollo peer's ${theirs.toFixed(3)} ms (${(ours / theirs).toFixed(2)}×); the emulator's ${cpuPerRequest(tp, OURS, 'emulator').toFixed(3)} vs ${cpuPerRequest(tp, APOLLO, 'emulator').toFixed(3)} ms. ` +
            `Throughput ${mean(tp[OURS].map((q) => q.rps)).toFixed(0)} vs ${mean(tp[APOLLO].map((q) => q.rps)).toFixed(0)} req/s.`,
        );
      }
    }
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

function baselineRows(t: NonNullable<Results['throughput']>): string[][] {
  const rows: string[][] = [];
  for (const [a, b] of [
    [OURS, APOLLO],
    [BASELINE, APOLLO],
    [OURS, BASELINE],
  ] as const) {
    if (!t[a] || !t[b]) continue;
    const cpu = cpuRoundRatios(t, a, b);
    rows.push([`${a} ÷ ${b}`, median(cpu).toFixed(2), cpu.map((v) => v.toFixed(2)).join(', '), median(roundRatios(t, a, b)).toFixed(2)]);
  }
  return rows;
}

function sideBySideSection(sbs: NonNullable<Results['sideBySide']>): string[] {
  const names = Object.keys(sbs.rounds[0] ?? {});
  const pairs = (
    [
      [OURS, APOLLO],
      [BASELINE, APOLLO],
      [OURS, BASELINE],
    ] as const
  ).filter(([a, b]) => names.includes(a) && names.includes(b));
  return [
    '### CPU per request, loaded at the same time',
    '',
    `${names.join(', ')} loaded at the same time, ${sbs.connections} connections each, ${sbs.rounds.length} rounds; the goal of 0.7 is judged here. ${how('Loaded at the same time')}`,
    '',
    table(
      ['round', ...names.map((n) => `${n} CPU µs/req (req/s)`), ...pairs.map(([a, b]) => `${a} ÷ ${b}`)],
      sbs.rounds.map((q, i) => [
        String(i + 1),
        ...names.map((n) => `${(q[n]!.cpuMsPerRequest * 1000).toFixed(0)} (${q[n]!.rps.toFixed(0)})`),
        ...pairs.map(([a, b]) => (q[a]!.cpuMsPerRequest / q[b]!.cpuMsPerRequest).toFixed(2)),
      ]),
    ),
    '',
    `Medians: ${pairs.map(([a, b]) => `${a} ÷ ${b} ${median(sideBySideRatios(sbs, a, b)).toFixed(2)}`).join('; ')}.`,
    '',
  ];
}

function gatewaysSection(g: NonNullable<Results['gateways']>): string[] {
  const direct = median((g.rounds.direct ?? []).map((q) => q.cpuMsPerRequest.service ?? NaN));
  const rows = Object.entries(g.rounds).map(([target, rounds]) => {
    const gateway = GATEWAYS.find(([t]) => t === target)?.[1];
    const service = median(rounds.map((q) => q.cpuMsPerRequest.service ?? NaN));
    const own = gateway ? median(rounds.map((q) => q.cpuMsPerRequest[gateway] ?? NaN)) : 0;
    return [
      target,
      rounds.map((q) => q.rps.toFixed(0)).join(', '),
      `${rounds.reduce((a, q) => a + q.non2xx, 0)} / ${rounds.reduce((a, q) => a + q.errors, 0)}`,
      service.toFixed(3),
      gateway ? own.toFixed(3) : '—',
      (service + own).toFixed(3),
      ((service + own) / direct).toFixed(2),
    ];
  });
  return [
    '## 2b. Through federation gateways',
    '',
    `The same \`title\` straight to the service and through each gateway (bench/gateway.ts), rounds interleaved. ${how('Through federation gateways')}`,
    '',
    table(['target', 'req/s per round', 'non-2xx / errors', 'service CPU ms/req', 'gateway CPU ms/req', 'total', '× direct'], rows),
    '',
  ];
}

function profileVsBaselineSection(p: SideBySideProfile): string[] {
  const [a, b] = p.services;
  if (!a || !b) return [];
  // A function's key is its name, a tab, and where it is: the name is code, the place is not.
  const asFunction = (k: string) => `\`${k.slice(0, k.indexOf('\t'))}\` ${k.slice(k.indexOf('\t') + 1)}`;
  const rows = (x: Record<string, number>, y: Record<string, number>, n: number, label = (k: string) => k) =>
    largestDifferences(x, y, n).map(([k, u, v]) => [label(k), u.toFixed(1), v.toFixed(1), `${u - v >= 0 ? '+' : ''}${(u - v).toFixed(1)}`]);
  return [
    `### \`title\` against the ${b.name}, profiled side by side`,
    '',
    `Busy µs per request under the profiler, both loaded at once: ${a.name} ${a.busyUs.toFixed(0)} (${a.rps.toFixed(0)} req/s), ${b.name} ${b.busyUs.toFixed(0)} (${b.rps.toFixed(0)} req/s). Self time, the rows that differ most.`,
    '',
    table(['package / part', a.name, b.name, 'difference'], rows(a.packages, b.packages, 14)),
    '',
    table(['function', a.name, b.name, 'difference'], rows(a.functions, b.functions, 20, asFunction)),
    '',
  ];
}

function streamingSection(s: NonNullable<Results['streaming']>): string[] {
  const cpu = (c: Record<string, number> | undefined, k: string) => (c?.[k] !== undefined ? c[k]!.toFixed(0) : '?');
  const lines = [
    '## 5. Streaming',
    '',
    `The 50 MB plan of LAN50, direct, through the service and through a bare Node relay, in turn; the same bytes (sha256 ${s.sha256.slice(0, 16)}…). ${how('Streaming')}`,
    '',
    table(
      [
        'run',
        'direct MB/s',
        'service MB/s',
        'ratio',
        'bare relay MB/s',
        'bare relay ratio',
        'service RSS before',
        'peak',
        'growth',
        'CPU ms direct: emulator / client',
        'CPU ms via service: emulator / service / client',
        'CPU ms via bare relay: emulator / relay / client',
      ],
      s.runs.map((q, i) => [
        i + 1,
        q.directMBps.toFixed(0),
        q.serviceMBps.toFixed(0),
        (q.serviceMBps / q.directMBps).toFixed(2),
        q.relayMBps.toFixed(0),
        (q.relayMBps / q.directMBps).toFixed(2),
        mb(q.serviceRssBaseline),
        mb(q.serviceRssPeak),
        mb(q.serviceRssGrowth),
        `${cpu(q.directCpuMs, 'emulator')} / ${cpu(q.directCpuMs, 'client')}`,
        `${cpu(q.serviceCpuMs, 'emulator')} / ${cpu(q.serviceCpuMs, 'service')} / ${cpu(q.serviceCpuMs, 'client')}`,
        `${cpu(q.relayCpuMs, 'emulator')} / ${cpu(q.relayCpuMs, 'relay')} / ${cpu(q.relayCpuMs, 'client')}`,
      ]),
    ),
    '',
  ];
  const svcCpu = median(s.runs.map((q) => q.serviceCpuMs?.service ?? NaN));
  const svcMBps = median(s.runs.map((q) => q.serviceMBps));
  if (Number.isFinite(svcCpu)) {
    lines.push(
      `Medians: 50 MB cost the service ${svcCpu.toFixed(0)} ms of CPU, the bare relay ${median(s.runs.map((q) => q.relayCpuMs.relay ?? NaN)).toFixed(0)} ms, the emulator direct ${median(s.runs.map((q) => q.directCpuMs?.emulator ?? NaN)).toFixed(0)} ms; ` +
        `the service reaches ${median(s.runs.map((q) => q.serviceMBps / q.relayMBps)).toFixed(2)} of the bare relay, ${svcMBps.toFixed(0)} MB/s = ${((svcMBps * 8) / 1000).toFixed(1)} Gbit/s.`,
      '',
    );
  }
  const d = s.diagnosis;
  if (d?.runs.length) {
    const dCpu = median(d.runs.map((q) => q.serviceCpuMs ?? NaN));
    lines.push(
      `With \`${d.nodeArgs.join(' ')}\`: RSS growth ${d.runs.map((q) => mb(q.rssGrowth)).join(', ')} at ${d.runs.map((q) => q.mbPerS.toFixed(0)).join(', ')} MB/s${Number.isFinite(dCpu) ? `, ${dCpu.toFixed(0)} ms of service CPU per download` : ''}.`,
      '',
    );
  }
  return lines;
}

function spendCpuSection(c: SpendCpuResult): string[] {
  return [
    '## 4c. What spend control costs a purchase',
    '',
    `The same purchase load on a service without spending limits and one with them, in turn, ${c.rounds.length} rounds; goal: at most 5 % more CPU. ${how('What spend control costs a purchase')}`,
    '',
    table(
      ['round', 'without limits (ms CPU/purchase)', 'with limits (ms CPU/purchase)', 'ratio'],
      c.rounds.map((q, i) => [i + 1, q.off.toFixed(3), q.on.toFixed(3), (q.on / q.off).toFixed(3)]),
    ),
    '',
    `Median ratio ${c.ratio.toFixed(3)} (${((c.ratio - 1) * 100).toFixed(1)} %): ${c.ratio <= 1.05 ? 'within' : 'above'} the 5 % goal. Purchases answered: ${c.requests.off} without, ${c.requests.on} with; non-2xx or failed: ${c.errors.off} and ${c.errors.on}.`,
    '',
  ];
}

function apqFloodSection(a: ApqFloodResult): string[] {
  const ms = (x: number) => x.toFixed(2);
  return [
    '## 4b. Persisted queries under a registration flood',
    '',
    `A caller's persisted query by hash, one request at a time, quiet and then during each flood of new registrations (8 connections). ${how('Persisted queries under a registration flood')}`,
    '',
    table(
      ['victim APQ hits', 'n', 'p50 (ms)', 'p99 (ms)', 'flood (req/s)', 'flood answers'],
      [
        ['quiet', a.baseline.n, ms(a.baseline.p50), ms(a.baseline.p99), '', ''],
        ...a.floods.map((f) => [
          `during: ${f.name}`,
          f.during.n,
          ms(f.during.p50),
          ms(f.during.p99),
          f.rps.toFixed(0),
          Object.entries(f.statuses)
            .map(([code, n]) => `${code}: ${n}`)
            .join(', '),
        ]),
      ],
    ),
    '',
  ];
}

/** Writes the report; a partial run (--only) writes to bench/.logs/ and leaves the committed files alone. */
export function writeReport(r: Results, benchDir: string, opts: { partial: boolean }): string[] {
  const dir = opts.partial ? LOG_DIR : benchDir;
  mkdirSync(dir, { recursive: true });
  const gs = goals(r);
  const files = [join(dir, 'results.json'), join(dir, 'RESULTS.md'), join(dir, 'chart.svg')];
  writeFileSync(files[0]!, `${JSON.stringify({ ...r, goals: gs }, null, 2)}\n`);
  // The sections the separate benches wrote stay, so that a full run does not lose their figures.
  const previous = existsSync(files[1]!) ? readFileSync(files[1]!, 'utf8') : undefined;
  writeFileSync(files[1]!, keepingSeparateSections(previous, markdown(r, gs)));
  writeFileSync(files[2]!, chart(r));
  return files;
}
