/**
 * The services' settings: their shapes and defaults, and the checks config/ makes of their
 * values. A leaf without side effects (it imports only the register contract's money, Node's net
 * module, storage's settings and the list of scopes, none of which imports anything of ours), so
 * that reading the settings loads nothing of the services themselves.
 */
import { BlockList, isIP } from 'node:net';
import { type ChargeableProduct, perProduct } from '../register/contract/money';
import type { ApqLimits } from '../storage/settings';
import type { Scope } from './scopes';

/**
 * The scopes a key of the tenants file may be given, for config/'s check of its `scopes`: the one
 * list is scopes.ts, which imports nothing.
 */
export { ALL_SCOPES, isScope } from './scopes';

/** The register's list fees, before VAT, in pence (FEE_<product> settings): 3.00 each. */
export const DEFAULT_FEES_PENCE: Readonly<Record<ChargeableProduct, number>> = perProduct(() => 300);

export interface IdentityTiming {
  /** Keys are fetched again at most this often when a token names a key we do not hold (ms). */
  jwksCooldownMs: number;
  /** Keys this old are fetched again in the background; the ones held keep serving meanwhile (ms). */
  jwksMaxAgeMs: number;
  /** After a failed fetch, the next is tried no sooner than this (ms): an outage is not a fetch per request. */
  failureBackoffMs: number;
  /** A discovery or key-set fetch taking longer than this is given up (ms). */
  fetchTimeoutMs: number;
  /**
   * A token verified longer ago than this is verified again, against a key set no older than this
   * (ms): a key its provider withdrew stops verifying within this time (TOKEN_RECHECK_SECONDS).
   */
  recheckMs: number;
}

/** A rotation is accepted within 30 s of the first token under the new key; a stale key set is renewed every 10 min. */
export const DEFAULT_IDENTITY_TIMING: IdentityTiming = {
  jwksCooldownMs: 30_000,
  jwksMaxAgeMs: 10 * 60_000,
  failureBackoffMs: 5_000,
  fetchTimeoutMs: 5_000,
  recheckMs: 60_000,
};

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/**
 * Why an issuer (or a key-set address) cannot be trusted, or undefined when it can: https, or
 * http on a loopback address only (tests and local trials), in every mode. A name such as
 * `localhost` is not an address: it could resolve elsewhere.
 */
export function issuerProblem(address: string): string | undefined {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return 'is not a URL';
  }
  if (url.protocol === 'https:') return undefined;
  if (url.protocol !== 'http:') return 'must be an https:// address';
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const family = isIP(host);
  if (family !== 0 && LOOPBACK.check(host, family === 4 ? 'ipv4' : 'ipv6')) return undefined;
  return 'must be an https:// address (http:// only on a loopback address: 127.0.0.1 or [::1])';
}

/** The longest lifetime (`exp - iat`) a token may have, in seconds (TOKEN_MAX_LIFETIME_SECONDS). */
export const DEFAULT_TOKEN_MAX_LIFETIME_SECONDS = 3600;

/** Failures a minute one address may cost (TOKEN_FAILURES_PER_MINUTE). */
export const DEFAULT_TOKEN_FAILURES_PER_MINUTE = 60;

export const DEFAULT_REFERENCE_LIST_TTL_MS = 60_000;

/**
 * How reads reach the register: calls at once per request, how long reference lists and (per
 * tenant) summaries are kept, and whether securities are fetched alongside summaries.
 */
export interface ReadSettings {
  /** Register calls one request may have in flight (REGISTER_CONCURRENCY). */
  concurrency: number;
  /** REFERENCE_LIST_TTL_MS; see reference-lists.ts. */
  referenceListTtlMs: number;
  /** SUMMARY_CACHE_TTL_MS; 0 = off. See summary-cache.ts. */
  summaryCacheTtlMs: number;
  /** SECURITIES_PREFETCH: one round of calls rather than two when a query selects securities. */
  prefetchSecurities: boolean;
}

