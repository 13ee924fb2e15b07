/**
 * What an operator on call reads: the log and /metrics of a service that callers without a key
 * can reach (as in production, where no request acts as a dev tenant). Health checks do not
 * bury the log, a body that is not JSON is one quiet line, keyless traffic cannot use up the
 * operation-name labels, the scrape passes promtool, and outcomes say what happened.
 * Run by the `system` and the `production` vitest projects.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, onTestFinished, test } from 'vitest';
import { logServiceEvents } from '../../src/observability/logging';
import { CreateCaseMutation } from '../support/documents';
import { authHeader, serviceForTest, httpServiceForTest } from '../support/harness';
import { memoryLogger } from '../support/memory-logger';
import { postRaw } from '../support/post-raw';
import { IN_CI } from '../support/pg';
import { parseMetrics, sum } from '../support/prometheus';

/** Callers as a production start has them: a request without a key acts as nobody. */
const PRODUCTION_CALLERS = { anonymousKey: undefined };

const CASE = { contactEmail: 'cases@example.test', contactTelephone: '0131 496 0000' };
const INFO = 30;
const DEBUG = 20;

describe('the log', () => {
  test('health checks are logged at debug, not info; a GraphQL request still at info', async () => {
    const { logger, lines } = memoryLogger('debug');
    const svc = await serviceForTest({ services: PRODUCTION_CALLERS, app: { logger } });
    for (const path of ['/health', '/ready', '/health']) expect((await svc.get(path, null)).status).toBe(200);
    const graphql = await postRaw(svc.yoga, { query: '{ __typename }' }, { accept: null, authorization: null });
    expect(graphql.status).toBe(401);

    const requests = lines.filter((l) => l.msg === 'request');
    const probes = requests.filter((l) => l.path === '/health' || l.path === '/ready');
    expect(probes.map((l) => [l.path, l.level])).toEqual([
      ['/health', DEBUG],
      ['/ready', DEBUG],
      ['/health', DEBUG],
    ]);
    expect(requests.find((l) => l.path === '/graphql')?.level).toBe(INFO);

    // At the default level (info) a drill's probes write nothing at all.
    const quiet = memoryLogger('info');
    const other = await serviceForTest({ services: PRODUCTION_CALLERS, app: { logger: quiet.logger } });
    for (let i = 0; i < 20; i++) await other.get(i % 2 ? '/health' : '/ready', null);
    expect(quiet.lines.filter((l) => l.path === '/health' || l.path === '/ready')).toEqual([]);
  });

  test("Yoga's own steps are logged at debug, and at info not at all", async () => {
    const yogaSteps = async (level: 'debug' | 'info') => {
      const { logger, lines } = memoryLogger(level);
      const svc = await serviceForTest({ app: { logger } });
      expect((await postRaw(svc.yoga, { query: '{ __typename }' }, authHeader('dev-key-a'))).status).toBe(200);
      return lines.filter((l) => l.yoga !== undefined).map((l) => [l.level, l.yoga]);
    };
    expect(await yogaSteps('debug')).toEqual(
      expect.arrayContaining([
        [DEBUG, ['Parsing request to extract GraphQL parameters']],
        [DEBUG, ['Processing GraphQL Parameters']],
        [DEBUG, ['Processing GraphQL Parameters done.']],
      ]),
    );
    expect(await yogaSteps('info')).toEqual([]);
  });

  test('a body that is not JSON is one info line without a stack (never error level); without a key it is not even read', async () => {
    const { logger, lines } = memoryLogger('debug');
    const svc = await serviceForTest({ services: PRODUCTION_CALLERS, app: { logger } });
    const send = (headers: Record<string, string | null>) =>
      postRaw(svc.yoga, '{"query": "{ title(titleNumber: \\"MID15313\\") { titleNumber } }", ', headers);
    // Credentials come first: without a key the body is refused unread.
    expect((await send({ authorization: null })).status).toBe(401);
    for (let i = 0; i < 3; i++) {
      const response = await send(authHeader('dev-key-a'));
      expect(response.status).toBe(400);
      expect(response.body.errors![0]!.message).toBe('POST body sent invalid JSON.');
    }
    const text = lines.map((l) => JSON.stringify(l)).join('\n');
    expect(text).not.toMatch(/stack|at createGraphQLError|node_modules/);
    expect(lines.filter((l) => (l.level as number) >= 50)).toEqual([]);
    const refusals = lines.filter((l) => l.msg === 'request refused');
    expect(refusals).toHaveLength(3); // one per request
    for (const refusal of refusals) expect(refusal).toMatchObject({ level: INFO, refusal: 'POST body sent invalid JSON.', status: 400 });
    // What the caller sent is not repeated.
    expect(text).not.toContain('MID15313');
  });
});

