/**
 * `npm run bench:token`: what a signed-in person costs against an API key, and what a forged
 * token costs. One production start of the service trusts a local identity provider (its
 * discovery document and key set served here, on loopback, keys made by jose); the same `title`
 * query is sent with `Bearer dev-key-a`, with a person's JWT access token, and with a forged one
 * (signed by a key the provider never published, under its published `kid`: refused 401 after a
 * signature check, every time), in rounds whose order turns, and the service's CPU per request
 * (/proc) is compared within each round. Goal (issue 32): a token costs at most 5 % more than a key.
 * Reported: the ratio of the medians, and the interval of the per-round ratios' median (sign
 * test), said to be undecided when it spans the goal.
 * Puts its figures in bench/RESULTS.md under "Sign-in tokens against API keys", in place of its last ones.
 */
import { DEFAULT_TOKEN_FAILURES_PER_MINUTE } from '../src/services/settings';
import { createServer } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { probe, throughput, type Target } from './lib/load';
import { BENCH_TENANTS, cpuMs, killAll, startEmulatorProcess, startService } from './lib/procs';
import { putSectionInResults } from './lib/report';
import { median, medianInterval } from './lib/stats';
import { SEPARATE_BENCH_HEADINGS } from './lib/results-sections';

const ROUNDS = Number(/--rounds=(\d+)/.exec(process.argv.join(' '))?.[1] ?? 6);
const SECONDS = Number(/--seconds=(\d+)/.exec(process.argv.join(' '))?.[1] ?? 5);
const CONNECTIONS = 16;