export const DEFAULT_READ_SETTINGS: ReadSettings = {
  concurrency: 16,
  referenceListTtlMs: DEFAULT_REFERENCE_LIST_TTL_MS,
  summaryCacheTtlMs: 0,
  prefetchSecurities: true,
};

/** Register days a statement may cover at most. */
export const STATEMENT_MAX_DAYS = 366;

/**
 * Days the charge journal is kept (JOURNAL_RETENTION_DAYS): longer than the longest statement,
 * so that a statement of the last 366 days is whole, and finance can reconcile a year with the
 * register's invoices with some margin.
 */
export const DEFAULT_JOURNAL_RETENTION_DAYS = 400;
/** Shorter, and a statement the service accepts would miss days it once held. */
export const MIN_JOURNAL_RETENTION_DAYS = STATEMENT_MAX_DAYS + 1;

/** When a download is closed: its caller stopped reading for `idleMs`, or it ran `maxMs` in all. */
export interface DownloadLimits {
  /** Close when the caller has read nothing for this long while bytes wait for it. */
  idleMs: number;
  /** Close after this long in all. */
  maxMs: number;
}

/** Downloads at once per tenant on this replica, and when one is closed (DOWNLOADS_PER_TENANT, DOWNLOAD_*). */
export interface DownloadSettings extends DownloadLimits {
  perTenant: number;
}

export const DEFAULT_DOWNLOAD_SETTINGS: DownloadSettings = { perTenant: 4, idleMs: 30_000, maxMs: 10 * 60_000 };

/** The keys of a DOWNLOAD_LINK_SECRET setting: comma-separated, the first signs; blanks around them ignored. */
export function downloadLinkKeys(setting: string): string[] {
  return setting
    .split(',')
    .map((key) => key.trim())
    .filter((key) => key !== '');
}

/** One identity provider of the tenants file: whose tokens are accepted, and the register API client its people's calls are made with. */
export interface IdentityProviderConfig {
  name: string;
  /** The `iss` of its tokens, exactly; its discovery document is `<issuer>/.well-known/openid-configuration`. */
  issuer: string;
  /** A token's `aud` must contain this. */
  audience: string;
  /** The register organisation its people belong to. */
  organisation: string;
  /** The register API client its people's calls are made with (all of them share it). */
  clientId: string;
  clientSecret: string;
  /** Each person's own daily spending limit, in pence; none when absent. */
  dailySpendLimitPerPerson?: number | undefined;
  /**
   * Accept tokens typed `JWT` (or untyped) as well as RFC 9068's `at+jwt`, for a provider that
   * cannot type its access tokens; its ID tokens can then no longer be told from access tokens.
   */
  acceptJwtTyp?: boolean | undefined;
}

/**
 * With the embedded emulator (EMULATOR_IDENTITY_ISSUER): the people of a local OpenID provider
 * act as client-a of ORG-A, each with their own 30.00 a day, asking for the audience `titlegraph`.
 */
export const devIdentityProvider = (issuer: string): IdentityProviderConfig => ({
  name: 'local-idp',
  issuer,
  audience: 'titlegraph',
  organisation: 'ORG-A',
  clientId: 'client-a',
  clientSecret: 'secret-a',
  dailySpendLimitPerPerson: 3000,
});

export interface QuotaPolicy {
  /** The register's calls per organisation per day (2,000). */
  dailyQuota: number;
  /** Share of the day's calls that free reads may use (default 0.9); the rest is for paid work. */
  freeShare: number;
  /** Each API client's bucket: at most this many calls in a burst (0: no bucket). */
  clientBurst: number;
  /** …refilled at this many calls a minute. */
  clientPerMinute: number;
  /** A lease's lifetime, ms (QUOTA_LEASE_MS; services/quota-leases.ts); 0: every call admitted on its own. */
  leaseMs: number;
  /** A lease's size, fixed (QUOTA_LEASE_CALLS); absent: adaptive. */
  leaseCalls?: number | undefined;
}

