/**
 * The only reader of process.env. Every setting is parsed with zod at start; a bad value
 * stops the process with a message naming the setting (never its value, which may be secret).
 */
import { readFileSync } from 'node:fs';
import { DEFAULT_HTTP_LIMITS, type HttpLimits } from './server/serve';
import { DEFAULT_COMPILE_AFTER } from './server/jit';
import { z } from 'zod';
import { DEFAULT_LIMITS } from './security/limits';
import type { HardeningOptions } from './security/limits';
import { AMOUNT_RULE, penceOf } from './register/contract/money';
import { DEFAULT_FEES_PENCE, type OrganisationsConfig, type SpendSettings } from './services/spend';

const bool = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

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

const TenantFile = z.object({
  /** Per organisation: its daily spending limit, and its charging accounts (quotes refuse any other). */
  organisations: z
    .record(
      z.string().min(1),
      z.object({
        dailySpendLimit: amount.optional(),
        fasAccounts: z.array(z.string().regex(/^\d{4,6}$/, 'must be 4 to 6 digits')).optional(),
      }),
    )
    .optional(),
  tenants: z
    .array(
      z.object({
        name: z.string().min(1),
        apiKeySha256: z.string().regex(/^[0-9a-f]{64}$/, 'must be the hex SHA-256 of the API key'),
        clientId: z.string().min(1),
        clientSecret: z.string().min(1),
        /** The register organisation owning the client (its quota is the organisation's); default: the client id. */
        organisation: z.string().min(1).optional(),
        /** A federation router's key: it may read `_service { sdl }` when introspection is off. */
        router: z.boolean().optional(),
        /** An accounts key: its charge statements cover every API client of its organisation. */
        accounts: z.boolean().optional(),
        /** This API client's daily spending limit, overriding CLIENT_DAILY_SPEND_LIMIT. */
        dailySpendLimit: amount.optional(),
      }),
    )
    .min(1),
});
export type TenantConfig = z.infer<typeof TenantFile>['tenants'][number];

const Env = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(4000),
  HOST: z.string().min(1).optional(),
  DATA_DIR: z.string().min(1).default('data'),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\/\S+$/, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  SHUTDOWN_DEADLINE_MS: z.coerce.number().int().min(0).default(25_000),
  REGISTER_BASE_URL: z.url().optional(),
  REGISTER_CLIENT_ID: z.string().min(1).optional(),
  REGISTER_CLIENT_SECRET: z.string().min(1).optional(),
  TITLEGRAPH_API_KEY_SHA256: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'must be the hex SHA-256 of the API key')
    .optional(),
  TITLEGRAPH_TENANTS_FILE: z.string().min(1).optional(),
  REGISTER_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16),
  REFERENCE_LIST_TTL_MS: z.coerce.number().int().min(0).default(60_000),
  SUMMARY_CACHE_TTL_MS: z.coerce.number().int().min(0).max(3_600_000).default(0),
  EMULATOR_HOST: z.string().min(1).default('127.0.0.1'),
  EMULATOR_PORT: z.coerce.number().int().min(0).max(65535).default(4010),
  EMULATOR_LATENCY_MS: z.coerce.number().int().min(0).default(0),
  GRAPHIQL: bool.optional(),
  SECURITIES_PREFETCH: bool.default(true),
  GRAPHQL_JIT: bool.default(true),
  GRAPHQL_JIT_AFTER: z.coerce.number().int().min(1).max(1_000_000).default(DEFAULT_COMPILE_AFTER),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  INTROSPECTION: bool.optional(),
  MAX_DEPTH: z.coerce.number().int().min(1).default(DEFAULT_LIMITS.maxDepth),
  MAX_ALIASES: z.coerce.number().int().min(0).default(DEFAULT_LIMITS.maxAliases),
  MAX_TOKENS: z.coerce.number().int().min(10).default(DEFAULT_LIMITS.maxTokens),
  MAX_DIRECTIVES: z.coerce.number().int().min(0).default(DEFAULT_LIMITS.maxDirectives),
  MAX_COST: z.coerce.number().int().min(1).default(DEFAULT_LIMITS.maxCost),
  MAX_DOCUMENT_BYTES: z.coerce.number().int().min(100).default(DEFAULT_LIMITS.maxDocumentBytes),
  MAX_BODY_BYTES: z.coerce.number().int().min(1000).default(DEFAULT_LIMITS.maxBodyBytes),
  PERSISTED_OPERATIONS_FILE: z.string().min(1).optional(),
  PERSISTED_OPERATIONS_ONLY: bool.default(false),
  CORS_ORIGINS: corsOrigins.default([]),
  METRICS_ENABLED: bool.default(true),
  READY_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(2_000),
  OTEL_ENABLED: bool.default(false),
  OTEL_SDK_DISABLED: bool.optional(),
  REGISTER_DAILY_QUOTA: z.coerce.number().int().min(1).default(2_000),
  REGISTER_FREE_SHARE: z.coerce.number().min(0).max(1).default(0.9),
  CLIENT_BUDGET_BURST: z.coerce.number().int().min(0).default(500),
  CLIENT_BUDGET_PER_MINUTE: z.coerce.number().min(0.001).default(120),
  DOWNLOADS_PER_TENANT: z.coerce.number().int().min(1).max(64).default(4),
  DOWNLOAD_IDLE_TIMEOUT_MS: z.coerce.number().int().min(100).default(30_000),
  DOWNLOAD_MAX_MS: z.coerce.number().int().min(1_000).default(600_000),
  HTTP_REQUEST_TIMEOUT_MS: z.coerce.number().int().min(100).default(DEFAULT_HTTP_LIMITS.requestTimeoutMs),
  // No default here: unset, it is 15 s or the request timeout if that is shorter (see loadConfig).
  HTTP_HEADERS_TIMEOUT_MS: z.coerce.number().int().min(100).optional(),
  HTTP_KEEP_ALIVE_TIMEOUT_MS: z.coerce.number().int().min(0).default(DEFAULT_HTTP_LIMITS.keepAliveTimeoutMs),
  HTTP_MAX_CONNECTIONS: z.coerce.number().int().min(1).default(DEFAULT_HTTP_LIMITS.maxConnections),
  PUBLIC_URL: z.url({ protocol: /^https?$/ }).optional(),
  DOWNLOAD_LINK_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  FEE_TITLE_DATA_AND_PLANS: amount.default(DEFAULT_FEES_PENCE.TITLE_DATA_AND_PLANS),
  FEE_PENDING_APPLICATIONS: amount.default(DEFAULT_FEES_PENCE.PENDING_APPLICATIONS),
  CLIENT_DAILY_SPEND_LIMIT: amount.optional(),
  ORGANISATION_DAILY_SPEND_LIMIT: amount.optional(),
});