async function identityProvider() {
  const { publicKey, privateKey } = await generateKeyPair('ES256');
  const jwk = { ...(await exportJWK(publicKey)), kid: 'bench-key', alg: 'ES256', use: 'sig' };
  let issuer = '';
  const server = createServer((req, res) => {
    res.setHeader('content-type', 'application/json');
    if (req.url === '/.well-known/openid-configuration') res.end(JSON.stringify({ issuer, jwks_uri: `${issuer}/jwks` }));
    else if (req.url === '/jwks') res.end(JSON.stringify({ keys: [jwk] }));
    else res.writeHead(404).end('{}');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const sign = (key: CryptoKey) =>
    new SignJWT({ scope: 'titles:read titles:buy charges:read', name: 'Ann Bench' })
      .setProtectedHeader({ alg: 'ES256', kid: 'bench-key', typ: 'at+jwt' })
      .setIssuer(issuer)
      .setAudience('titlegraph')
      .setSubject('ann-bench')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(key);
  const token = await sign(privateKey);
  const forged = await sign((await generateKeyPair('ES256')).privateKey);
  return { issuer, token, forged, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

async function main() {
  const idp = await identityProvider();
  const work = mkdtempSync(join(tmpdir(), 'titlegraph-token-bench-'));
  const tenantsFile = join(work, 'tenants.json');
  writeFileSync(
    tenantsFile,
    JSON.stringify({
      tenants: BENCH_TENANTS,
      identityProviders: [
        {
          name: 'bench-sso',
          issuer: idp.issuer,
          audience: 'titlegraph',
          organisation: 'ORG-A',
          clientId: 'client-a',
          clientSecret: 'secret-a',
        },
      ],
    }),
  );
  const emulator = await startEmulatorProcess();
  // The forged rounds measure what one check costs: the budget that bounds them per address is lifted here.
  const service = await startService('token-vs-key', emulator.url, {
    TITLEGRAPH_TENANTS_FILE: tenantsFile,
    TOKEN_FAILURES_PER_MINUTE: '100000',
  });
  const body = JSON.stringify({ query: '{ title(titleNumber: "MID15313") { titleNumber status } }' });
  const target = (name: string, credential: string, status = 200): Target => ({
    name,
    url: `${service.base}/graphql`,
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${credential}` },
    body,
    check(answered, text) {
      if (answered !== status || (status === 200 && !text.includes('MID15313')))
        throw new Error(`${name}: ${answered} ${text.slice(0, 300)}`);
    },
  });
  const key = target('API key', 'dev-key-a');
  const token = target('sign-in token', idp.token);
  const forged = target('forged token', idp.forged, 401);
  const targets = [key, token, forged];
  try {
    // Every credential must be answered as expected before anything is timed.
    for (const t of targets) {
      await probe(t);
      await throughput(t, CONNECTIONS, 2);
    }
    const perRequest = new Map<Target, number[]>(targets.map((t) => [t, []]));
    for (let round = 0; round < ROUNDS; round++) {
      // The order turns each round, so a drift of the host's load falls on each alike.
      const order = targets.map((_, i) => targets[(i + round) % targets.length]!);
      for (const t of order) {
        const before = cpuMs(service.pid);
        const run = await throughput(t, CONNECTIONS, SECONDS);
        const unexpected = t === forged ? run.requests - run.non2xx : run.non2xx;
        if (unexpected || run.errors) throw new Error(`${t.name}: ${unexpected} unexpected statuses, ${run.errors} errors`);
        perRequest.get(t)!.push((cpuMs(service.pid) - before) / run.requests);
      }
    }
    const cpu = (t: Target) => perRequest.get(t)!;
    /** One row comparing `t` with the key: the ratio of medians, and the interval of the per-round ratios' median. */
    const against = (t: Target, goal?: number) => {
      const ratios = cpu(t).map((ms, round) => ms / cpu(key)[round]!);
      const interval = medianInterval(ratios);
      const ratio = median(cpu(t)) / median(cpu(key));
      const range = `${interval.low.toFixed(3)}–${interval.high.toFixed(3)} (${(interval.confidence * 100).toFixed(1)} %)`;
      let verdict = '';
      if (goal !== undefined) {
        if (interval.high <= goal) verdict = `≤ ${goal}: **met**`;
        else if (interval.low > goal) verdict = `≤ ${goal}: **not met**`;
        else verdict = `≤ ${goal}: **undecided**: the interval spans the goal; more rounds (--rounds) narrow it`;
      }
      return `| ${t.name} ÷ API key | ${ratio.toFixed(3)} | ${range} | ${ratios.map((r) => r.toFixed(2)).join(', ')} | ${verdict} |`;
    };
    const report = [
      '',
      `${SEPARATE_BENCH_HEADINGS.token} (${new Date().toISOString().slice(0, 10)}, \`npm run bench:token\`)`,
      '',
      `The same \`title\` query, ${CONNECTIONS} connections, ${ROUNDS} rounds of ${SECONDS} s per credential in turning order, production start. The token is an ES256 JWT access token of a provider the tenants file lists (verified once, then kept for TOKEN_RECHECK_SECONDS); the forged one is signed by another key under the provider's published \`kid\`, so each request costs a signature check and is refused 401.`,
      '',
      '| service CPU per request (median) | ms |',
      '|---|---|',
      ...targets.map((t) => `| ${t.name} | ${median(cpu(t)).toFixed(3)} |`),
      '',
      '| comparison | ratio of medians | interval of the per-round ratio (confidence) | per-round ratios | goal |',
      '|---|---|---|---|---|',
      against(token, 1.05),
      against(forged),
      '',
      `With the default TOKEN_FAILURES_PER_MINUTE (${DEFAULT_TOKEN_FAILURES_PER_MINUTE}), one address can make this service check at most ${DEFAULT_TOKEN_FAILURES_PER_MINUTE} forged tokens a minute: ${((DEFAULT_TOKEN_FAILURES_PER_MINUTE * median(cpu(forged))) / 60).toFixed(2)} ms of CPU a second, ${((DEFAULT_TOKEN_FAILURES_PER_MINUTE * median(cpu(forged))) / 600).toFixed(3)} % of a core; past it, its unverified tokens are refused before any check.`,
      '',
    ].join('\n');
    putSectionInResults(report);
  } finally {
    await service.stop();
    await emulator.stop();
    await idp.close();
    killAll();
  }
}

await main();