export const DEFAULT_QUOTA_POLICY: QuotaPolicy = {
  dailyQuota: 2_000,
  freeShare: 0.9,
  clientBurst: 500,
  clientPerMinute: 120,
  leaseMs: 250,
};

/** Per API client in the tenants file: its daily spending limit (pence), overriding CLIENT_DAILY_SPEND_LIMIT. */
export type ClientsConfig = Readonly<Record<string, { dailySpendLimit?: number | undefined }>>;

/** Per organisation in the tenants file: its daily spending limit (pence) and its title-information charging accounts. */
export type OrganisationsConfig = Readonly<
  Record<string, { dailySpendLimit?: number | undefined; fasAccounts?: readonly string[] | undefined }>
>;

export interface SpendSettings {
  feesPence: Readonly<Record<ChargeableProduct, number>>;
  /** CLIENT_DAILY_SPEND_LIMIT: every API client's, unless the tenants file sets its own. */
  clientLimitPence?: number;
  /** ORGANISATION_DAILY_SPEND_LIMIT: every organisation's, unless the tenants file sets its own. */
  organisationLimitPence?: number;
}

/** An API key of the tenants file (config/tenants-file.ts reads and checks it against this shape). */
export interface ApiKeyConfig {
  name: string;
  /** The hex SHA-256 of the caller's API key. */
  apiKeySha256: string;
  /** The register API client this key acts as; none for a router. */
  clientId?: string | undefined;
  clientSecret?: string | undefined;
  /** The register organisation owning the client (its quota is the organisation's); default: the client id. */
  organisation?: string | undefined;
  /** A federation router's key: it reads the schema (`_service { sdl }`) and nothing else. */
  router?: boolean | undefined;
  /** An accounts key: its charge statements cover every API client of its organisation (the charges:organisation scope). */
  accounts?: boolean | undefined;
  /** This key's own daily spending limit in pence (its API client's is CLIENT_DAILY_SPEND_LIMIT or `clients` in the file). */
  dailySpendLimit?: number | undefined;
  /** What the key may do; default: every scope but charges:organisation. */
  scopes?: Scope[] | undefined;
}

/**
 * The settings createServices takes: sections of `AppConfig` (config/ reads them, with the
 * defaults the modules here own), so a production start and the tests pass the same shape.
 */
export interface ServiceSettings {
  /** The folder of the embedded SQLite stores (when there is no databaseUrl). */
  dataDir: string;
  /** PostgreSQL shared by the replicas (DATABASE_URL): the quota ledger and the APQ store. */
  databaseUrl?: string;
  /** Connections this replica opens to it, its stores together (DATABASE_MAX_CONNECTIONS; default DEFAULT_DATABASE_MAX_CONNECTIONS). */
  databaseMaxConnections?: number;
  reads: ReadSettings;
  /** Daily quota, reserve for paid work and per-client budget; see QuotaPolicy. */
  quota: QuotaPolicy;
  /** List fees and the daily spending limits of every tenant. */
  spend: SpendSettings;
  /** Bounds of the automatic persisted query store (entries per organisation, total bytes). */
  apq: ApqLimits;
  downloads: DownloadSettings;
  /** Key that signs download links (shared by replicas), or keys comma-separated while they rotate (the first signs); absent: a random key of this process. */
  downloadLinkSecret?: string;
  /** The public base address of this service, for absolute download links; absent: each request's origin. */
  publicUrl?: string;
  /** The longest one register call runs (REGISTER_CALL_DEADLINE_MS); absent: DEFAULT_CALL_DEADLINE_MS. */
  registerCallDeadlineMs?: number;
  /** Days the charge journal is kept (JOURNAL_RETENTION_DAYS); absent: DEFAULT_JOURNAL_RETENTION_DAYS. */
  journalRetentionDays?: number;
}
