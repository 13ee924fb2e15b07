/**
 * The tenants file's identityProviders and EMULATOR_IDENTITY_ISSUER: read into what
 * createServices takes, and a provider this service could not trust safely stops the start,
 * naming it (an http issuer off loopback, in every mode, production included).
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, onTestFinished, test } from 'vitest';
import { loadConfig } from '../../src/config';
import { configFailure } from '../support/config-failure';
import { docPage } from '../support/docs';

const REGISTER = { REGISTER_BASE_URL: 'https://register.example/v1' };
const PROVIDER = {
  name: 'firm-a-sso',
  issuer: 'https://login.firm-a.example',
  audience: 'titlegraph',
  organisation: 'ORG-A',
  clientId: 'client-a',
  clientSecret: 'secret-a',
  dailySpendLimitPerPerson: '30.00',
};

function tenantsFile(content: unknown): string {
  const dir = mkdtempSync(join(tmpdir(), 'titlegraph-idp-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  const path = join(dir, 'tenants.json');
  writeFileSync(path, JSON.stringify(content));
  return path;
}

describe('identityProviders in the tenants file', () => {
  test('are read with their limit in pence; a file may list people only', () => {
    const config = loadConfig({ ...REGISTER, TITLEGRAPH_TENANTS_FILE: tenantsFile({ identityProviders: [PROVIDER] }) });
    expect(config.register!.identityProviders).toEqual([{ ...PROVIDER, dailySpendLimitPerPerson: 3000 }]);
    expect(config.register!.tenants).toEqual([]);
  });

  test("the README's example file is read as it stands", () => {
    const readme = docPage('authentication');
    const section = readme.slice(readme.indexOf('## Sign-in and scopes'));
    const example = /```json\n([\s\S]*?)```/.exec(section)![1]!;
    const config = loadConfig({ ...REGISTER, TITLEGRAPH_TENANTS_FILE: tenantsFile(JSON.parse(example)) });
    expect(config.register!.identityProviders).toEqual([
      { ...PROVIDER, clientSecret: 'register-secret-a', dailySpendLimitPerPerson: 3000 },
    ]);
  });

  test.for([
    ['http://login.firm-a.example', true],
    ['http://localhost:9000', true],
    ['http://10.0.0.5:9000', true],
    ['ftp://login.firm-a.example', true],
    ['http://127.0.0.1:9000', false],
    ['http://127.8.9.10:9000', false],
    ['http://[::1]:9000', false],
    ['https://login.firm-a.example/tenant-1/v2.0', false],
  ] as const)('issuer %s refused: %s', ([issuer, refused]) => {
    for (const NODE_ENV of ['development', 'production']) {
      const env = { ...REGISTER, NODE_ENV, TITLEGRAPH_TENANTS_FILE: tenantsFile({ identityProviders: [{ ...PROVIDER, issuer }] }) };
      if (refused) expect(configFailure(env)).toMatch(/identityProviders\.0\.issuer: must be an https:\/\/ address/);
      else expect(loadConfig(env).register!.identityProviders[0]!.issuer).toBe(issuer);
    }
  });

  test('one issuer twice, an unknown property, a missing client, or a file naming nobody stops the start naming it', () => {
    const twice = tenantsFile({ identityProviders: [PROVIDER, { ...PROVIDER, name: 'other' }] });
    expect(configFailure({ ...REGISTER, TITLEGRAPH_TENANTS_FILE: twice })).toContain(
      'identityProviders.1.issuer: is the same as identityProviders.0.issuer',
    );
    const typo = tenantsFile({ identityProviders: [{ ...PROVIDER, audiance: 'x' }] });
    expect(configFailure({ ...REGISTER, TITLEGRAPH_TENANTS_FILE: typo })).toMatch(/identityProviders\.0: Unrecognized key: "audiance"/);
    const { clientSecret: _, ...noSecret } = PROVIDER;
    expect(configFailure({ ...REGISTER, TITLEGRAPH_TENANTS_FILE: tenantsFile({ identityProviders: [noSecret] }) })).toContain(
      'identityProviders.0.clientSecret',
    );
    expect(configFailure({ ...REGISTER, TITLEGRAPH_TENANTS_FILE: tenantsFile({}) })).toContain('lists no tenants and no identityProviders');
  });
});

describe('entries that would make two callers one, or give a register client two owners', () => {
  const key = (name: string, extra: Record<string, unknown> = {}) => ({
    name,
    apiKeySha256: createHash('sha256').update(name).digest('hex'),
    clientId: 'client-a',
    clientSecret: 'secret-a',
    ...extra,
  });
  const failure = (content: unknown) => configFailure({ ...REGISTER, TITLEGRAPH_TENANTS_FILE: tenantsFile(content) });

  test("a provider naming another organisation on a key's register client stops the start naming both", () => {
    const message = failure({
      tenants: [key('accounts-a', { organisation: 'ORG-A' })],
      identityProviders: [{ ...PROVIDER, organisation: 'ORG-B' }],
    });
    expect(message).toContain(
      'identityProviders.0.organisation: gives register client "client-a" to organisation "ORG-B", but tenants.0 ("accounts-a") gives it to "ORG-A": a register client belongs to one organisation',
    );
  });

  test('two keys giving one client two organisations, the default organisation (the client id) included', () => {
    expect(failure({ tenants: [key('one', { organisation: 'ORG-A' }), key('two', { organisation: 'ORG-B' })] })).toContain(
      'tenants.1.organisation: gives register client "client-a" to organisation "ORG-B", but tenants.0 ("one") gives it to "ORG-A"',
    );
    expect(failure({ tenants: [key('one'), key('two', { organisation: 'ORG-B' })] })).toContain(
      'but tenants.0 ("one") gives it to "client-a"',
    );
  });

  test('one client shared by entries of one organisation is accepted', () => {
    const config = loadConfig({
      ...REGISTER,
      TITLEGRAPH_TENANTS_FILE: tenantsFile({ tenants: [key('one', { organisation: 'ORG-A' })], identityProviders: [PROVIDER] }),
    });
    expect(config.register!.tenants.map((t) => t.name)).toEqual(['one']);
  });

  test('two providers whose issuers differ only by a trailing slash are one issuer, named by both entries', () => {
    const message = failure({ identityProviders: [PROVIDER, { ...PROVIDER, name: 'second', issuer: `${PROVIDER.issuer}/` }] });
    expect(message).toContain('identityProviders.1.issuer: is the same as identityProviders.0.issuer ("firm-a-sso" and "second")');
  });

  test.for(['ann smith', 'key:ann', 'person:idp:ann', 'ann\u0000', '', '-ann', 'a'.repeat(65)])('key name %j is not a key id', (name) => {
    expect(failure({ tenants: [key(name)] })).toMatch(/tenants\.0\.name: must be 1 to 64 letters, digits/);
  });

  test.for(['sso:one', 'person:sso', 'firm sso', ''])("provider name %j, part of its people's ids, is refused", (name) => {
    expect(failure({ identityProviders: [{ ...PROVIDER, name }] })).toMatch(/identityProviders\.0\.name: must be 1 to 64 letters, digits/);
  });
});

describe('EMULATOR_IDENTITY_ISSUER', () => {
  test("with the embedded emulator: that provider's people act as client-a of ORG-A, audience titlegraph, 30.00 a day each", () => {
    expect(loadConfig({ EMULATOR_IDENTITY_ISSUER: 'http://127.0.0.1:9000' }).emulator.identityProviders).toEqual([
      {
        name: 'local-idp',
        issuer: 'http://127.0.0.1:9000',
        audience: 'titlegraph',
        organisation: 'ORG-A',
        clientId: 'client-a',
        clientSecret: 'secret-a',
        dailySpendLimitPerPerson: 3000,
      },
    ]);
    expect(loadConfig({}).emulator.identityProviders).toEqual([]);
  });

  test('refused off loopback over http, and beside a real register', () => {
    expect(configFailure({ EMULATOR_IDENTITY_ISSUER: 'http://idp.example' })).toMatch(
      /^Invalid configuration: EMULATOR_IDENTITY_ISSUER must be an https:\/\/ address/,
    );
    expect(
      configFailure({
        ...REGISTER,
        TITLEGRAPH_TENANTS_FILE: tenantsFile({ identityProviders: [PROVIDER] }),
        EMULATOR_IDENTITY_ISSUER: 'https://idp.example',
      }),
    ).toContain('EMULATOR_IDENTITY_ISSUER is for the embedded emulator');
  });
});
