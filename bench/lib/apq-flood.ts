/**
 * The persisted-query flood (issue 22 §2): how other callers' APQ hits fare while someone floods
 * the service with registrations. Two floods, each a separate measurement against the same
 * baseline: unauthenticated registrations (all refused before any store is touched) and an
 * authenticated client of another organisation registering a new document on every request
 * (bounded by APQ_REGISTRATIONS_PER_MINUTE and the per-organisation cap).
 */
import { createHash } from 'node:crypto';
import autocannon from 'autocannon';
import { Client } from 'undici';
import { stats, type LatencyStats } from './load';

export interface ApqFloodResult {
  /** The victim's hash-only APQ hits, sequential on one connection. */
  baseline: LatencyStats;
  floods: {
    name: string;
    /** Flood requests answered per second, and how they were answered. */
    rps: number;
    statuses: Record<string, number>;
    /** The victim's hits while the flood ran. */
    during: LatencyStats;
  }[];
}

const VICTIM_QUERY = 'query ApqVictim { __typename }';
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

function apqBody(query: string | undefined, hash: string): string {
  return JSON.stringify({
    ...(query !== undefined ? { query } : {}),
    extensions: { persistedQuery: { version: 1, sha256Hash: hash } },
  });
}

/** The victim registers its document once, then sends the hash alone, one request after another. */
async function victimHits(base: string, key: string, ms: number): Promise<LatencyStats> {
  const client = new Client(base, { pipelining: 1, keepAliveTimeout: 30_000 });
  const headers = { 'content-type': 'application/json', accept: 'application/json', authorization: `Bearer ${key}` };
  const hash = sha256(VICTIM_QUERY);
  const send = async (body: string) => {
    const started = process.hrtime.bigint();
    const res = await client.request({ path: '/graphql', method: 'POST', headers, body });
    const text = await res.body.text();
    if (res.statusCode !== 200 || text.includes('"errors"')) throw new Error(`APQ victim: HTTP ${res.statusCode}: ${text.slice(0, 300)}`);
    return Number(process.hrtime.bigint() - started) / 1e6;
  };
  try {
    await send(apqBody(VICTIM_QUERY, hash));
    const samples: number[] = [];
    const until = performance.now() + ms;
    while (performance.now() < until) samples.push(await send(apqBody(undefined, hash)));
    return stats(samples);
  } finally {
    await client.close();
  }
}

/** Every flood request registers a document never seen before, so no store can answer it from a cache. */
async function flood(base: string, authorization: string | undefined, seconds: number) {
  let n = 0;
  const result = await autocannon({
    url: `${base}/graphql`,
    method: 'POST',
    connections: 8,
    pipelining: 1,
    duration: seconds,
    timeout: 10,
    headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
    requests: [
      {
        setupRequest: (req: Record<string, unknown>) => {
          const query = `query Flood${n++}_${process.pid} { __typename }`;
          return { ...req, body: apqBody(query, sha256(query)) };
        },
      },
    ],
  });
  const statuses: Record<string, number> = {};
  for (const [code, count] of Object.entries(result.statusCodeStats ?? {})) statuses[code] = count.count;
  return { rps: result.requests.total / result.duration, statuses };
}

export async function apqFloodPhase(base: string, opts: { seconds: number }): Promise<ApqFloodResult> {
  const ms = opts.seconds * 1000;
  const baseline = await victimHits(base, 'dev-key-a', ms);
  const floods: ApqFloodResult['floods'] = [];
  for (const [name, authorization] of [
    ['no key (every request 401)', undefined],
    ['dev-key-b, another organisation, a new document each request', 'Bearer dev-key-b'],
  ] as const) {
    const [during, flooded] = await Promise.all([victimHits(base, 'dev-key-a', ms), flood(base, authorization, opts.seconds)]);
    floods.push({ name, rps: flooded.rps, statuses: flooded.statuses, during });
  }
  return { baseline, floods };
}
