/**
 * Compiled answers equal interpreted answers (issue 31): every document of a corpus (lists, a
 * nested list, `_entities` with representations, fragments, inline fragments, aliases,
 * `@include`/`@skip` from variables) goes, once compiled, to a service that runs it with
 * graphql-jit and to one with GRAPHQL_JIT off, with the register failing for the item at each
 * list position (first, middle, last) and for none; the two response bodies must be the same
 * bytes. Each service has its own emulator, and both get the same requests and faults in the
 * same order.
 *
 * graphql-jit's list bug (src/server/jit.ts) showed only when items settle out of order, so the
 * faults are placed to make them:
 * - `cached`: summaries are cached per tenant, and every title but the failing one is asked for
 *   first, so the failing title is the one summary the register is called for: it fails after the
 *   others have settled (a failure pushed at the end made the list one long);
 * - `concurrent`: two register calls at a time, cache off. The first two titles' calls start
 *   together and both get the same slow (dripped) answer, whatever order they reach the emulator
 *   in; the last title's call starts when the first answers and meets the 500s, so it fails while
 *   the large MID15313 is still arriving (the list was one short: the bug seen in production).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startService, type Service, type ServiceOverrides } from '../support/harness';
import { parseMetrics, sum } from '../support/prometheus';
import { postRaw } from '../support/post-raw';

type Running = Service & { stop(): Promise<void> };
interface Pair {
  interpreted: Running;
  compiled: Running;
}
type Fault = Parameters<Service['emulator']['faults']['inject']>[1];

/** Retries that do not wait, and a breaker that never opens: these tests fail the register on purpose, again and again. */
const FAULT_TRANSPORT = { retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 2 }, breaker: { failureThreshold: 10_000, openMs: 100 } };
const SERVER_ERROR: Fault = { kind: 'status', status: 500 };
const MALFORMED: Fault = { kind: 'malformed' };

const representations = (titles: readonly string[]) => titles.map((titleNumber) => ({ __typename: 'Title', titleNumber }));

const CORPUS: { name: string; query: string; variables: (titles: readonly string[]) => Record<string, unknown> }[] = [
  {
    name: 'a list of titles',
    query: 'query Titles($ts: [TitleNumber!]!) { titles(titleNumbers: $ts) { titleNumber status titleType } }',
    variables: (ts) => ({ ts }),
  },
  {
    name: 'a nested list: titles → securities, and plans',
    query: `query Securities($ts: [TitleNumber!]!) {
      titles(titleNumbers: $ts) { titleNumber securities { id specification dateOfRegistration } plans { type description } }
    }`,
    variables: (ts) => ({ ts }),
  },
  {
    name: 'aliases, a fragment, an inline fragment, @include and @skip from variables',
    query: `query Page($ts: [TitleNumber!]!, $withPlans: Boolean!, $noStatus: Boolean!) {
      page: titles(titleNumbers: $ts) {
        ...Head
        number: titleNumber
        ... on Title { status @skip(if: $noStatus) kind: titleType plans @include(if: $withPlans) { description } }
        applications @skip(if: $withPlans) { applicationNumber }
      }
    }
    fragment Head on Title { __typename titleNumber searchSheet }`,
    variables: (ts) => ({ ts, withPlans: true, noStatus: true }),
  },
  {
    name: '_entities with representations, as a gateway sends them',
    query: `query Entities($representations: [_Any!]!) {
      _entities(representations: $representations) { __typename ... on Title { titleNumber status } }
    }`,
    variables: (ts) => ({ representations: representations(ts) }),
  },
  {
    name: '_entities with a fragment and nested lists',
    query: `query EntityDetail($representations: [_Any!]!) { _entities(representations: $representations) { ...Detail } }
    fragment Detail on Title { titleNumber securities { id } applications { applicationNumber type { code } } }`,
    variables: (ts) => ({ representations: representations(ts) }),
  },
  {
    name: 'two aliased lists of the same titles in one document',
    query: `query Both($ts: [TitleNumber!]!, $representations: [_Any!]!) {
      listed: titles(titleNumbers: $ts) { titleNumber }
      resolved: _entities(representations: $representations) { ... on Title { status } }
    }`,
    variables: (ts) => ({ ts, representations: representations(ts) }),
  },
];

