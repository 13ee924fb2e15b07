/**
 * One identity provider's signing keys: found through its OpenID discovery document
 * (`<issuer>/.well-known/openid-configuration` → `jwks_uri`), kept in memory, and fetched again
 * when a token names a key (`kid`) we do not hold, at most once per cooldown: a provider's key
 * rotation is picked up without a restart, and a flood of made-up `kid`s costs the provider one
 * fetch per cooldown. Keys are chosen and imported by jose (createLocalJWKSet); nothing here
 * touches cryptography.
 *
 * Not jose's createRemoteJWKSet, which fetches a key set by its address with the same cooldown and
 * age defaults: it knows no discovery document (so no check that the document names this issuer,
 * which a misconfigured provider fails: 'misconfigured', never "retry"), replaces the keys it holds
 * with whatever answer comes (a set with no usable key included, which here never replaces them),
 * and tells no caller to come back when a new `kid` arrives within its cooldown (503 with
 * Retry-After here). Each of these is a test of test/security/token-rules.test.ts that fails with
 * it. The keys themselves are jose's: createLocalJWKSet picks and imports them.
 */
import { createLocalJWKSet, errors, type FlattenedJWSInput, type JSONWebKeySet, type JWSHeaderParameters } from 'jose';
import { type IdentityTiming, issuerProblem } from './settings';

/**
 * The provider's discovery document names another issuer: the tenants file or the provider is
 * misconfigured, which no retry mends. Said in the log and in the answer, never as "try again".
 */
export class IdentityProviderMisconfigured extends Error {
  override name = 'IdentityProviderMisconfigured';
}

/** The provider's discovery document or keys could not be fetched: nobody can be verified against keys we do not hold. */
export class IdentityProviderUnreachable extends Error {
  override name = 'IdentityProviderUnreachable';
  constructor(
    /** Seconds until the next fetch will be tried. */
    readonly retryAfterSeconds: number,
    cause?: unknown,
  ) {
    super('The identity provider could not be reached to fetch its signing keys.', { cause });
  }
}

export type KeyLookup = (header: JWSHeaderParameters, token: FlattenedJWSInput) => Promise<CryptoKey>;

/** Key types jose can verify our accepted algorithms with; a set with none of them could verify nothing. */
const SIGNING_KEY_TYPES = new Set(['RSA', 'EC', 'OKP']);

/** The `kid`s of a key set's usable signing keys; empty when it holds none (then it must not replace the keys held). */
function signingKids(set: JSONWebKeySet): Set<string | undefined> {
  const keys = Array.isArray(set.keys) ? set.keys : [];
  return new Set(
    keys
      .filter(
        (key) => key && typeof key === 'object' && SIGNING_KEY_TYPES.has(String(key.kty)) && (key.use === undefined || key.use === 'sig'),
      )
      .map((key) => (typeof key.kid === 'string' ? key.kid : undefined)),
  );
}

export class IssuerKeys {
  private keys: { lookup: ReturnType<typeof createLocalJWKSet>; fetchedAt: number } | undefined;
  private jwksUri: URL | undefined;
  private lastAttempt = Number.NEGATIVE_INFINITY;
  private lastFailed = false;
  /** Set while the provider's discovery document names another issuer: every verification says so until it is mended. */
  private misconfigured: IdentityProviderMisconfigured | undefined;
  private pending: Promise<void> | undefined;

  constructor(
    private readonly issuer: string,
    private readonly timing: IdentityTiming,
    /** Told of every fetch's outcome (logs). */
    private readonly onFetch: (outcome: { issuer: string; ok: boolean; reason?: string }) => void = () => undefined,
    /** Told of each key set that replaced the one held: the `kid`s it holds (a verification under any other is dropped). */
    private readonly onKeys: (kids: ReadonlySet<string | undefined>) => void = () => undefined,
  ) {}