export interface AppConfig {
  env: 'development' | 'production' | 'test';
  port: number;
  host?: string;
  dataDir: string;
  /** PostgreSQL idempotency store shared by replicas; absent: embedded SQLite in dataDir. */
  databaseUrl?: string;
  /** After SIGTERM, in-flight requests get this long to finish; then the process exits 1. */
  shutdownDeadlineMs: number;
  /** Absent: run the embedded emulator with the dev tenants. */
  register?: { baseUrl: string; tenants: TenantConfig[]; organisations: OrganisationsConfig };
  /** List fees and the daily spending limits that apply to every tenant (src/services/spend.ts). */
  spend: SpendSettings;
  concurrency: number;
  referenceListTtlMs: number;
  /** Per-tenant cache of title summaries; 0 = off (src/services/summary-cache.ts). */
  summaryCacheTtlMs: number;
  /** Fetch securities listings alongside summaries (one round of calls) rather than after them. */
  prefetchSecurities: boolean;
  /** Compile documents that keep coming back with graphql-jit, after this many runs (src/server/jit.ts); false: never. */
  jit: false | { compileAfter: number };
  emulator: { host: string; port: number; latencyMs: number };
  graphiql: boolean;
  /** pino level of the JSON logs on stdout. */
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Abuse limits; introspection and field suggestions are off in production unless asked. */
  hardening: HardeningOptions;
  /** Codegen persisted-document files (hash → query), and whether only those operations are accepted. */
  persistedOperations?: { files: string[]; only: boolean };
  /** Front-end origins allowed by CORS (`*`: any); empty: no CORS headers. */
  corsOrigins: string[];
  /** GET /metrics on or off, /ready's register probe timeout, OpenTelemetry spans of register calls. */
  observability: { metrics: boolean; readyTimeoutMs: number; tracing: boolean };
  /** The organisation's daily register quota, the share free reads may use, and each client's burst budget. */
  quota: { dailyQuota: number; freeShare: number; clientBurst: number; clientPerMinute: number };
  /** Concurrent downloads per tenant (per replica), and when a download is closed. */
  downloads: { perTenant: number; idleMs: number; maxMs: number };
  /** Limits of the HTTP server: request and header timeouts, keep-alive, open connections. */
  http: HttpLimits;
  /** The service's public base address, for absolute download links; absent: each request's origin. */
  publicUrl?: string;
  /** Signs download links; required with DATABASE_URL (replicas must sign alike). */
  downloadLinkSecret?: string;
}