/** Asks for titles once, so that the summary cache holds them. */
const PRIME = 'query Prime($ts: [TitleNumber!]!) { titles(titleNumbers: $ts) { titleNumber } }';

let cached: Pair;
let concurrent: Pair;

async function startPair(overrides: ServiceOverrides): Promise<Pair> {
  return {
    interpreted: await startService({ services: overrides, app: { jit: false } }),
    compiled: await startService({ services: overrides, app: { jit: { compileAfter: 1 } } }),
  };
}

beforeAll(async () => {
  cached = await startPair({ reads: { summaryCacheTtlMs: 600_000 }, transport: FAULT_TRANSPORT });
  concurrent = await startPair({ reads: { concurrency: 2, summaryCacheTtlMs: 0 }, transport: FAULT_TRANSPORT });
  // The priming document is compiled now, so that each corpus test counts only its own compilation.
  for (let i = 0; i < 2; i++) for (const svc of Object.values(cached)) await send(svc, PRIME, { ts: [nextTitle()] });
});
afterAll(async () => {
  for (const svc of [cached, concurrent].flatMap((pair) => (pair ? Object.values(pair) : []))) await svc.stop();
});

/** Titles no request has asked for yet (BLK1 … BLK5000 are generated on demand), so none is in a summary cache. */
let blk = 0;
function nextTitle(): string {
  blk += 1;
  return `BLK${blk}`;
}

async function send(svc: Service, query: string, variables: Record<string, unknown>): Promise<string> {
  const answer = await postRaw(svc.yoga, { query, variables });
  return `${answer.status} ${answer.text}`;
}

async function compiledDocuments(svc: Service): Promise<number> {
  const text = await (await svc.yoga.fetch('http://titlegraph.test/metrics')).text();
  return sum(parseMetrics(text), 'titlegraph_graphql_compilations_total', { outcome: 'compiled' });
}

/** The summaries the register was asked for since the calls were reset: title number and status of each. */
function summaryCalls(svc: Service): { titleNumber: string; status: number }[] {
  return svc.emulator.calls
    .list()
    .filter((call) => call.route === 'titleSummary')
    .map((call) => ({ titleNumber: /\/titles\/([^/]+)\/summary/.exec(call.path)![1]!, status: call.status }));
}

interface Run {
  titles: readonly string[];
  /** Which title fails (its index), if any. */
  failing?: number;
  /** Before the request, on each service: primes the cache, queues the faults. */
  arrange(svc: Service): Promise<void>;
  /** What the register was asked for, to show the faults met the failing title. */
  summariesAsked: (summaries: { titleNumber: string; status: number }[]) => void;
}

/** Runs one document on both services as `run` arranges, and checks that both answered alike and that the faults met the failing title. */
async function answerBoth(pair: Pair, doc: (typeof CORPUS)[number], run: Run): Promise<void> {
  const [interpreted, compiled] = await Promise.all(
    [pair.interpreted, pair.compiled].map(async (svc) => {
      await run.arrange(svc);
      try {
        return { body: await send(svc, doc.query, doc.variables(run.titles)), summaries: summaryCalls(svc) };
      } finally {
        svc.emulator.faults.clear();
      }
    }),
  );
  expect(compiled!.body).toBe(interpreted!.body);
  for (const { summaries } of [interpreted!, compiled!]) run.summariesAsked(summaries);

  const [status, text] = [compiled!.body.slice(0, 3), compiled!.body.slice(4)];
  expect(status).toBe('200');
  const body = JSON.parse(text) as { data: Record<string, unknown[]>; errors?: { path: (string | number)[] }[] };
  for (const list of Object.values(body.data)) expect(list).toHaveLength(run.titles.length);
  if (run.failing === undefined) {
    expect(body.errors).toBeUndefined();
    return;
  }
  // The failing item, and it alone, is null with its error(s); the register failed that title only.
  expect(body.errors?.length).toBeGreaterThan(0);
  for (const error of body.errors!) expect(error.path[1]).toBe(run.failing);
  for (const list of Object.values(body.data)) {
    expect(list.map((item) => item === null)).toEqual(run.titles.map((_, i) => i === run.failing));
  }
}

