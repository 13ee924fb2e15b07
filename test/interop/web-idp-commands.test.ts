/**
 * The README's "Try it locally: npm run idp" runs as written: its commands are the package's
 * scripts and settings, and as processes (the provider, titlegraph trusting it through
 * EMULATOR_IDENTITY_ISSUER, a token from `npm run idp:token`) they sign a person in: the token
 * makes titlegraph take the caller to be that person, with that person's scopes, and Ben's
 * purchase is refused FORBIDDEN with nothing sent. Ports are free ones instead of 4020 and 4000.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { type AddressInfo, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, test } from 'vitest';
import { DEFAULT_IDP_PORT } from '../../scripts/idp/defaults';
import { PEOPLE } from '../../scripts/idp/people';
import { type Child, EMBEDDED_ENV, ROOT, spawnTs } from '../support/processes';
import { authHeader } from '../support/harness';
import { postRaw } from '../support/post-raw';
import { docPage } from '../support/docs';

const readme = docPage('authentication');
const heading = '### Try it locally: npm run idp';
const start = readme.indexOf(heading);
const rest = readme.slice(start + heading.length);
/** Up to the next heading (a `#` line inside a code block is a comment, not a heading). */
const section = heading + rest.slice(0, rest.search(/\n#{1,3} [A-Z]/));
const shell = [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((m) => m[1]!).join('\n');
const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;

const children: Child[] = [];
const dataDir = mkdtempSync(join(tmpdir(), 'titlegraph-idp-commands-'));
let issuer: string;
let graphqlUrl: string;
/** The embedded emulator's origin: its call log is at /__control/calls (docs/emulator.md). */
let emulatorOrigin: string;

beforeAll(async () => {
  const idp = spawnTs('scripts/idp.ts', [], { IDP_PORT: '0' });
  children.push(idp);
  [, issuer] = (await idp.waitFor(/local OpenID Provider \(development only\) at (http:\/\/127\.0\.0\.1:\d+)$/, 60_000)) as [
    string,
    string,
  ];
  const service = spawnTs('src/start.ts', [], {
    ...EMBEDDED_ENV,
    PORT: '0',
    EMULATOR_PORT: '0',
    DATA_DIR: dataDir,
    EMULATOR_IDENTITY_ISSUER: issuer,
  });
  children.push(service);
  const [, port] = await service.waitFor(/"msg":"titlegraph: GraphQL at http:\/\/localhost:(\d+)\/graphql"/, 60_000);
  graphqlUrl = `http://127.0.0.1:${port}/graphql`;
  [, emulatorOrigin] = (await service.waitFor(/"msg":"register: embedded emulator at (http:\/\/[^"]+)\/v1"/)) as [string, string];
}, 120_000);

afterAll(async () => {
  for (const child of children.reverse()) await child.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** What `npm run -s idp:token -- <login>` prints: the person's access token and nothing else. */
async function idpToken(login: string): Promise<string> {
  const child = spawnTs('scripts/idp-token.ts', [login], { IDP_URL: issuer });
  children.push(child);
  const { code } = await child.exited;
  expect(code, child.output()).toBe(0);
  const output = child.output().trim();
  expect(output).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  return output;
}

test('the section names the scripts and settings as they are', () => {
  expect(start).toBeGreaterThan(0);
  expect(scripts.idp).toBe('exec tsx scripts/idp.ts');
  expect(scripts['idp:token']).toBe('tsx scripts/idp-token.ts');
  const at = `http://127.0.0.1:${DEFAULT_IDP_PORT}`;
  expect(shell).toContain('npm run idp');
  expect(shell).toContain(`EMULATOR_IDENTITY_ISSUER=${at} npm start`);
  expect(shell).toContain(`VITE_OIDC_AUTHORITY=${at} npm run example:web`);
  expect(shell).toContain('TOKEN=$(npm run -s idp:token -- ann)');
  for (const person of PEOPLE) {
    expect(section).toContain(
      `| \`${person.login}\` | \`${person.password}\` | ${person.name} | ${person.scopes.map((s) => `\`${s}\``).join(' ')} |`,
    );
  }
});

test('the provider, titlegraph trusting it, and idp:token: a person calls with their own token and scopes', {
  timeout: 120_000,
}, async () => {
  const ann = await idpToken('ann');
  const viewer = await postRaw(
    graphqlUrl,
    { query: '{ viewer { kind caller callerName apiClient organisation scopes } }' },
    authHeader(ann),
  );
  expect(viewer.body.errors).toBeUndefined();
  expect(viewer.body.data.viewer).toEqual({
    kind: 'PERSON',
    caller: 'ann',
    callerName: 'Ann Macleod',
    apiClient: 'client-a',
    organisation: 'ORG-A',
    scopes: ['titles:read', 'titles:buy', 'charges:read'],
  });

  const ben = await idpToken('ben');
  const calls = async () => ((await (await fetch(`${emulatorOrigin}/__control/calls`)).json()) as { calls: { route: string }[] }).calls;
  const before = (await calls()).length;
  const refused = await postRaw(
    graphqlUrl,
    {
      query:
        'mutation { purchaseTitleDetails(fas: "0877", input: { titleNumber: "MID1234", idempotencyKey: "idp-commands-ben" }) { charges { fee } } }',
    },
    authHeader(ben),
  );
  expect(refused.body.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  expect(refused.body.errors?.[0]?.message).toContain('titles:buy');
  // nothing reached the register
  expect((await calls()).length).toBe(before);
  const spending = await postRaw(graphqlUrl, { query: '{ spending { caller { charged } } }' }, authHeader(ben));
  expect(spending.body.data.spending.caller.charged).toBe('0.00');
});

test('idp:token says what went wrong: a redirect address the provider refuses, or a provider that is not running', {
  timeout: 60_000,
}, async () => {
  const refused = spawnTs('scripts/idp-token.ts', ['ann'], { IDP_URL: issuer, IDP_CLIENT_ORIGINS: 'http://localhost:5999' });
  children.push(refused);
  expect((await refused.exited).code).toBe(1);
  expect(refused.output()).toContain('does not take http://localhost:5999/ as a redirect address');
  expect(refused.output()).not.toContain('npm run idp` running');

  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', () => resolve()));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const nobody = spawnTs('scripts/idp-token.ts', ['ann'], { IDP_URL: `http://127.0.0.1:${port}` });
  children.push(nobody);
  expect((await nobody.exited).code).toBe(1);
  expect(nobody.output()).toContain('(is `npm run idp` running?)');
});
