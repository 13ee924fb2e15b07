/** Configuration parsing: defaults, and a bad value fails naming the setting (not its value). */
import { describe, expect, onTestFinished, test } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config';
import { configFailure } from '../support/config-failure';
import { RegisterTransport } from '../../src/register/client';

describe('loadConfig', () => {
  test('defaults: port 4000, no CORS, metrics on, 2 s readiness probe, no tracing', () => {
    const config = loadConfig({});
    expect(config.port).toBe(4000);
    expect(config.corsOrigins).toEqual([]);
    expect(config.observability).toEqual({ metrics: { defaultMetrics: true }, readiness: { timeoutMs: 2000 }, tracing: false });
  });

  test.for([['abc'], ['70000'], ['-1'], ['4000.5']])('PORT=%s fails with a sentence naming PORT, its rule and the value', ([port]) => {
    expect(configFailure({ PORT: port! })).toBe(`Invalid configuration: PORT must be a whole number from 0 to 65535 (got "${port}").`);
  });

  test('an empty setting is an unset one: PORT= means 4000', () => {
    expect(loadConfig({ PORT: '' }).port).toBe(4000);
  });

  test("no setting is refused in the validator's own words", () => {
    for (const env of <Record<string, string>[]>[
      { NODE_ENV: 'prod' },
      { METRICS_ENABLED: 'yes' },
      { REGISTER_FREE_SHARE: 'half' },
      { LOG_LEVEL: 'loud' },
      { PUBLIC_URL: 'nope' },
    ]) {
      const message = configFailure(env);
      expect(message).not.toMatch(/Invalid input|expected|received/i);
      expect(message).toMatch(/\(got "/);
    }
    expect(configFailure({ NODE_ENV: 'prod' })).toBe(
      'Invalid configuration: NODE_ENV must be one of development, production, test (got "prod").',
    );
  });

  test('a secret is never repeated back', () => {
    expect(configFailure({ DOWNLOAD_LINK_SECRET: 'short-secret' })).toBe(
      'Invalid configuration: DOWNLOAD_LINK_SECRET must be at least 32 characters.',
    );
  });

  test('CORS_ORIGINS: a comma-separated list of origins, spaces and a trailing slash tolerated', () => {
    expect(loadConfig({ CORS_ORIGINS: 'https://app.example.com, http://localhost:5173/' }).corsOrigins).toEqual([
      'https://app.example.com',
      'http://localhost:5173',
    ]);
    expect(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins).toEqual(['*']);
    expect(loadConfig({ CORS_ORIGINS: '' }).corsOrigins).toEqual([]);
  });

  test.for([
    ['app.example.com'],
    ['https://app.example.com/path'],
    ['ftp://files.example.com'],
    ['https://App.Example.com'],
    ['https://app.example.com:443'],
    ['https://ok.example.com,not an origin'],
    ['*,https://app.example.com'],
  ])('CORS_ORIGINS=%s fails naming CORS_ORIGINS, without echoing the value', ([origins]) => {
    const message = configFailure({ CORS_ORIGINS: origins! });
    expect(message).toMatch(/^Invalid configuration: CORS_ORIGINS /);
    expect(message).not.toContain('not an origin,');
    if (!origins!.startsWith('*')) expect(message).toMatch(/entry \d is not an origin/);
  });

  test('METRICS_ENABLED, READY_TIMEOUT_MS and OTEL_ENABLED', () => {
    expect(loadConfig({ METRICS_ENABLED: 'false', READY_TIMEOUT_MS: '500', OTEL_ENABLED: 'true' }).observability).toEqual({
      metrics: false,
      readiness: { timeoutMs: 500 },
      tracing: true,
    });
    // The standard OTEL_SDK_DISABLED wins.
    expect(loadConfig({ OTEL_ENABLED: 'true', OTEL_SDK_DISABLED: 'true' }).observability.tracing).toBe(false);
    expect(configFailure({ METRICS_ENABLED: 'yes' })).toMatch(/METRICS_ENABLED must be true or false/);
    expect(configFailure({ READY_TIMEOUT_MS: '10' })).toMatch(/READY_TIMEOUT_MS must be a whole number from 100 to 60000/);
    expect(configFailure({ OTEL_ENABLED: 'on' })).toMatch(/OTEL_ENABLED must be true or false/);
  });

  test('several bad settings are all named at once', () => {
    const message = configFailure({ PORT: 'x', CORS_ORIGINS: 'nope', READY_TIMEOUT_MS: 'y' });
    expect(message).toMatch(/PORT must/);
    expect(message).toMatch(/CORS_ORIGINS entry/);
    expect(message).toMatch(/READY_TIMEOUT_MS must/);
  });
});

describe('quota and download settings', () => {
  test('defaults: 2,000 calls, 90% for free reads, 500 at once then 120 a minute, leases of 250 ms; 4 downloads, 30 s idle, 10 min in all', () => {
    const config = loadConfig({});
    expect(config.quota).toEqual({ dailyQuota: 2000, freeShare: 0.9, clientBurst: 500, clientPerMinute: 120, leaseMs: 250 });
    expect(loadConfig({ QUOTA_LEASE_MS: '0', QUOTA_LEASE_CALLS: '8' }).quota).toMatchObject({ leaseMs: 0, leaseCalls: 8 });
    expect(config.downloads).toEqual({ perTenant: 4, idleMs: 30_000, maxMs: 600_000 });
    expect(config.http).toEqual({
      requestTimeoutMs: 30_000,
      headersTimeoutMs: 15_000,
      keepAliveTimeoutMs: 5_000,
      maxConnections: 1_024,
      maxConnectionsPerAddress: 256,
    });
  });

  test.for([
    ['REGISTER_FREE_SHARE', '1.5'],
    ['REGISTER_DAILY_QUOTA', '0'],
    ['CLIENT_BUDGET_BURST', '-1'],
    ['DOWNLOADS_PER_TENANT', 'many'],
    ['DOWNLOAD_IDLE_TIMEOUT_MS', '10'],
    ['HTTP_REQUEST_TIMEOUT_MS', '5'],
    ['HTTP_MAX_CONNECTIONS', '0'],
  ])('%s=%s fails naming the setting', ([name, value]) => {
    expect(configFailure({ [name!]: value! })).toMatch(new RegExp(`^Invalid configuration: ${name} must be a (whole )?number`));
  });

  test('a tenants file entry may name its organisation; without one the client id stands for it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'titlegraph-tenants-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'tenants.json');
    const hash = 'a'.repeat(64);
    writeFileSync(
      file,
      JSON.stringify({
        tenants: [
          { name: 'one', apiKeySha256: hash, clientId: 'c1', clientSecret: 's1', organisation: 'ORG-X' },
          { name: 'two', apiKeySha256: 'b'.repeat(64), clientId: 'c2', clientSecret: 's2' },
        ],
      }),
    );
    const config = loadConfig({ REGISTER_BASE_URL: 'https://register.example/v1', TITLEGRAPH_TENANTS_FILE: file });
    expect(config.register!.tenants.map((t) => [t.clientId, t.organisation])).toEqual([
      ['c1', 'ORG-X'],
      ['c2', undefined],
    ]);
  });
});