/** A run with no fault, on fresh titles: all three summaries come from the register. */
function cleanRun(titles: readonly string[] = [nextTitle(), nextTitle(), nextTitle()]): Run {
  return {
    titles,
    async arrange(svc) {
      svc.emulator.calls.reset();
    },
    summariesAsked(summaries) {
      expect(summaries.map((call) => call.titleNumber).sort()).toEqual([...titles].sort());
      expect(summaries.every((call) => call.status === 200)).toBe(true);
    },
  };
}

/** The `cached` pair: every title but the failing one asked for first, then the register fails the one it is called for. */
function cachedRun(failing: number, fault: Fault): Run {
  const titles = [nextTitle(), nextTitle(), nextTitle()];
  return {
    titles,
    failing,
    async arrange(svc) {
      expect(await send(svc, PRIME, { ts: titles.filter((_, i) => i !== failing) })).toMatch(/^200 /);
      svc.emulator.calls.reset();
      svc.emulator.faults.inject('titleSummary', fault, 50);
    },
    summariesAsked(summaries) {
      // The failing title's summary alone (each attempt), every one faulted: the others came from the cache.
      expect(summaries.length).toBeGreaterThan(0);
      expect(summaries.every((call) => call.titleNumber === titles[failing])).toBe(true);
    },
  };
}

/** The `concurrent` pair: the last title fails while the second still loads. */
const LAST_FAILS_FIRST: Run = {
  titles: ['GLA5001', 'MID15313', 'MID1234'],
  failing: 2,
  async arrange(svc) {
    svc.emulator.calls.reset();
    svc.emulator.faults.inject('titleSummary', { kind: 'drip', chunkBytes: 16, intervalMs: 2 }, 2);
    svc.emulator.faults.inject('titleSummary', SERVER_ERROR, 50);
  },
  summariesAsked(summaries) {
    // One dripped answer each for the first two, and every 500 for the last.
    const answered = summaries.filter((call) => call.status === 200).map((call) => call.titleNumber);
    expect(answered.sort()).toEqual(['GLA5001', 'MID15313']);
    const failed = summaries.filter((call) => call.status !== 200);
    expect(failed.length).toBeGreaterThan(0);
    expect(failed.every((call) => call.titleNumber === 'MID1234' && call.status === 500)).toBe(true);
  },
};

describe.each(CORPUS)('$name: compiled, the same bytes as graphql-js', (doc) => {
  test('with the register failing for the first, the middle, the last title, or none', async () => {
    const before = await compiledDocuments(cached.compiled);
    await answerBoth(cached, doc, cleanRun()); // the compiled service's first run: it compiles from the next
    await answerBoth(cached, doc, cleanRun());
    await answerBoth(cached, doc, cachedRun(0, SERVER_ERROR));
    await answerBoth(cached, doc, cachedRun(1, MALFORMED));
    await answerBoth(cached, doc, cachedRun(2, SERVER_ERROR));
    expect(await compiledDocuments(cached.compiled)).toBe(before + 1);
  });

  test('with the last title failing while an earlier one is still loading', async () => {
    const before = await compiledDocuments(concurrent.compiled);
    await answerBoth(concurrent, doc, cleanRun(LAST_FAILS_FIRST.titles));
    await answerBoth(concurrent, doc, LAST_FAILS_FIRST);
    expect(await compiledDocuments(concurrent.compiled)).toBe(before + 1);
  });
});
