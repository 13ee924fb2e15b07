/**
 * The only reader of process.env. Every setting is parsed with zod at start; a bad value, or
 * settings that contradict each other, stop the process with one sentence naming the setting,
 * its rule and the value it got (never a secret's value).
 */
import { DEFAULT_HTTP_LIMITS, type HttpLimits, type PersistedOperations, SHUTDOWN_MARGIN_MS } from '../server/settings';
import type { HardeningOptions } from '../security/settings';
import { perProduct } from '../register/contract/money';
import { devIdentityProvider, type IdentityProviderConfig, type ServiceSettings } from '../services/settings';
import type { ApqLimits } from '../storage/settings';
import type { z } from 'zod';
import type { ObservabilityOptions } from '../observability/settings';
import { ConfigError } from './config-error';
import { Env, feeSetting } from './env';
import { persistedOperations } from './persisted-operations-file';
import { realTenants, type RegisterTenants } from './tenants-file';

export { ConfigError } from './config-error';
export { Env } from './env';
export { loadPersistedOperations } from './persisted-operations-file';

/**
 * Every setting, parsed. Its sections have the shapes the modules that use them take
 * (`ServiceSettings` for createServices, `AppOptions` for createApp), so main.ts hands them on
 * as they are, and a new setting touches the `Env` schema (env.ts), loadConfig and the module that uses it.
 */
export interface AppConfig extends ServiceSettings {
  env: 'development' | 'production' | 'test';
  port: number;
  host?: string;
  /**
   * After SIGTERM, in-flight requests get this long to finish; then the process exits 1 (a
   * register call that charges or creates is waited for up to its own deadline more). At least
   * registerCallDeadlineMs plus SHUTDOWN_MARGIN_MS.
   */
  shutdownDeadlineMs: number;
  registerCallDeadlineMs: number;
  journalRetentionDays: number;
  /** Absent: run the embedded emulator with the dev tenants. */
  register?: { baseUrl: string } & RegisterTenants;
  /** The automatic persisted query store's bounds, and each API client's registrations a minute. */
  apq: ApqLimits & { registrationsPerMinute: number };
  /** Compile documents that keep coming back with graphql-jit, after this many runs (src/server/jit.ts); false: never. */
  jit: false | { compileAfter: number };
  /** How long a verified sign-in token is trusted before it is checked again, and the longest lifetime accepted. */
  identity: { timing: { recheckMs: number }; maxLifetimeSeconds: number; failuresPerMinute: number };
  /** The embedded emulator; `identityProviders`: whose sign-in tokens its callers may use (EMULATOR_IDENTITY_ISSUER). */
  emulator: { host: string; port: number; latencyMs: number; identityProviders: IdentityProviderConfig[] };
  graphiql: boolean;
  /** pino level of the JSON logs on stdout. */
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Abuse limits; introspection and field suggestions are off in production unless asked. */
  hardening: HardeningOptions;
  /** The operations of the codegen persisted-document files (PERSISTED_OPERATIONS_FILE), and whether only those are accepted. */
  persistedOperations?: PersistedOperations;
  /** Front-end origins allowed by CORS (`*`: any); empty: no CORS headers. */
  corsOrigins: string[];
  /** GET /metrics (with Node's default metrics) or not, /ready's register probe timeout, OpenTelemetry spans. */
  observability: Required<ObservabilityOptions>;
  /** Limits of the HTTP server: request and header timeouts, keep-alive, open connections. */
  http: HttpLimits;
}

/** Settings whose values are never repeated back, even when wrong. */
const SECRET_SETTINGS = new Set(['REGISTER_CLIENT_SECRET', 'DOWNLOAD_LINK_SECRET', 'DATABASE_URL', 'TITLEGRAPH_API_KEY_SHA256']);

/** "PORT must be a whole number from 0 to 65535 (got "abc")": the setting, its rule, what it got. */
function describeIssue(issue: z.core.$ZodIssue, env: Record<string, string>): string {
  const setting = String(issue.path[0] ?? '');
  const shown = setting in env && !SECRET_SETTINGS.has(setting) ? ` (got ${JSON.stringify(env[setting])})` : '';
  return `${setting} ${issue.message}${shown}`;
}

/** Settings that only mean something with a register to talk to. */
const REGISTER_SETTINGS = ['TITLEGRAPH_TENANTS_FILE', 'REGISTER_CLIENT_ID', 'REGISTER_CLIENT_SECRET', 'TITLEGRAPH_API_KEY_SHA256'] as const;
/** Settings that only mean something with the embedded emulator. */
const EMULATOR_ONLY_SETTINGS = ['EMULATOR_IDENTITY_ISSUER'] as const;