describe('/metrics', () => {
  test('callers without a valid key cannot use up the operation-name labels: a front end with a key is still counted by name', async () => {
    const svc = await httpServiceForTest({ services: PRODUCTION_CALLERS });
    // More distinct names than there are places (200), with no key and with a wrong one.
    for (let i = 0; i < 230; i++) {
      const answer = await postRaw(
        svc.url,
        { query: `query Probe${i} { __typename }` },
        i % 2 ? { authorization: 'Bearer not-a-key' } : { authorization: '' },
      );
      expect(answer.status).toBe(401);
    }
    const front = await postRaw(svc.url, { query: 'query FrontEndTitle { title(titleNumber: "MID15313") { titleNumber } }' });
    expect(front.body.errors).toBeUndefined();

    const samples = parseMetrics(await (await fetch(`${svc.origin}/metrics`)).text());
    const requests = 'titlegraph_graphql_requests_total';
    expect(sum(samples, requests, { operation: 'FrontEndTitle', type: 'query', outcome: 'ok' })).toBe(1);
    expect(sum(samples, requests, { operation: '__other' })).toBe(0);
    expect(sum(samples, requests, { operation: '__unauthenticated', outcome: 'error' })).toBe(230);
    expect(samples.some((s) => s.labels.operation?.startsWith('Probe'))).toBe(false);
  });

  test("one organisation cannot fill the operation-name places: another's new operation is still counted by name", async () => {
    const svc = await httpServiceForTest();
    // ORG-A (dev-key-a) sends more distinct names than its share (50 of 200).
    for (let i = 0; i < 60; i++) await postRaw(svc.url, { query: `query OrgA${i} { __typename }` }, authHeader('dev-key-a'));
    await postRaw(svc.url, { query: 'query OrgBTitle { __typename }' }, authHeader('dev-key-b'));
    await postRaw(svc.url, { query: 'query OrgA0 { __typename }' }, authHeader('dev-key-b'));

    const samples = parseMetrics(await (await fetch(`${svc.origin}/metrics`)).text());
    const requests = 'titlegraph_graphql_requests_total';
    expect(sum(samples, requests, { operation: 'OrgBTitle' })).toBe(1);
    expect(sum(samples, requests, { operation: '__other' })).toBe(10);
    expect(samples.filter((s) => s.name === requests && s.labels.operation?.startsWith('OrgA')).length).toBe(50);
    // A name already counted is counted for any organisation.
    expect(sum(samples, requests, { operation: 'OrgA0' })).toBe(2);
  });

  test('a createCase refused by the quota is counted as rate_limited, not executed, and was never sent', async () => {
    // One paid call a day: the first case is created, the second refused here before it is sent.
    const svc = await serviceForTest({ services: { ...PRODUCTION_CALLERS, quota: { dailyQuota: 1, freeShare: 0 } } });
    const { logger, lines } = memoryLogger('info');
    logServiceEvents(svc.services.events, logger);
    const input = (key: string) => ({ ...CASE, reference: 'Quota', titleNumbers: ['MID15313'], idempotencyKey: key });
    const first = await svc.gql(CreateCaseMutation, { fas: '1877', input: input('quota-case-1') });
    expect(first.data?.createCase.case?.id).toBeTruthy();
    const second = await svc.gql(CreateCaseMutation, { fas: '1877', input: input('quota-case-2') });
    expect(second.data?.createCase.userErrors.map((e) => e.code)).toEqual(['RATE_LIMITED']);
    expect(svc.emulator.calls.count({ route: 'createCase', method: 'POST' })).toBe(1);

    const samples = parseMetrics(await (await svc.get('/metrics')).text());
    const outcomes = 'titlegraph_idempotency_outcomes_total';
    expect(sum(samples, outcomes, { operation: 'createCase', outcome: 'executed' })).toBe(1);
    expect(sum(samples, outcomes, { operation: 'createCase', outcome: 'rate_limited' })).toBe(1);
    expect(lines.filter((l) => l.msg === 'idempotency')).toEqual([
      expect.objectContaining({ operation: 'createCase', outcome: 'rate_limited' }),
    ]);
  });

  test('a case the register refuses is counted as refused, not executed', async () => {
    const svc = await serviceForTest({ services: PRODUCTION_CALLERS });
    const refused = await svc.gql(CreateCaseMutation, {
      fas: '1877',
      input: { ...CASE, reference: 'Refused', titleNumbers: ['ZZZ999'], idempotencyKey: 'refused-case' },
    });
    expect(refused.data?.createCase.userErrors).toHaveLength(1);
    const samples = parseMetrics(await (await svc.get('/metrics')).text());
    expect(sum(samples, 'titlegraph_idempotency_outcomes_total', { operation: 'createCase', outcome: 'refused' })).toBe(1);
    expect(sum(samples, 'titlegraph_idempotency_outcomes_total', { operation: 'createCase', outcome: 'executed' })).toBe(0);
  });

  /** A scrape after traffic that fills every metric: queries, a purchase, a refusal, Node's own metrics. */
  async function fullScrape(): Promise<string> {
    const svc = await httpServiceForTest({ app: { observability: { metrics: { defaultMetrics: true } } } });
    await postRaw(svc.url, { query: 'query Lint { title(titleNumber: "MID15313") { titleNumber } }' });
    await postRaw(svc.url, {
      query:
        'mutation LintBuy { purchaseTitleDetails(fas: "0877", input: { titleNumber: "MID15313", idempotencyKey: "lint-1" }) { charges { fee } } }',
    });
    await postRaw(svc.url, { query: '{ title(' });
    await fetch(`${svc.origin}/downloads/nothing`);
    return (await fetch(`${svc.origin}/metrics`)).text();
  }

  test('the rules promtool checks: counters end in _total, nothing else does, every metric has help, money says one unit', async () => {
    const text = await fullScrape();
    const types = new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1]!, m[2]!]));
    const helps = new Map([...text.matchAll(/^# HELP (\S+) (.*)$/gm)].map((m) => [m[1]!, m[2]!]));
    expect(types.size).toBeGreaterThan(20);
    for (const [name, type] of types) {
      expect.soft(helps.get(name), `${name} has help`).toBeTruthy();
      expect.soft(name.endsWith('_total'), `${name} (${type}): _total only on counters`).toBe(type === 'counter');
      expect.soft(name, 'units by their base name').not.toMatch(/_(pounds|milliseconds|ms|minutes|hours|days|bits)(_|$)/);
    }
    const money = ['titlegraph_charge_fees_total', 'titlegraph_spend_charged_total', 'titlegraph_spend_reserved_gbp'];
    for (const name of money) expect(helps.get(name), name).toContain('before VAT, in pounds sterling (GBP)');
  });

  const promtool = spawnSync('promtool', ['--version']).status === 0;
  test.skipIf(!promtool && !IN_CI)(
    `promtool check metrics passes on a full scrape${promtool ? '' : ' (promtool is not installed)'}`,
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'titlegraph-promtool-'));
      onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
      const file = join(dir, 'metrics.txt');
      writeFileSync(file, await fullScrape());
      // promtool reads the scrape on stdin and prints each lint problem; exit 0 and nothing printed is a pass.
      const run = spawnSync('sh', ['-c', `promtool check metrics < "${file}" 2>&1`], { encoding: 'utf8' });
      expect({ status: run.status, output: run.stdout }).toEqual({ status: 0, output: '' });
    },
  );
});
