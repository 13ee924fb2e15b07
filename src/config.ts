/**
 * The only reader of process.env. Every setting is parsed with zod at start; a bad value, or
 * settings that contradict each other, stop the process with one sentence naming the setting,
 * its rule and the value it got (never a secret's value).
 */
import { readFileSync } from 'node:fs';
import { parse } from 'graphql';
import { normaliseOperationId, PREFIXED_OPERATION_ID, type PersistedOperations } from './server/persisted-operations';
import { DEFAULT_HTTP_LIMITS, DEFAULT_SHUTDOWN_DEADLINE_MS, type HttpLimits, SHUTDOWN_MARGIN_MS } from './server/serve';
import { DEFAULT_COMPILE_AFTER } from './server/jit';
import { z } from 'zod';
import { DEFAULT_LIMITS } from './security/limits';
import type { HardeningOptions } from './security/limits';
import { AMOUNT_RULE, CHARGEABLE_PRODUCTS, type ChargeableProduct, penceOf, perProduct } from './register/contract/money';
import { DEFAULT_CALL_DEADLINE_MS } from './register/client';
import { type ClientsConfig, DEFAULT_FEES_PENCE, type OrganisationsConfig } from './services/spend';
import { ALL_SCOPES, isScope } from './services/scopes';
import { devIdentityProvider, type TenantConfig } from './services/tenants';
import { type IdentityProviderConfig, issuerProblem } from './services/identity';
import { type ApqLimits, DEFAULT_APQ_LIMITS, DEFAULT_APQ_REGISTRATIONS_PER_MINUTE } from './storage/apq-store';
import { DEFAULT_READ_SETTINGS, type ServiceSettings } from './services/create-services';
import { DEFAULT_QUOTA_POLICY } from './services/quota';
import { DEFAULT_JOURNAL_RETENTION_DAYS, MIN_JOURNAL_RETENTION_DAYS, STATEMENT_MAX_DAYS } from './services/statements';
import { DEFAULT_DOWNLOAD_SETTINGS } from './services/downloads/slots';
import { downloadLinkKeys } from './services/downloads/links';
import { DEFAULT_READY_TIMEOUT_MS } from './observability/health';
import { DEFAULT_DATABASE_MAX_CONNECTIONS } from './storage/pg-database';
import type { ObservabilityOptions } from './observability';

/**
 * The rules of the settings, each in words a person reads: the message completes "<SETTING> …",
 * and the value is echoed back unless the setting is secret (see `SECRET_SETTINGS`).
 */
const whole = (min: number, max?: number) =>
  z
    .string()
    .regex(/^\d+$/, max === undefined ? `must be a whole number of at least ${min}` : `must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .refine(
      (n) => n >= min && (max === undefined || n <= max),
      max === undefined ? `must be a whole number of at least ${min}` : `must be a whole number from ${min} to ${max}`,
    );
const decimal = (min: number, max?: number) =>
  z
    .string()
    .regex(/^\d+(\.\d+)?$/, max === undefined ? `must be a number of at least ${min}` : `must be a number from ${min} to ${max}`)
    .transform(Number)
    .refine(
      (n) => n >= min && (max === undefined || n <= max),
      max === undefined ? `must be a number of at least ${min}` : `must be a number from ${min} to ${max}`,
    );
const oneOf = <const T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: values.length === 1 ? `must be ${values[0]} or unset` : `must be one of ${values.join(', ')}` });
const bool = z.enum(['true', 'false', '1', '0'], { error: 'must be true or false' }).transform((v) => v === 'true' || v === '1');
const isHttpUrl = (value: string) => {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
};
const httpUrl = z.string().refine(isHttpUrl, 'must be an http:// or https:// address');
/** The register's base address ends in /v1 (the register's own documentation); never appended silently. */
const registerBaseUrl = httpUrl.refine(
  (value) => !isHttpUrl(value) || /\/v1\/?$/.test(new URL(value).pathname),
  'must end in /v1, the register API version, e.g. https://register.example/v1',
);

/** CORS_ORIGINS: comma-separated exact origins (scheme://host[:port], no path), or `*` alone. */
const corsOrigins = z.string().transform((value, ctx) => {
  const list = value
    .split(',')
    .map((o) => o.trim())
    .filter(Boolean);
  if (list.includes('*')) {
    if (list.length > 1) ctx.addIssue({ code: 'custom', message: '`*` (any origin) cannot be combined with other origins' });
    return ['*'];
  }
  const origins = list.map((entry) => entry.replace(/\/$/, ''));
  origins.forEach((entry, i) => {
    let origin: string | undefined;
    try {
      const url = new URL(entry);
      if (url.protocol === 'http:' || url.protocol === 'https:') origin = url.origin;
    } catch {
      // not a URL
    }
    if (origin !== entry) {
      ctx.addIssue({
        code: 'custom',
        message: `entry ${i + 1} is not an origin: use scheme://host[:port] (http or https, lower case, no path, no default port), e.g. https://app.example.com`,
      });
    }
  });
  return origins;
});