export function loadConfig(rawEnv: NodeJS.ProcessEnv = process.env): AppConfig {
  // An empty setting (PORT=) is an unset one: its default applies.
  const env = Object.fromEntries(
    Object.entries(rawEnv).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== ''),
  );
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(`Invalid configuration: ${parsed.error.issues.map((i) => describeIssue(i, env)).join('; ')}.`);
  }
  const e = parsed.data;
  if (e.HTTP_HEADERS_TIMEOUT_MS !== undefined && e.HTTP_HEADERS_TIMEOUT_MS > e.HTTP_REQUEST_TIMEOUT_MS) {
    // Node refuses a server whose headers may take longer than the whole request.
    throw new ConfigError('Invalid configuration: HTTP_HEADERS_TIMEOUT_MS must not exceed HTTP_REQUEST_TIMEOUT_MS.');
  }
  if (e.SHUTDOWN_DEADLINE_MS < e.REGISTER_CALL_DEADLINE_MS + SHUTDOWN_MARGIN_MS) {
    // A deploy would cut a purchase the register is still answering: charged, and its caller never told.
    throw new ConfigError(
      `Invalid configuration: SHUTDOWN_DEADLINE_MS (${e.SHUTDOWN_DEADLINE_MS}) must be at least REGISTER_CALL_DEADLINE_MS (${e.REGISTER_CALL_DEADLINE_MS}) plus ${SHUTDOWN_MARGIN_MS} ms, so that a stop waits for a register call that charges rather than cutting its answer: set SHUTDOWN_DEADLINE_MS to ${e.REGISTER_CALL_DEADLINE_MS + SHUTDOWN_MARGIN_MS} or more (and the grace period of your container platform above it).`,
    );
  }
  if (e.DATABASE_URL && !e.DOWNLOAD_LINK_SECRET) {
    throw new ConfigError(
      'Invalid configuration: DOWNLOAD_LINK_SECRET is required when DATABASE_URL is set (replicas must sign download links with one key); at least 32 characters.',
    );
  }
  if (e.REGISTER === 'emulator' && e.REGISTER_BASE_URL) {
    throw new ConfigError(
      'Invalid configuration: REGISTER=emulator and REGISTER_BASE_URL are both set: unset REGISTER to use the register at REGISTER_BASE_URL, or unset REGISTER_BASE_URL to run the embedded emulator.',
    );
  }
  const orphans = REGISTER_SETTINGS.filter((name) => e[name] !== undefined);
  if (!e.REGISTER_BASE_URL && orphans.length > 0) {
    throw new ConfigError(
      `Invalid configuration: ${orphans.join(', ')} ${orphans.length === 1 ? 'is' : 'are'} set but REGISTER_BASE_URL is not: set REGISTER_BASE_URL to the register's address (ending in /v1), or unset ${orphans.length === 1 ? 'it' : 'them'} to run the embedded emulator.`,
    );
  }
  const emulatorOnly = EMULATOR_ONLY_SETTINGS.filter((name) => e[name] !== undefined);
  if (e.REGISTER_BASE_URL && emulatorOnly.length > 0) {
    throw new ConfigError(
      `Invalid configuration: ${emulatorOnly.join(', ')} is for the embedded emulator, but REGISTER_BASE_URL is set: list your identity providers under identityProviders in TITLEGRAPH_TENANTS_FILE instead.`,
    );
  }
  if (e.NODE_ENV === 'production' && !e.REGISTER_BASE_URL && e.REGISTER !== 'emulator') {
    throw new ConfigError(
      'Invalid configuration: NODE_ENV is production but no register is set: set REGISTER_BASE_URL to the register (ending in /v1), or REGISTER=emulator to run the embedded emulator on purpose.',
    );
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    ...(e.HOST ? { host: e.HOST } : {}),
    dataDir: e.DATA_DIR,
    ...(e.DATABASE_URL ? { databaseUrl: e.DATABASE_URL, databaseMaxConnections: e.DATABASE_MAX_CONNECTIONS } : {}),
    shutdownDeadlineMs: e.SHUTDOWN_DEADLINE_MS,
    registerCallDeadlineMs: e.REGISTER_CALL_DEADLINE_MS,
    journalRetentionDays: e.JOURNAL_RETENTION_DAYS,
    ...(e.REGISTER_BASE_URL ? { register: { baseUrl: e.REGISTER_BASE_URL, ...realTenants(e) } } : {}),
    apq: {
      maxPerOrganisation: e.APQ_MAX_ENTRIES_PER_ORGANISATION,
      maxTotalBytes: e.APQ_MAX_TOTAL_BYTES,
      registrationsPerMinute: e.APQ_REGISTRATIONS_PER_MINUTE,
    },
    spend: {
      feesPence: perProduct((product) => e[feeSetting(product)]),
      ...(e.CLIENT_DAILY_SPEND_LIMIT !== undefined ? { clientLimitPence: e.CLIENT_DAILY_SPEND_LIMIT } : {}),
      ...(e.ORGANISATION_DAILY_SPEND_LIMIT !== undefined ? { organisationLimitPence: e.ORGANISATION_DAILY_SPEND_LIMIT } : {}),
    },
    reads: {
      concurrency: e.REGISTER_CONCURRENCY,
      referenceListTtlMs: e.REFERENCE_LIST_TTL_MS,
      summaryCacheTtlMs: e.SUMMARY_CACHE_TTL_MS,
      prefetchSecurities: e.SECURITIES_PREFETCH,
    },
    jit: e.GRAPHQL_JIT && { compileAfter: e.GRAPHQL_JIT_AFTER },
    identity: {
      timing: { recheckMs: e.TOKEN_RECHECK_SECONDS * 1000 },
      maxLifetimeSeconds: e.TOKEN_MAX_LIFETIME_SECONDS,
      failuresPerMinute: e.TOKEN_FAILURES_PER_MINUTE,
    },
    emulator: {
      host: e.EMULATOR_HOST,
      port: e.EMULATOR_PORT,
      latencyMs: e.EMULATOR_LATENCY_MS,
      identityProviders: e.EMULATOR_IDENTITY_ISSUER ? [devIdentityProvider(e.EMULATOR_IDENTITY_ISSUER)] : [],
    },
    graphiql: e.GRAPHIQL ?? e.NODE_ENV !== 'production',
    logLevel: e.LOG_LEVEL,
    corsOrigins: e.CORS_ORIGINS,
    observability: {
      metrics: e.METRICS_ENABLED && { defaultMetrics: true },
      readiness: { timeoutMs: e.READY_TIMEOUT_MS },
      tracing: e.OTEL_ENABLED && e.OTEL_SDK_DISABLED !== true,
    },
    hardening: {
      limits: {
        maxDepth: e.MAX_DEPTH,
        maxAliases: e.MAX_ALIASES,
        maxTokens: e.MAX_TOKENS,
        maxDirectives: e.MAX_DIRECTIVES,
        maxCost: e.MAX_COST,
        maxDocumentBytes: e.MAX_DOCUMENT_BYTES,
        maxBodyBytes: e.MAX_BODY_BYTES,
        maxEntityTitles: e.ENTITIES_MAX_TITLES,
      },
      introspection: e.INTROSPECTION ?? e.NODE_ENV !== 'production',
      fieldSuggestions: e.NODE_ENV !== 'production',
    },
    quota: {
      dailyQuota: e.REGISTER_DAILY_QUOTA,
      freeShare: e.REGISTER_FREE_SHARE,
      clientBurst: e.CLIENT_BUDGET_BURST,
      clientPerMinute: e.CLIENT_BUDGET_PER_MINUTE,
      leaseMs: e.QUOTA_LEASE_MS,
      ...(e.QUOTA_LEASE_CALLS !== undefined ? { leaseCalls: e.QUOTA_LEASE_CALLS } : {}),
    },
    downloads: { perTenant: e.DOWNLOADS_PER_TENANT, idleMs: e.DOWNLOAD_IDLE_TIMEOUT_MS, maxMs: e.DOWNLOAD_MAX_MS },
    http: {
      requestTimeoutMs: e.HTTP_REQUEST_TIMEOUT_MS,
      headersTimeoutMs: e.HTTP_HEADERS_TIMEOUT_MS ?? Math.min(DEFAULT_HTTP_LIMITS.headersTimeoutMs, e.HTTP_REQUEST_TIMEOUT_MS),
      keepAliveTimeoutMs: e.HTTP_KEEP_ALIVE_TIMEOUT_MS,
      maxConnections: e.HTTP_MAX_CONNECTIONS,
      maxConnectionsPerAddress: e.HTTP_MAX_CONNECTIONS_PER_ADDRESS,
    },
    ...(e.PUBLIC_URL ? { publicUrl: e.PUBLIC_URL } : {}),
    ...(e.DOWNLOAD_LINK_SECRET ? { downloadLinkSecret: e.DOWNLOAD_LINK_SECRET } : {}),
    ...persistedOperations(e),
  };
}
