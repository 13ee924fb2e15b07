/** Summarises a V8 .cpuprofile (node --cpu-prof): self time by function and by package; profiles two services side by side. */
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { graphqlTarget, probe, throughput } from './load';
import { type Emulator, LOG_DIR, startService } from './procs';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}
interface ProfileNode {
  id: number;
  callFrame: CallFrame;
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface ProfileSummary {
  /** Busy time (everything but idle), ms. */
  busyMs: number;
  byPackage: { name: string; ms: number; share: number }[];
  topFunctions: { name: string; where: string; ms: number; share: number }[];
}

/** Where a script belongs: an npm package, the project's own src/, node itself, or V8. */
export function packageOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (!url) {
    if (functionName === '(garbage collector)') return '(garbage collector)';
    if (functionName === '(program)') return '(program: native, outside JS)';
    if (functionName === '(idle)') return '(idle)';
    return `(native) ${functionName || 'anonymous'}`;
  }
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)/.exec(url);
  if (nm) return nm[1]!;
  if (url.startsWith('node:')) return `node:${url.slice(5).split('/')[0]}`;
  const src = /\/(src|bench)\/(.*)$/.exec(url);
  if (src) return `titlegraph ${src[1]}/${src[2]!.split('/')[0]}`;
  return url;
}

function shortWhere(frame: CallFrame): string {
  const { url, lineNumber } = frame;
  if (!url) return '';
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(?!.*node_modules\/)(.*)$/.exec(url);
  const path = nm ? `${nm[1]}/${nm[2]}` : url.replace(/^file:\/\/.*?\/(src|bench)\//, '$1/');
  return `${path}:${lineNumber + 1}`;
}

/**
 * Self time by package and by function, counting only the samples taken between `fromMs` and
 * `toMs` after the profile started (so start-up and module loading stay out of it).
 */
export function summariseProfile(file: string, top = 15, window: { fromMs?: number; toMs?: number } = {}): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map<number, number>();
  const from = (window.fromMs ?? 0) * 1000;
  const to = (window.toMs ?? Infinity) * 1000;
  // A sample's weight is the time to the next sample, capped at 4 sampling intervals: on a busy
  // machine a process can wait long for a core, and that wait is not its own CPU time.
  const sorted = [...profile.timeDeltas].filter((d) => d > 0).sort((a, b) => a - b);
  const cap = 4 * (sorted[sorted.length >> 1] ?? 1000);
  let t = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    if (t < from || t > to) continue;
    const dt = Math.min(cap, profile.timeDeltas[i + 1] ?? 0);
    self.set(profile.samples[i]!, (self.get(profile.samples[i]!) ?? 0) + dt);
  }
  const packages = new Map<string, number>();
  const functions = new Map<string, { name: string; where: string; us: number }>();
  let busy = 0;
  for (const [id, us] of self) {
    const frame = byId.get(id)!.callFrame;
    const pkg = packageOf(frame);
    if (pkg === '(idle)') continue;
    busy += us;
    packages.set(pkg, (packages.get(pkg) ?? 0) + us);
    const where = shortWhere(frame);
    const key = `${frame.functionName}|${where}`;
    const f = functions.get(key) ?? { name: frame.functionName || '(anonymous)', where: where || pkg, us: 0 };
    f.us += us;
    functions.set(key, f);
  }
  const share = (us: number) => (busy ? us / busy : 0);
  return {
    busyMs: busy / 1000,
    byPackage: [...packages].sort((a, b) => b[1] - a[1]).map(([name, us]) => ({ name, ms: us / 1000, share: share(us) })),
    topFunctions: [...functions.values()]
      .sort((a, b) => b.us - a.us)
      .slice(0, top)
      .map((f) => ({ name: f.name, where: f.where, ms: f.us / 1000, share: share(f.us) })),
  };
}

/** CPU µs per request by package and by function (self time; a function's key is its name, a tab, and where it is), for each service profiled side by side. */
export interface SideBySideProfile {
  query: string;
  services: { name: string; rps: number; busyUs: number; packages: Record<string, number>; functions: Record<string, number> }[];
}

/**
 * Each checkout's service under `node --cpu-prof`, all loaded at the same time (8 connections each,
 * the same query, one emulator): whatever else the machine does falls on all alike. Self time per
 * request by package and by function (`name<TAB>where`), over the loaded window only.
 */
export async function profileSideBySide(
  emu: Emulator,
  checkouts: readonly { name: string; root: string }[],
  query: string,
  variables: object | undefined,
  seconds: number,
): Promise<SideBySideProfile> {
  const dir = join(LOG_DIR, 'profiles-side-by-side');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const services = await Promise.all(
    checkouts.map(async ({ name, root }, i) => {
      const file = `${i}.cpuprofile`;
      const svc = await startService(`profile-${i}`, emu.url, {}, ['--cpu-prof', `--cpu-prof-dir=${dir}`, `--cpu-prof-name=${file}`], root);
      return { name, file, svc, target: graphqlTarget(svc.base, query, variables) };
    }),
  );
  try {
    for (const s of services) await probe(s.target);
    await Promise.all(services.map((s) => throughput(s.target, 8, 2)));
    const fromMs = services.map((s) => Date.now() - s.svc.spawnedAt);
    const runs = await Promise.all(services.map((s) => throughput(s.target, 8, seconds)));
    const toMs = services.map((s) => Date.now() - s.svc.spawnedAt);
    const out: SideBySideProfile = { query, services: [] };
    for (const [i, s] of services.entries()) {
      await s.svc.stop();
      if (!existsSync(join(dir, s.file))) throw new Error(`no profile written for ${s.name}`);
      const summary = summariseProfile(join(dir, s.file), 400, { fromMs: fromMs[i]!, toMs: toMs[i]! });
      const us = (ms: number) => (ms * 1000) / Math.max(1, runs[i]!.requests);
      out.services.push({
        name: s.name,
        rps: runs[i]!.rps,
        busyUs: us(summary.busyMs),
        packages: Object.fromEntries(summary.byPackage.map((p) => [p.name, us(p.ms)])),
        functions: Object.fromEntries(summary.topFunctions.map((f) => [`${f.name}\t${f.where}`, us(f.ms)])),
      });
    }
    return out;
  } finally {
    for (const s of services) await s.svc.stop();
  }
}

/** The rows that differ most between two services of a side-by-side profile: [key, a µs, b µs]. */
export function largestDifferences(a: Record<string, number>, b: Record<string, number>, n: number): [string, number, number][] {
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .map((k): [string, number, number] => [k, a[k] ?? 0, b[k] ?? 0])
    .sort((p, q) => Math.abs(q[1] - q[2]) - Math.abs(p[1] - p[2]))
    .slice(0, n);
}
