/** Load generation: sequential latency (undici, µs resolution) and throughput (autocannon). */
import autocannon from 'autocannon';
import { Client, request } from 'undici';

export interface Target {
  name: string;
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
  /** Checks one response body; throws when it is not the expected answer. */
  check?(status: number, body: string): void;
}

/** A bearer token of the emulator's client `clientId`: what the peers, which have no callers of their own, send to the register. */
export async function registerToken(registerUrl: string, clientId = 'client-a', secret = 'secret-a'): Promise<string> {
  const res = await request(`${registerUrl}/oauth/token?grant_type=client_credentials`, {
    method: 'POST',
    headers: { authorization: `Basic ${Buffer.from(`${clientId}:${secret}`).toString('base64')}` },
  });
  const body = (await res.body.json()) as { access_token: string };
  return body.access_token;
}

/** A GraphQL POST to a service as dev-key-a: the experiments' target. */
export function graphqlTarget(base: string, query: string, variables?: object): Target {
  return {
    name: query,
    url: `${base}/graphql`,
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: 'Bearer dev-key-a' },
    body: JSON.stringify({ query, variables }),
  };
}

/** Sends every query once to each service (probed, so a broken target fails loudly), then loads each for `seconds`: warm V8 and caches. */
export async function warmUp(
  bases: readonly string[],
  queries: readonly (readonly [string, string, object | undefined])[],
  seconds: number,
): Promise<void> {
  for (const base of bases) {
    for (const [, query, variables] of queries) {
      await probe(graphqlTarget(base, query, variables));
      await throughput(graphqlTarget(base, query, variables), 16, seconds);
    }
  }
}

/** Sends one request and checks the answer (before measuring, so a broken target fails loudly). */
export async function probe(t: Target): Promise<string> {
  const res = await request(t.url, { method: t.method, headers: t.headers, body: t.body });
  const text = await res.body.text();
  if (t.check) t.check(res.statusCode, text);
  else if (res.statusCode !== 200) throw new Error(`${t.name}: HTTP ${res.statusCode}: ${text.slice(0, 300)}`);
  return text;
}

export interface LatencyStats {
  n: number;
  p50: number;
  p90: number;
  p99: number;
  mean: number;
  min: number;
}

export function stats(samples: number[]): LatencyStats {
  const s = [...samples].sort((a, b) => a - b);
  const q = (p: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))]!;
  return { n: s.length, p50: q(0.5), p90: q(0.9), p99: q(0.99), mean: s.reduce((a, b) => a + b, 0) / s.length, min: s[0]! };
}

/**
 * One keep-alive connection per target, requests strictly sequential, targets interleaved
 * request by request (A, B, C, A, B, C, …) so that machine noise hits all of them alike.
 * Bounded by `maxRequests` per target and `maxMs` in all. Times in ms.
 */
export async function sequentialLatency(
  targets: Target[],
  opts: { warmup: number; maxRequests: number; maxMs: number },
): Promise<Record<string, LatencyStats>> {
  const clients = targets.map((t) => {
    const u = new URL(t.url);
    return {
      t,
      path: u.pathname + u.search,
      client: new Client(u.origin, { pipelining: 1, keepAliveTimeout: 30_000 }),
      samples: [] as number[],
    };
  });
  const once = async (c: (typeof clients)[number]) => {
    const start = process.hrtime.bigint();
    const res = await c.client.request({ path: c.path, method: c.t.method, headers: c.t.headers, body: c.t.body });
    const text = await res.body.text();
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (res.statusCode !== 200 || text.includes('"errors"')) throw new Error(`${c.t.name}: HTTP ${res.statusCode}: ${text.slice(0, 300)}`);
    return ms;
  };
  try {
    for (let i = 0; i < opts.warmup; i++) for (const c of clients) await once(c);
    const until = performance.now() + opts.maxMs;
    for (let i = 0; i < opts.maxRequests && performance.now() < until; i++) {
      for (const c of clients) c.samples.push(await once(c));
    }
  } finally {
    await Promise.all(clients.map((c) => c.client.close()));
  }
  return Object.fromEntries(clients.map((c) => [c.t.name, stats(c.samples)]));
}

export interface Throughput {
  requests: number;
  seconds: number;
  rps: number;
  non2xx: number;
  errors: number;
  latencyP50: number;
  latencyP99: number;
}

/** autocannon, programmatically: `connections` keep-alive connections for `seconds`. */
export async function throughput(t: Target, connections: number, seconds: number): Promise<Throughput> {
  const result = await autocannon({
    url: t.url,
    method: t.method,
    headers: t.headers,
    ...(t.body !== undefined ? { body: t.body } : {}),
    connections,
    pipelining: 1,
    duration: seconds,
    timeout: 10,
  });
  return {
    requests: result.requests.total,
    seconds: result.duration,
    rps: result.requests.total / result.duration,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    latencyP50: result.latency.p50,
    latencyP99: result.latency.p99,
  };
}