/** An amount of money in a setting or the tenants file (register/contract/money.ts has the one rule). */
const amount = z
  .string()
  .refine((v) => penceOf(v) !== undefined, AMOUNT_RULE)
  .transform((v) => penceOf(v)!);

/** An identity provider of the tenants file: the shape services/identity.ts takes. */
const IdentityProvider = z
  .object({
    name: z.string().min(1),
    /** The `iss` of its tokens, exactly: https, or http on a loopback address only. */
    issuer: z.string().superRefine((value, ctx) => {
      const problem = issuerProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
    audience: z.string().min(1),
    organisation: z.string().min(1),
    clientId: z.string().min(1),
    clientSecret: z.string().min(1),
    dailySpendLimitPerPerson: amount.optional(),
  })
  .strict() satisfies z.ZodType<IdentityProviderConfig>;

const TenantFile = z
  .object({
    /** The identity providers whose people call with sign-in tokens (JWT access tokens). */
    identityProviders: z
      .array(IdentityProvider)
      .superRefine((providers, ctx) => {
        // A token's provider is found by its issuer: two with one issuer could not be told apart.
        for (const field of ['issuer', 'name'] as const) {
          const seen = new Map<string, number>();
          providers.forEach((provider, i) => {
            const first = seen.get(provider[field]);
            if (first !== undefined) {
              ctx.addIssue({ code: 'custom', path: [i, field], message: `is the same as identityProviders.${first}.${field}` });
            } else seen.set(provider[field], i);
          });
        }
      })
      .optional(),
    /** Per organisation: its daily spending limit, and its charging accounts (quotes refuse any other). */
    organisations: z
      .record(
        z.string().min(1),
        z
          .object({
            dailySpendLimit: amount.optional(),
            fasAccounts: z.array(z.string().regex(/^\d{4,6}$/, 'must be 4 to 6 digits')).optional(),
          })
          .strict(),
      )
      .optional(),
    /** Per register API client: its daily spending limit, overriding CLIENT_DAILY_SPEND_LIMIT (a key's own limit is the key's). */
    clients: z.record(z.string().min(1), z.object({ dailySpendLimit: amount.optional() }).strict()).optional(),
    tenants: z
      .array(
        // The shape services/tenants.ts takes: a field added there is read here.
        z
          .object({
            name: z.string().min(1),
            apiKeySha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be the hex SHA-256 of the API key'),
            /** The register API client this key acts as; none for a router. */
            clientId: z.string().min(1).optional(),
            clientSecret: z.string().min(1).optional(),
            /** The register organisation owning the client (its quota is the organisation's); default: the client id. */
            organisation: z.string().min(1).optional(),
            /** A federation router's key: it reads the schema (`_service { sdl }`) and nothing else, so it has no register client. */
            router: z.boolean().optional(),
            /** An accounts key: its charge statements cover every API client of its organisation. */
            accounts: z.boolean().optional(),
            /** This key's own daily spending limit (its API client's is CLIENT_DAILY_SPEND_LIMIT or `clients`). */
            dailySpendLimit: amount.optional(),
            /** What the key may do (services/scopes.ts); default: every scope but charges:organisation. */
            scopes: z
              .array(
                z.string().refine(isScope, {
                  message: `must be one of ${ALL_SCOPES.join(', ')}`,
                }),
              )
              .transform((scopes) => scopes.filter(isScope))
              .optional(),
          })
          // An unknown property is a typo that would otherwise be ignored silently (a limit that never applies).
          .strict()
          .superRefine((tenant, ctx) => {
            if (tenant.router && (tenant.clientId || tenant.clientSecret)) {
              ctx.addIssue({
                code: 'custom',
                message: `tenant "${tenant.name}" has router: true and register credentials: a router key only reads the schema, so remove its clientId and clientSecret (give the router's callers keys of their own)`,
              });
            } else if (!tenant.router && (!tenant.clientId || !tenant.clientSecret)) {
              ctx.addIssue({
                code: 'custom',
                message: `tenant "${tenant.name}" needs clientId and clientSecret (or router: true, for a federation router's key)`,
              });
            }
          }) satisfies z.ZodType<TenantConfig>,
      )
      .superRefine((tenants, ctx) => {
        // Each entry is a caller of its own: the same key or name twice would merge two callers' rights and limits.
        for (const field of ['apiKeySha256', 'name'] as const) {
          const seen = new Map<string, number>();
          tenants.forEach((tenant, i) => {
            const first = seen.get(tenant[field]);
            if (first !== undefined) {
              ctx.addIssue({
                code: 'custom',
                path: [i, field],
                message: `is the same as tenants.${first}.${field}: each API key is listed once, under a name of its own`,
              });
            } else seen.set(tenant[field], i);
          });
        }
      })
      // With identity providers, a file may list no API key at all (people only).
      .default([]),
  })
  .strict()
  .refine((file) => file.tenants.length > 0 || (file.identityProviders ?? []).length > 0, {
    message: 'lists no tenants and no identityProviders: list at least one API key or identity provider',
  });

const JOURNAL_RETENTION_RULE = `must be a whole number of days of at least ${MIN_JOURNAL_RETENTION_DAYS}, so that a statement (up to ${STATEMENT_MAX_DAYS} register days) is never missing days the journal has dropped`;

/** FEE_<product>: each product's list fee, one setting per product of the contract's list. */
const FEE_SETTINGS = Object.fromEntries(
  CHARGEABLE_PRODUCTS.map((product) => [feeSetting(product), amount.default(DEFAULT_FEES_PENCE[product])]),
) as { [P in ChargeableProduct as `FEE_${P}`]: z.ZodDefault<typeof amount> };

function feeSetting<P extends ChargeableProduct>(product: P): `FEE_${P}` {
  return `FEE_${product}`;
}

export const Env = z.object({
  NODE_ENV: oneOf(['development', 'production', 'test']).default('development'),
  PORT: whole(0, 65535).default(4000),
  HOST: z.string().min(1).optional(),
  DATA_DIR: z.string().min(1).default('data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/\S+$/, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATABASE_MAX_CONNECTIONS: whole(3, 10_000).default(DEFAULT_DATABASE_MAX_CONNECTIONS),
  SHUTDOWN_DEADLINE_MS: whole(0).default(DEFAULT_SHUTDOWN_DEADLINE_MS),
  REGISTER_CALL_DEADLINE_MS: whole(1_000, 600_000).default(DEFAULT_CALL_DEADLINE_MS),
  JOURNAL_RETENTION_DAYS: z
    .string()
    .regex(/^\d+$/, JOURNAL_RETENTION_RULE)
    .transform(Number)
    .refine((n) => n >= MIN_JOURNAL_RETENTION_DAYS, JOURNAL_RETENTION_RULE)
    .default(DEFAULT_JOURNAL_RETENTION_DAYS),
  REGISTER_BASE_URL: registerBaseUrl.optional(),
  /** `emulator`: run the embedded emulator on purpose (the only way in production); unset: the emulator in development only. */
  REGISTER: oneOf(['emulator']).optional(),
  REGISTER_CLIENT_ID: z.string().min(1).optional(),
  REGISTER_CLIENT_SECRET: z.string().min(1).optional(),
  TITLEGRAPH_API_KEY_SHA256: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'must be the hex SHA-256 of the API key')
    .optional(),
  TITLEGRAPH_TENANTS_FILE: z.string().min(1).optional(),
  REGISTER_CONCURRENCY: whole(1, 256).default(DEFAULT_READ_SETTINGS.concurrency),
  REFERENCE_LIST_TTL_MS: whole(0).default(DEFAULT_READ_SETTINGS.referenceListTtlMs),
  SUMMARY_CACHE_TTL_MS: whole(0, 3_600_000).default(DEFAULT_READ_SETTINGS.summaryCacheTtlMs),
  EMULATOR_HOST: z.string().min(1).default('127.0.0.1'),
  EMULATOR_PORT: whole(0, 65535).default(4010),
  EMULATOR_LATENCY_MS: whole(0).default(0),
  EMULATOR_IDENTITY_ISSUER: z
    .string()
    .refine(
      (value) => issuerProblem(value) === undefined,
      'must be an https:// address (http:// only on a loopback address: 127.0.0.1 or [::1])',
    )
    .optional(),
  GRAPHIQL: bool.optional(),
  SECURITIES_PREFETCH: bool.default(DEFAULT_READ_SETTINGS.prefetchSecurities),
  GRAPHQL_JIT: bool.default(true),
  GRAPHQL_JIT_AFTER: whole(1, 1_000_000).default(DEFAULT_COMPILE_AFTER),
  LOG_LEVEL: oneOf(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  INTROSPECTION: bool.optional(),
  MAX_DEPTH: whole(1).default(DEFAULT_LIMITS.maxDepth),
  MAX_ALIASES: whole(0).default(DEFAULT_LIMITS.maxAliases),
  MAX_TOKENS: whole(10).default(DEFAULT_LIMITS.maxTokens),
  MAX_DIRECTIVES: whole(0).default(DEFAULT_LIMITS.maxDirectives),
  MAX_COST: whole(1).default(DEFAULT_LIMITS.maxCost),
  MAX_DOCUMENT_BYTES: whole(100).default(DEFAULT_LIMITS.maxDocumentBytes),
  MAX_BODY_BYTES: whole(1000).default(DEFAULT_LIMITS.maxBodyBytes),
  ENTITIES_MAX_TITLES: whole(1).default(DEFAULT_LIMITS.maxEntityTitles),
  PERSISTED_OPERATIONS_FILE: z.string().min(1).optional(),
  PERSISTED_OPERATIONS_ONLY: bool.default(false),
  CORS_ORIGINS: corsOrigins.default([]),
  METRICS_ENABLED: bool.default(true),
  READY_TIMEOUT_MS: whole(100, 60_000).default(DEFAULT_READY_TIMEOUT_MS),
  OTEL_ENABLED: bool.default(false),
  OTEL_SDK_DISABLED: bool.optional(),
  REGISTER_DAILY_QUOTA: whole(1).default(DEFAULT_QUOTA_POLICY.dailyQuota),
  REGISTER_FREE_SHARE: decimal(0, 1).default(DEFAULT_QUOTA_POLICY.freeShare),
  CLIENT_BUDGET_BURST: whole(0).default(DEFAULT_QUOTA_POLICY.clientBurst),
  CLIENT_BUDGET_PER_MINUTE: decimal(0.001).default(DEFAULT_QUOTA_POLICY.clientPerMinute),
  DOWNLOADS_PER_TENANT: whole(1, 64).default(DEFAULT_DOWNLOAD_SETTINGS.perTenant),
  DOWNLOAD_IDLE_TIMEOUT_MS: whole(100).default(DEFAULT_DOWNLOAD_SETTINGS.idleMs),
  DOWNLOAD_MAX_MS: whole(1_000).default(DEFAULT_DOWNLOAD_SETTINGS.maxMs),
  HTTP_REQUEST_TIMEOUT_MS: whole(100).default(DEFAULT_HTTP_LIMITS.requestTimeoutMs),
  // No default here: unset, it is 15 s or the request timeout if that is shorter (see loadConfig).
  HTTP_HEADERS_TIMEOUT_MS: whole(100).optional(),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: whole(0).default(DEFAULT_HTTP_LIMITS.keepAliveTimeoutMs),
  HTTP_MAX_CONNECTIONS: whole(1).default(DEFAULT_HTTP_LIMITS.maxConnections),
  HTTP_MAX_CONNECTIONS_PER_ADDRESS: whole(1).default(DEFAULT_HTTP_LIMITS.maxConnectionsPerAddress),
  PUBLIC_URL: httpUrl.optional(),
  // One key, or several comma-separated while they rotate (the first signs): each at least 32 characters.
  DOWNLOAD_LINK_SECRET: z
    .string()
    .refine(
      (value) => downloadLinkKeys(value).length > 0 && downloadLinkKeys(value).every((key) => key.length >= 32),
      'must be at least 32 characters',
    )
    .optional(),
  ...FEE_SETTINGS,
  APQ_MAX_ENTRIES_PER_ORGANISATION: whole(1).default(DEFAULT_APQ_LIMITS.maxPerOrganisation),
  APQ_MAX_TOTAL_BYTES: whole(1024).default(DEFAULT_APQ_LIMITS.maxTotalBytes),
  APQ_REGISTRATIONS_PER_MINUTE: whole(0).default(DEFAULT_APQ_REGISTRATIONS_PER_MINUTE),
  CLIENT_DAILY_SPEND_LIMIT: amount.optional(),
  ORGANISATION_DAILY_SPEND_LIMIT: amount.optional(),
});

/**
 * Every setting, parsed. Its sections have the shapes the modules that use them take
 * (`ServiceSettings` for createServices, `AppOptions` for createApp), so main.ts hands them on
 * as they are, and a new setting touches config.ts and the module that uses it.
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
  register?: {
    baseUrl: string;
    tenants: TenantConfig[];
    organisations: OrganisationsConfig;
    clients: ClientsConfig;
    identityProviders: IdentityProviderConfig[];
  };
  /** The automatic persisted query store's bounds, and each API client's registrations a minute. */
  apq: ApqLimits & { registrationsPerMinute: number };
  /** Compile documents that keep coming back with graphql-jit, after this many runs (src/server/jit.ts); false: never. */
  jit: false | { compileAfter: number };
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

export class ConfigError extends Error {}

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

/** Reads one or more codegen persisted-document files; a bad file is a ConfigError naming the setting (PERSISTED_OPERATIONS_FILE). */
export function loadPersistedOperations(files: readonly string[], only: boolean): PersistedOperations {
  const store = new Map<string, string>();
  for (const file of files) {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      throw new ConfigError(`PERSISTED_OPERATIONS_FILE: ${file} cannot be read as JSON`);
    }
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) {
      throw new ConfigError(`PERSISTED_OPERATIONS_FILE: ${file} must be a JSON object of id → operation text`);
    }
    for (const [key, value] of Object.entries(raw)) {
      const id = normaliseOperationId(key);
      if (!PREFIXED_OPERATION_ID.test(id) || typeof value !== 'string') {
        throw new ConfigError(`PERSISTED_OPERATIONS_FILE: ${file}: entry "${key}" is not an id → operation text`);
      }
      try {
        parse(value);
      } catch {
        throw new ConfigError(`PERSISTED_OPERATIONS_FILE: ${file}: operation "${key}" is not valid GraphQL`);
      }
      const existing = store.get(id);
      if (existing !== undefined && existing !== value) {
        throw new ConfigError(`PERSISTED_OPERATIONS_FILE: id "${key}" is listed twice with different operations`);
      }
      store.set(id, value);
    }
  }
  return { store, only };
}

function persistedOperations(e: z.infer<typeof Env>): Pick<AppConfig, 'persistedOperations'> {
  const files = (e.PERSISTED_OPERATIONS_FILE ?? '')
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  if (files.length === 0) {
    if (e.PERSISTED_OPERATIONS_ONLY) {
      throw new ConfigError('PERSISTED_OPERATIONS_ONLY is true but PERSISTED_OPERATIONS_FILE is not set');
    }
    return {};
  }
  return { persistedOperations: loadPersistedOperations(files, e.PERSISTED_OPERATIONS_ONLY) };
}

/** The tenants file, or a ConfigError naming TITLEGRAPH_TENANTS_FILE and what is wrong with it. */
function readTenantsFile(path: string): z.infer<typeof TenantFile> {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: string }).code;
    const why =
      code === 'ENOENT' ? 'there is no such file' : code === 'EISDIR' ? 'it is a folder' : code === 'EACCES' ? 'it may not be read' : code;
    throw new ConfigError(`Invalid configuration: TITLEGRAPH_TENANTS_FILE ${JSON.stringify(path)} cannot be read: ${why}.`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(
      `Invalid configuration: TITLEGRAPH_TENANTS_FILE ${JSON.stringify(path)} is not JSON (${(error as Error).message}).`,
    );
  }
  const file = TenantFile.safeParse(raw);
  if (!file.success) {
    const problems = file.error.issues.map((i) => `${i.path.length ? i.path.join('.') : 'the file'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration: TITLEGRAPH_TENANTS_FILE ${JSON.stringify(path)}: ${problems.join('; ')}.`);
  }
  return file.data;
}

