/**
 * The environment's settings: the `Env` schema (every setting, its rule and its default, which is the
 * using module's DEFAULT_…) and the small parsers its rules are made of.
 */
import { z } from 'zod';
import { DEFAULT_COMPILE_AFTER, DEFAULT_HTTP_LIMITS, DEFAULT_SHUTDOWN_DEADLINE_MS } from '../server/settings';
import { DEFAULT_LIMITS } from '../security/settings';
import { AMOUNT_RULE, CHARGEABLE_PRODUCTS, type ChargeableProduct, penceOf } from '../register/contract/money';
import { DEFAULT_CALL_DEADLINE_MS } from '../register/client/settings';
import {
  DEFAULT_DOWNLOAD_SETTINGS,
  DEFAULT_FEES_PENCE,
  DEFAULT_IDENTITY_TIMING,
  DEFAULT_JOURNAL_RETENTION_DAYS,
  DEFAULT_QUOTA_POLICY,
  DEFAULT_READ_SETTINGS,
  DEFAULT_TOKEN_FAILURES_PER_MINUTE,
  DEFAULT_TOKEN_MAX_LIFETIME_SECONDS,
  downloadLinkKeys,
  issuerProblem,
  MIN_JOURNAL_RETENTION_DAYS,
  STATEMENT_MAX_DAYS,
} from '../services/settings';
import { DEFAULT_READY_TIMEOUT_MS } from '../observability/settings';
import { DEFAULT_APQ_LIMITS, DEFAULT_APQ_REGISTRATIONS_PER_MINUTE, DEFAULT_DATABASE_MAX_CONNECTIONS } from '../storage/settings';

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
export const amount = z
  .string()
  .refine((v) => penceOf(v) !== undefined, AMOUNT_RULE)
  .transform((v) => penceOf(v)!);

const JOURNAL_RETENTION_RULE = `must be a whole number of days of at least ${MIN_JOURNAL_RETENTION_DAYS}, so that a statement (up to ${STATEMENT_MAX_DAYS} register days) is never missing days the journal has dropped`;

/** FEE_<product>: each product's list fee, one setting per product of the contract's list. */
const FEE_SETTINGS = Object.fromEntries(
  CHARGEABLE_PRODUCTS.map((product) => [feeSetting(product), amount.default(DEFAULT_FEES_PENCE[product])]),
) as { [P in ChargeableProduct as `FEE_${P}`]: z.ZodDefault<typeof amount> };

export function feeSetting<P extends ChargeableProduct>(product: P): `FEE_${P}` {
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
  TOKEN_RECHECK_SECONDS: whole(1, 3600).default(DEFAULT_IDENTITY_TIMING.recheckMs / 1000),
  TOKEN_MAX_LIFETIME_SECONDS: whole(60, 86_400).default(DEFAULT_TOKEN_MAX_LIFETIME_SECONDS),
  TOKEN_FAILURES_PER_MINUTE: whole(1, 100_000).default(DEFAULT_TOKEN_FAILURES_PER_MINUTE),
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
  QUOTA_LEASE_MS: whole(0, 10_000).default(DEFAULT_QUOTA_POLICY.leaseMs),
  QUOTA_LEASE_CALLS: whole(1, 1_000).optional(),
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

/** The settings as the schema parsed them, before loadConfig puts them in sections. */
export type Settings = z.infer<typeof Env>;