describe('download link settings', () => {
  const SECRET = 'a-test-signing-key-of-at-least-32-characters';

  test('the shutdown deadline outlasts a register call: 35 s over 30 s by default, a shorter one stops the start naming both', () => {
    const config = loadConfig({});
    expect(config.shutdownDeadlineMs).toBe(35_000);
    expect(config.registerCallDeadlineMs).toBe(30_000);
    // The deadline the register client really uses is the setting's.
    const transport = new RegisterTransport({ baseUrl: 'http://127.0.0.1:1/v1' });
    expect(transport.timeouts.deadlineMs).toBe(config.registerCallDeadlineMs);
    expect(configFailure({ SHUTDOWN_DEADLINE_MS: '25000' })).toBe(
      'Invalid configuration: SHUTDOWN_DEADLINE_MS (25000) must be at least REGISTER_CALL_DEADLINE_MS (30000) plus 5000 ms, so that a stop waits for a register call that charges rather than cutting its answer: set SHUTDOWN_DEADLINE_MS to 35000 or more (and the grace period of your container platform above it).',
    );
    expect(configFailure({ SHUTDOWN_DEADLINE_MS: '34999' })).toMatch(
      /^Invalid configuration: SHUTDOWN_DEADLINE_MS \(34999\) must be at least/,
    );
    expect(configFailure({ REGISTER_CALL_DEADLINE_MS: '31000' })).toMatch(
      /SHUTDOWN_DEADLINE_MS \(35000\) .* REGISTER_CALL_DEADLINE_MS \(31000\)/,
    );
    expect(loadConfig({ SHUTDOWN_DEADLINE_MS: '6000', REGISTER_CALL_DEADLINE_MS: '1000' })).toMatchObject({
      shutdownDeadlineMs: 6000,
      registerCallDeadlineMs: 1000,
    });
  });

  test('the charge journal outlasts the longest statement: 400 days by default, fewer than 367 stops the start', () => {
    expect(loadConfig({}).journalRetentionDays).toBe(400);
    expect(loadConfig({ JOURNAL_RETENTION_DAYS: '367' }).journalRetentionDays).toBe(367);
    for (const days of ['100', '366', 'a year']) {
      expect(configFailure({ JOURNAL_RETENTION_DAYS: days })).toBe(
        `Invalid configuration: JOURNAL_RETENTION_DAYS must be a whole number of days of at least 367, so that a statement (up to 366 register days) is never missing days the journal has dropped (got "${days}").`,
      );
    }
  });

  test('replicas (DATABASE_URL) must share a signing key', () => {
    expect(configFailure({ DATABASE_URL: 'postgres://db/titlegraph' })).toMatch(
      /DOWNLOAD_LINK_SECRET is required when DATABASE_URL is set/,
    );
    expect(loadConfig({ DATABASE_URL: 'postgres://db/titlegraph', DOWNLOAD_LINK_SECRET: SECRET }).downloadLinkSecret).toBe(SECRET);
  });

  test('keys rotate: DOWNLOAD_LINK_SECRET lists them comma-separated, each at least 32 characters, never repeated back', () => {
    const next = `${SECRET}-next`;
    expect(loadConfig({ DOWNLOAD_LINK_SECRET: `${next},${SECRET}` }).downloadLinkSecret).toBe(`${next},${SECRET}`);
    const refused = configFailure({ DOWNLOAD_LINK_SECRET: `${next},short-old-key` });
    expect(refused).toBe('Invalid configuration: DOWNLOAD_LINK_SECRET must be at least 32 characters.');
    expect(configFailure({ DOWNLOAD_LINK_SECRET: ' , ' })).toMatch(/DOWNLOAD_LINK_SECRET must be at least 32 characters/);
  });

  test('a short key, or a PUBLIC_URL that is not http(s), is refused naming the setting', () => {
    expect(configFailure({ DOWNLOAD_LINK_SECRET: 'short' })).toMatch(/DOWNLOAD_LINK_SECRET must be at least 32 characters/);
    expect(configFailure({ PUBLIC_URL: 'ftp://titlegraph.example.com' })).toMatch(/PUBLIC_URL/);
    expect(loadConfig({ PUBLIC_URL: 'https://titlegraph.example.com' }).publicUrl).toBe('https://titlegraph.example.com');
  });
});

