/**
 * The services' settings: their shapes and defaults, and the checks config/ makes of their
 * values. A leaf without side effects (it imports only the register contract and Node's net
 * module), so that reading the settings loads nothing of the services themselves.
 */
import { BlockList, isIP } from 'node:net';
import { type ChargeableProduct, perProduct } from '../register/contract/money';

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
