/**
 * `npm run bench:token`: what a signed-in person costs against an API key. One production start
 * of the service trusts a local identity provider (its discovery document and key set served
 * here, on loopback, keys made by jose); the same `title` query is sent with `Bearer dev-key-a`
 * and with a person's JWT access token, in alternating rounds, and the service's CPU per request
 * (/proc) is compared within each pair of rounds. Goal (issue 32): a token costs at most 5 % more.
 * Puts its figures in bench/RESULTS.md under "Sign-in tokens against API keys", in place of its last ones.
 */
import { createServer } from 'node:http';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { throughput, type Target } from './lib/load';
import { BENCH_TENANTS, cpuMs, killAll, startEmulatorProcess, startService } from './lib/procs';
import { median, putSectionInResults } from './lib/report';
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
  const token = await new SignJWT({ scope: 'titles:read titles:buy charges:read', name: 'Ann Bench' })
    .setProtectedHeader({ alg: 'ES256', kid: 'bench-key', typ: 'at+jwt' })
    .setIssuer(issuer)
    .setAudience('titlegraph')
    .setSubject('ann-bench')
    .setIssuedAt()
    .setExpirationTime('2h')
    .sign(privateKey);
  return { issuer, token, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
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
  const service = await startService('token-vs-key', emulator.url, { TITLEGRAPH_TENANTS_FILE: tenantsFile });
  const body = JSON.stringify({ query: '{ title(titleNumber: "MID15313") { titleNumber status } }' });
  const target = (name: string, credential: string): Target => ({
    name,
    url: `${service.base}/graphql`,
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${credential}` },
    body,
  });
  const key = target('API key', 'dev-key-a');
  const token = target('sign-in token', idp.token);
  try {
    // Both credentials must work before anything is timed.
    for (const t of [key, token]) {
      const response = await fetch(t.url, { method: 'POST', headers: t.headers, body: t.body });
      const text = await response.text();
      if (response.status !== 200 || !text.includes('MID15313')) throw new Error(`${t.name}: ${response.status} ${text}`);
      await throughput(t, CONNECTIONS, 2);
    }
    const ratios: number[] = [];
    const perRequest = { key: [] as number[], token: [] as number[] };
    for (let round = 0; round < ROUNDS; round++) {
      // Alternate which goes first, so a drift of the host's load falls on both alike.
      const order = round % 2 ? [token, key] : [key, token];
      const measured = new Map<Target, number>();
      for (const t of order) {
        const before = cpuMs(service.pid);
        const run = await throughput(t, CONNECTIONS, SECONDS);
        if (run.non2xx || run.errors) throw new Error(`${t.name}: ${run.non2xx} non-2xx, ${run.errors} errors`);
        measured.set(t, (cpuMs(service.pid) - before) / run.requests);
      }
      perRequest.key.push(measured.get(key)!);
      perRequest.token.push(measured.get(token)!);
      ratios.push(measured.get(token)! / measured.get(key)!);
    }
    const ratio = median(ratios);
    const report = [
      '',
      `${SEPARATE_BENCH_HEADINGS.token} (${new Date().toISOString().slice(0, 10)}, \`npm run bench:token\`)`,
      '',
      `The same \`title\` query, ${CONNECTIONS} connections, ${ROUNDS} pairs of ${SECONDS} s rounds in alternating order, production start; the token is an ES256 JWT access token of a provider the tenants file lists (verified once, then kept until it expires).`,
      '',
      '| measure | result | goal |',
      '|---|---|---|',
      `| service CPU per request, API key (median) | ${median(perRequest.key).toFixed(3)} ms | |`,
      `| service CPU per request, sign-in token (median) | ${median(perRequest.token).toFixed(3)} ms | |`,
      `| token ÷ key, per pair of rounds (median; rounds: ${ratios.map((r) => r.toFixed(2)).join(', ')}) | ${ratio.toFixed(3)} | ≤ 1.05: ${ratio <= 1.05 ? '**met**' : '**not met**'} |`,
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