export class ConfigError extends Error {}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const names = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration: ${names.join('; ')}`);
  }
  const e = parsed.data;
  if (e.HTTP_HEADERS_TIMEOUT_MS !== undefined && e.HTTP_HEADERS_TIMEOUT_MS > e.HTTP_REQUEST_TIMEOUT_MS) {
    // Node refuses a server whose headers may take longer than the whole request.
    throw new ConfigError('Invalid configuration: HTTP_HEADERS_TIMEOUT_MS: must not exceed HTTP_REQUEST_TIMEOUT_MS');
  }
  if (e.DATABASE_URL && !e.DOWNLOAD_LINK_SECRET) {
    throw new ConfigError(
      'Invalid configuration: DOWNLOAD_LINK_SECRET: required when DATABASE_URL is set (replicas must sign download links with one key); at least 32 characters',
    );
  }
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    ...(e.HOST ? { host: e.HOST } : {}),
    dataDir: e.DATA_DIR,
    ...(e.DATABASE_URL ? { databaseUrl: e.DATABASE_URL } : {}),
    shutdownDeadlineMs: e.SHUTDOWN_DEADLINE_MS,
    ...(e.REGISTER_BASE_URL ? { register: { baseUrl: e.REGISTER_BASE_URL, ...realTenants(e) } } : {}),
    spend: {
      feesPence: { TITLE_DATA_AND_PLANS: e.FEE_TITLE_DATA_AND_PLANS, PENDING_APPLICATIONS: e.FEE_PENDING_APPLICATIONS },
      ...(e.CLIENT_DAILY_SPEND_LIMIT !== undefined ? { clientLimitPence: e.CLIENT_DAILY_SPEND_LIMIT } : {}),
      ...(e.ORGANISATION_DAILY_SPEND_LIMIT !== undefined ? { organisationLimitPence: e.ORGANISATION_DAILY_SPEND_LIMIT } : {}),
    },
    concurrency: e.REGISTER_CONCURRENCY,
    referenceListTtlMs: e.REFERENCE_LIST_TTL_MS,
    summaryCacheTtlMs: e.SUMMARY_CACHE_TTL_MS,
    prefetchSecurities: e.SECURITIES_PREFETCH,
    jit: e.GRAPHQL_JIT && { compileAfter: e.GRAPHQL_JIT_AFTER },
    emulator: { host: e.EMULATOR_HOST, port: e.EMULATOR_PORT, latencyMs: e.EMULATOR_LATENCY_MS },
    graphiql: e.GRAPHIQL ?? e.NODE_ENV !== 'production',
    logLevel: e.LOG_LEVEL,
    corsOrigins: e.CORS_ORIGINS,
    observability: {
      metrics: e.METRICS_ENABLED,
      readyTimeoutMs: e.READY_TIMEOUT_MS,
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
    },
    ...(e.PUBLIC_URL ? { publicUrl: e.PUBLIC_URL } : {}),
    ...(e.DOWNLOAD_LINK_SECRET ? { downloadLinkSecret: e.DOWNLOAD_LINK_SECRET } : {}),
    ...persistedOperations(e),
  };
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
  return { persistedOperations: { files, only: e.PERSISTED_OPERATIONS_ONLY } };
}

function realTenants(e: z.infer<typeof Env>): { tenants: TenantConfig[]; organisations: OrganisationsConfig } {
  const tenants: TenantConfig[] = [];
  let organisations: OrganisationsConfig = {};
  if (e.TITLEGRAPH_TENANTS_FILE) {
    let raw: unknown;
    try {
      raw = JSON.parse(readFileSync(e.TITLEGRAPH_TENANTS_FILE, 'utf8'));
    } catch {
      throw new ConfigError('TITLEGRAPH_TENANTS_FILE: cannot be read as JSON');
    }
    const file = TenantFile.safeParse(raw);
    if (!file.success) {
      throw new ConfigError(`TITLEGRAPH_TENANTS_FILE: ${file.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    }
    tenants.push(...file.data.tenants);
    organisations = file.data.organisations ?? {};
  }
  if (e.REGISTER_CLIENT_ID || e.REGISTER_CLIENT_SECRET || e.TITLEGRAPH_API_KEY_SHA256) {
    if (!e.REGISTER_CLIENT_ID || !e.REGISTER_CLIENT_SECRET || !e.TITLEGRAPH_API_KEY_SHA256) {
      throw new ConfigError('REGISTER_CLIENT_ID, REGISTER_CLIENT_SECRET and TITLEGRAPH_API_KEY_SHA256 must be set together');
    }
    tenants.push({
      name: 'default',
      apiKeySha256: e.TITLEGRAPH_API_KEY_SHA256,
      clientId: e.REGISTER_CLIENT_ID,
      clientSecret: e.REGISTER_CLIENT_SECRET,
    });
  }
  if (tenants.length === 0) {
    throw new ConfigError(
      'REGISTER_BASE_URL is set but no tenant is: set TITLEGRAPH_TENANTS_FILE, or REGISTER_CLIENT_ID, REGISTER_CLIENT_SECRET and TITLEGRAPH_API_KEY_SHA256',
    );
  }
  return { tenants, organisations };
}