function realTenants(e: z.infer<typeof Env>): Omit<NonNullable<AppConfig['register']>, 'baseUrl'> {
  const tenants: TenantConfig[] = [];
  let organisations: OrganisationsConfig = {};
  let clients: ClientsConfig = {};
  let identityProviders: IdentityProviderConfig[] = [];
  if (e.TITLEGRAPH_TENANTS_FILE) {
    const file = readTenantsFile(e.TITLEGRAPH_TENANTS_FILE);
    tenants.push(...file.tenants);
    organisations = file.organisations ?? {};
    clients = file.clients ?? {};
    identityProviders = file.identityProviders ?? [];
  }
  if (e.REGISTER_CLIENT_ID || e.REGISTER_CLIENT_SECRET || e.TITLEGRAPH_API_KEY_SHA256) {
    if (!e.REGISTER_CLIENT_ID || !e.REGISTER_CLIENT_SECRET || !e.TITLEGRAPH_API_KEY_SHA256) {
      throw new ConfigError(
        'Invalid configuration: REGISTER_CLIENT_ID, REGISTER_CLIENT_SECRET and TITLEGRAPH_API_KEY_SHA256 must be set together (or use TITLEGRAPH_TENANTS_FILE).',
      );
    }
    tenants.push({
      name: 'default',
      apiKeySha256: e.TITLEGRAPH_API_KEY_SHA256,
      clientId: e.REGISTER_CLIENT_ID,
      clientSecret: e.REGISTER_CLIENT_SECRET,
    });
  }
  if (tenants.length === 0 && identityProviders.length === 0) {
    throw new ConfigError(
      'Invalid configuration: REGISTER_BASE_URL is set but no tenant is: set TITLEGRAPH_TENANTS_FILE, or REGISTER_CLIENT_ID, REGISTER_CLIENT_SECRET and TITLEGRAPH_API_KEY_SHA256.',
    );
  }
  return { tenants, organisations, clients, identityProviders };
}