describe('the register: a deployment that forgets a setting stops instead of serving the emulator', () => {
  test('production without REGISTER_BASE_URL stops unless REGISTER=emulator asks for the emulator', () => {
    expect(configFailure({ NODE_ENV: 'production' })).toBe(
      'Invalid configuration: NODE_ENV is production but no register is set: set REGISTER_BASE_URL to the register (ending in /v1), or REGISTER=emulator to run the embedded emulator on purpose.',
    );
    expect(loadConfig({ NODE_ENV: 'production', REGISTER: 'emulator' }).register).toBeUndefined();
    expect(loadConfig({}).register).toBeUndefined();
  });

  test.for([
    [{ TITLEGRAPH_TENANTS_FILE: '/etc/tenants.json' }, 'TITLEGRAPH_TENANTS_FILE is set but REGISTER_BASE_URL is not'],
    [{ REGISTER_CLIENT_ID: 'c' }, 'REGISTER_CLIENT_ID is set but REGISTER_BASE_URL is not'],
    [
      { REGISTER_CLIENT_ID: 'c', REGISTER_CLIENT_SECRET: 's' },
      'REGISTER_CLIENT_ID, REGISTER_CLIENT_SECRET are set but REGISTER_BASE_URL is not',
    ],
    [{ REGISTER: 'emulator', REGISTER_BASE_URL: 'https://register.example/v1' }, 'REGISTER=emulator and REGISTER_BASE_URL are both set'],
    [{ REGISTER_BASE_URL: 'https://register.example' }, 'REGISTER_BASE_URL must end in /v1'],
    [{ REGISTER_BASE_URL: 'https://register.example/v2' }, 'REGISTER_BASE_URL must end in /v1'],
  ] as const)('%o stops: %s', ([env, expected]) => {
    expect(configFailure(env as Record<string, string>)).toContain(expected);
  });

  test('a tenants file that is missing, not JSON or invalid stops, naming TITLEGRAPH_TENANTS_FILE and the reason', () => {
    const dir = mkdtempSync(join(tmpdir(), 'titlegraph-tenants-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const base = { REGISTER_BASE_URL: 'https://register.example/v1' };
    const missing = join(dir, 'missing.json');
    expect(configFailure({ ...base, TITLEGRAPH_TENANTS_FILE: missing })).toBe(
      `Invalid configuration: TITLEGRAPH_TENANTS_FILE "${missing}" cannot be read: there is no such file.`,
    );
    const notJson = join(dir, 'not.json');
    writeFileSync(notJson, '{ tenants: ');
    expect(configFailure({ ...base, TITLEGRAPH_TENANTS_FILE: notJson })).toMatch(
      /^Invalid configuration: TITLEGRAPH_TENANTS_FILE ".*" is not JSON \(/,
    );
    const invalid = join(dir, 'invalid.json');
    writeFileSync(invalid, JSON.stringify({ tenants: [{ name: 'x', apiKeySha256: 'nope', clientId: 'c', clientSecret: 's' }] }));
    expect(configFailure({ ...base, TITLEGRAPH_TENANTS_FILE: invalid })).toContain(
      'tenants.0.apiKeySha256: must be the hex SHA-256 of the API key',
    );
    const badAmount = join(dir, 'amount.json');
    writeFileSync(
      badAmount,
      JSON.stringify({
        tenants: [{ name: 'x', apiKeySha256: 'a'.repeat(64), clientId: 'c', clientSecret: 's', dailySpendLimit: '3.001' }],
      }),
    );
    expect(configFailure({ ...base, TITLEGRAPH_TENANTS_FILE: badAmount })).toContain(
      'tenants.0.dailySpendLimit: must be an amount in pounds',
    );
  });

  test('each entry is a caller of its own: a key listed twice, or an unknown property, stops the start naming it', () => {
    const dir = mkdtempSync(join(tmpdir(), 'titlegraph-tenants-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const base = { REGISTER_BASE_URL: 'https://register.example/v1' };
    const file = (name: string, content: unknown) => {
      const path = join(dir, name);
      writeFileSync(path, JSON.stringify(content));
      return path;
    };
    const key = (name: string, sha = 'a'.repeat(64)) => ({ name, apiKeySha256: sha, clientId: 'c', clientSecret: 's' });
    expect(configFailure({ ...base, TITLEGRAPH_TENANTS_FILE: file('twice.json', { tenants: [key('one'), key('two')] }) })).toContain(
      'tenants.1.apiKeySha256: is the same as tenants.0.apiKeySha256',
    );
    expect(
      configFailure({ ...base, TITLEGRAPH_TENANTS_FILE: file('names.json', { tenants: [key('one'), key('one', 'b'.repeat(64))] }) }),
    ).toContain('tenants.1.name: is the same as tenants.0.name');
    expect(
      configFailure({ ...base, TITLEGRAPH_TENANTS_FILE: file('typo.json', { tenants: [{ ...key('one'), dailySpendLimt: '3.00' }] }) }),
    ).toMatch(/tenants\.0: Unrecognized key: "dailySpendLimt"/);
    expect(
      configFailure({ ...base, TITLEGRAPH_TENANTS_FILE: file('scope.json', { tenants: [{ ...key('one'), scopes: ['titles:steal'] }] }) }),
    ).toContain('tenants.0.scopes.0: must be one of titles:read, titles:buy, cases:write, charges:read, charges:organisation');
    expect(configFailure({ ...base, TITLEGRAPH_TENANTS_FILE: file('top.json', { tenants: [key('one')], tenant: [] }) })).toMatch(
      /the file: Unrecognized key: "tenant"/,
    );
  });

  test('a router tenant has no register credentials: with them, the start stops naming the tenant', () => {
    const dir = mkdtempSync(join(tmpdir(), 'titlegraph-tenants-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const base = { REGISTER_BASE_URL: 'https://register.example/v1' };
    const both = join(dir, 'both.json');
    writeFileSync(
      both,
      JSON.stringify({ tenants: [{ name: 'gateway', apiKeySha256: 'a'.repeat(64), clientId: 'c', clientSecret: 's', router: true }] }),
    );
    expect(configFailure({ ...base, TITLEGRAPH_TENANTS_FILE: both })).toContain(
      'tenant "gateway" has router: true and register credentials: a router key only reads the schema',
    );
    const routerOnly = join(dir, 'router.json');
    writeFileSync(
      routerOnly,
      JSON.stringify({
        tenants: [
          { name: 'gateway', apiKeySha256: 'a'.repeat(64), router: true },
          { name: 'firm', apiKeySha256: 'b'.repeat(64), clientId: 'c', clientSecret: 's' },
        ],
      }),
    );
    expect(loadConfig({ ...base, TITLEGRAPH_TENANTS_FILE: routerOnly }).register!.tenants).toHaveLength(2);
    const noClient = join(dir, 'no-client.json');
    writeFileSync(noClient, JSON.stringify({ tenants: [{ name: 'firm', apiKeySha256: 'b'.repeat(64) }] }));
    expect(configFailure({ ...base, TITLEGRAPH_TENANTS_FILE: noClient })).toContain('tenant "firm" needs clientId and clientSecret');
  });

  test('a malformed amount in a spend setting stops, naming it', () => {
    expect(configFailure({ CLIENT_DAILY_SPEND_LIMIT: '-1' })).toContain(
      'CLIENT_DAILY_SPEND_LIMIT must be an amount in pounds with at most two decimals',
    );
    expect(loadConfig({ ORGANISATION_DAILY_SPEND_LIMIT: '25' }).spend.organisationLimitPence).toBe(2500);
  });
});