  /** jose's key lookup: a key we hold, or after one fetch (within the cooldown) a newly published one. */
  readonly lookup: KeyLookup = async (header, token) => {
    if (!this.keys) await this.refresh();
    else {
      const age = Date.now() - this.keys.fetchedAt;
      // Waited for, so a withdrawn key verifies nothing past the recheck interval; a provider that
      // cannot answer leaves the keys held verifying, as during any outage.
      if (age >= this.timing.recheckMs) await this.refresh().catch(() => undefined);
      else if (age >= this.timing.jwksMaxAgeMs) void this.refresh().catch(() => undefined);
    }
    try {
      return (await this.keys!.lookup(header, token)) as CryptoKey;
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey)) throw error;
      if (Date.now() - this.lastAttempt >= this.timing.jwksCooldownMs) {
        await this.refresh();
        return (await this.keys!.lookup(header, token)) as CryptoKey;
      }
      // The last fetch failed: the key may well exist, we could not look.
      if (this.lastFailed) throw new IdentityProviderUnreachable(this.retryAfterSeconds());
      // Within the cooldown a key published since our last look cannot be seen yet: the person
      // tries again when we may look (503), rather than being signed out (401).
      throw new IdentityProviderUnreachable(this.secondsUntil(this.lastAttempt + this.timing.jwksCooldownMs));
    }
  };

  private retryAfterSeconds(): number {
    return this.secondsUntil(this.lastAttempt + Math.max(this.timing.failureBackoffMs, 1_000));
  }

  private secondsUntil(time: number): number {
    return Math.max(1, Math.ceil((time - Date.now()) / 1000));
  }

  /** One fetch at a time; after a failure, none before the backoff has passed. */
  private refresh(): Promise<void> {
    if (!this.pending && this.lastFailed && Date.now() - this.lastAttempt < this.timing.failureBackoffMs) {
      return Promise.reject(this.misconfigured ?? new IdentityProviderUnreachable(this.retryAfterSeconds()));
    }
    this.pending ??= this.fetchKeys().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async fetchKeys(): Promise<void> {
    this.lastAttempt = Date.now();
    try {
      this.jwksUri ??= await this.discover();
      const set = (await this.getJson(this.jwksUri, 'key set')) as JSONWebKeySet;
      const kids = signingKids(set);
      if (kids.size === 0) throw new Error('the key set holds no usable signing key; the keys held are kept');
      this.keys = { lookup: createLocalJWKSet(set), fetchedAt: Date.now() };
      this.lastFailed = false;
      this.misconfigured = undefined;
      this.onFetch({ issuer: this.issuer, ok: true });
      this.onKeys(kids);
    } catch (error) {
      this.lastFailed = true;
      this.misconfigured = error instanceof IdentityProviderMisconfigured ? error : undefined;
      this.onFetch({ issuer: this.issuer, ok: false, reason: (error as Error).message });
      if (this.misconfigured) throw this.misconfigured;
      throw new IdentityProviderUnreachable(this.retryAfterSeconds(), error);
    }
  }

  /** The key set's address from the discovery document, which must name this very issuer (OpenID Connect Discovery §4.3). */
  private async discover(): Promise<URL> {
    const document = await this.getJson(
      new URL(`${this.issuer.replace(/\/$/, '')}/.well-known/openid-configuration`),
      'discovery document',
    );
    const { issuer, jwks_uri: jwksUri } = document as { issuer?: unknown; jwks_uri?: unknown };
    if (issuer !== this.issuer)
      throw new IdentityProviderMisconfigured(
        `the discovery document of ${this.issuer} names another issuer (${String(issuer)}): the tenants file's issuer must be the one the provider publishes`,
      );
    if (typeof jwksUri !== 'string') throw new Error('the discovery document has no jwks_uri');
    const problem = issuerProblem(jwksUri);
    if (problem) throw new Error(`the discovery document's jwks_uri ${problem}`);
    return new URL(jwksUri);
  }

  private async getJson(url: URL, what: string): Promise<unknown> {
    const response = await fetch(url, {
      headers: { accept: 'application/json' },
      // A redirect could lead off https or off the provider: refused, as jose's remote key set does.
      redirect: 'error',
      signal: AbortSignal.timeout(this.timing.fetchTimeoutMs),
    });
    if (response.status !== 200) {
      await response.body?.cancel();
      throw new Error(`the ${what} answered HTTP ${response.status}`);
    }
    const body: unknown = await response.json();
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new Error(`the ${what} is not a JSON object`);
    return body;
  }
}
