/**
 * People signed in at their organisation's identity provider: OAuth 2.0 JWT access tokens
 * (RFC 9068) from the providers of the tenants file, verified with jose. A token is accepted only
 * when it is signed with an asymmetric algorithm by a key its issuer publishes, `iss` is a
 * configured issuer exactly, `aud` holds that provider's audience, it is within its lifetime (a
 * minute's clock skew allowed), and it names its subject. Verified tokens are kept until they
 * expire, so a token costs a lookup, not a signature check, on every request after its first.
 */
import { decodeJwt, decodeProtectedHeader, errors, jwtVerify, type JWTPayload } from 'jose';
import { IdentityProviderMisconfigured, IdentityProviderUnreachable, IssuerKeys } from './identity-keys';
import { isScope, type Scope } from './scopes';
import { DEFAULT_IDENTITY_TIMING, DEFAULT_TOKEN_MAX_LIFETIME_SECONDS, type IdentityProviderConfig, type IdentityTiming } from './settings';
import { VerificationBudget } from './verification-budget';

export type { IdentityProviderConfig } from './settings';

/** Signature algorithms accepted: asymmetric only (never `none`, never an HMAC whose secret could be a public key). */
export const TOKEN_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'] as const;
/**
 * `typ` of an access token (RFC 9068 §4): `at+jwt`. An ID token is a plain `JWT` (or untyped), and
 * is not a credential for an API: accepted only from a provider whose entry says `acceptJwtTyp`.
 */
const ACCESS_TOKEN_TYPES = new Set(['at+jwt', 'application/at+jwt']);
const PLAIN_JWT_TYPES = new Set(['jwt', 'application/jwt', undefined]);
/** An `exp` past this (the year 5138 in seconds) can only be milliseconds, which RFC 7519 does not allow. */
const LARGEST_EXP_IN_SECONDS = 1e11;
/** C0 and C1 control characters (NUL included): never part of a subject or a name written to the journal. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;
/** A larger credential is refused before it is decoded. */
export const MAX_TOKEN_BYTES = 8 * 1024;
/** Clock skew allowed between the provider and this service, in seconds. */
export const CLOCK_TOLERANCE_SECONDS = 60;
/** Verified tokens kept at most; the oldest goes first. */
export const DEFAULT_TOKEN_CACHE_SIZE = 10_000;
/** A name longer than this is cut: it is written to the journal and statements. */
const MAX_NAME_LENGTH = 200;
const MAX_SUBJECT_LENGTH = 255;

/** A person whose token verified. */
export interface Person {
  provider: IdentityProviderConfig;
  /** `sub`: who the journal names. */
  subject: string;
  /** `name`, else `email`, else `preferred_username`; null when the token has none. */
  name: string | null;
  /** The token's scopes this service knows (others are ignored). */
  scopes: ReadonlySet<Scope>;
  /** When the token expires (ms since epoch): it is not used from the cache after. */
  expiresAt: number;
}

export type TokenCheck =
  | { ok: true; person: Person }
  /** RFC 6750 `invalid_token`, with a description that never repeats the token. */
  | { ok: false; refusal: 'invalid_token'; description: string }
  /** The provider's keys could not be fetched: try again later. */
  | { ok: false; refusal: 'unavailable'; retryAfterSeconds: number }
  /** The provider is misconfigured (its discovery document names another issuer): no retry mends it. */
  | { ok: false; refusal: 'misconfigured'; description: string }
  /** The sender's address spent its budget of failed tokens (verification-budget.ts): not checked. */
  | { ok: false; refusal: 'too_many_failures'; retryAfterSeconds: number };

/** Three base64url segments (the signature may be empty, as in an `alg: none` token): a JWT, not an API key. */
export const looksLikeJwt = (credential: string) => /^[\w-]+\.[\w-]+\.[\w-]*$/.test(credential);

const invalid = (description: string): TokenCheck => ({ ok: false, refusal: 'invalid_token', description });

/** The token's scopes from `scope` (space-separated, RFC 9068) or `scp` (an array, or a string as some providers send). */
function scopesOf(claims: JWTPayload): Set<Scope> {
  const listed: unknown[] = [];
  for (const claim of [claims.scope, claims.scp]) {
    if (typeof claim === 'string') listed.push(...claim.split(' '));
    else if (Array.isArray(claim)) listed.push(...claim);
  }
  return new Set(listed.filter((s): s is Scope => typeof s === 'string' && isScope(s)));
}

/** The name claim a person is shown by: `name`, else `email`, else `preferred_username`. */
function nameClaimOf(claims: JWTPayload): string | undefined {
  for (const claim of [claims.name, claims.email, claims.preferred_username]) {
    if (typeof claim === 'string' && claim.trim() !== '') return claim.trim();
  }
  return undefined;
}

/** What was wrong with a token, in words a developer acts on; jose's own messages may quote claim values. */
function describe(error: unknown, provider: IdentityProviderConfig): string {
  if (error instanceof errors.JWTExpired) return 'the token has expired';
  if (error instanceof errors.JWTClaimValidationFailed) {
    switch (error.claim) {
      case 'aud':
        return `the token's audience (aud) does not include ${provider.audience}`;
      case 'nbf':
        return 'the token is not valid yet (nbf is in the future)';
      case 'sub':
        return 'the token names no subject (sub)';
      case 'exp':
        return error.reason === 'missing' ? 'the token has no expiry (exp)' : 'the token has an invalid expiry (exp)';
      case 'iat':
        return error.reason === 'missing'
          ? 'the token has no issue time (iat), which bounds its lifetime'
          : 'the token has an invalid issue time (iat)';
      default:
        return `the token's ${error.claim} claim is invalid`;
    }
  }
  if (error instanceof errors.JWKSNoMatchingKey) return 'the token is signed with a key its issuer does not publish';
  if (error instanceof errors.JWSSignatureVerificationFailed) return "the token's signature does not verify";
  if (error instanceof errors.JOSEAlgNotAllowed)
    return `the token's signature algorithm is not accepted (only ${TOKEN_ALGORITHMS.join(', ')})`;
  return 'the token could not be verified';
}

/** A verification kept: who, under which of its issuer's keys, and when it was checked. */
interface Verification {
  person: Person;
  kid: string | undefined;
  checkedAt: number;
}

/** Verified tokens by their text, oldest first (a Map keeps insertion order). */
class VerifiedTokens {
  private readonly entries = new Map<string, Verification>();
  constructor(
    private readonly max: number,
    private readonly recheckMs: number,
  ) {}

  // Oldest first out, not least recently used: a token is used until it expires, and moving it to
  // the end on every request (a delete and a set, each hashing a 600-byte key) was most of what a
  // token cost more than a key.
  get(token: string, now: number): Person | undefined {
    const kept = this.entries.get(token);
    if (!kept) return undefined;
    if (kept.person.expiresAt <= now) {
      this.entries.delete(token);
      return undefined;
    }
    // Left in place: verifying it again replaces it, and a refusal drops it.
    if (now - kept.checkedAt >= this.recheckMs) return undefined;
    return kept.person;
  }

  set(token: string, verification: Verification): void {
    this.entries.delete(token);
    this.entries.set(token, verification);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }

  delete(token: string): void {
    this.entries.delete(token);
  }

  /** Drops the verifications of `issuer` under a key its new key set no longer holds. */
  keepOnly(issuer: string, kids: ReadonlySet<string | undefined>): void {
    for (const [token, { person, kid }] of this.entries) {
      if (person.provider.issuer === issuer && !kids.has(kid)) this.entries.delete(token);
    }
  }
}

export interface IdentityOptions {
  timing?: Partial<IdentityTiming>;
  /** Verified tokens kept (DEFAULT_TOKEN_CACHE_SIZE). */
  cacheSize?: number;
  /** The longest `exp - iat` accepted, in seconds (DEFAULT_TOKEN_MAX_LIFETIME_SECONDS). */
  maxLifetimeSeconds?: number;
  /** Told of every fetch of a provider's keys (logs). */
  onKeysFetched?: (outcome: { issuer: string; ok: boolean; reason?: string }) => void;
  /** Failed tokens each address may cost (kept across reloads of the tenants file); default: DEFAULT_TOKEN_FAILURES_PER_MINUTE. */
  budget?: VerificationBudget;
}

export class IdentityProviders {
  private readonly byIssuer = new Map<string, { provider: IdentityProviderConfig; keys: IssuerKeys }>();
  private readonly verified: VerifiedTokens;
  private readonly maxLifetimeSeconds: number;
  private readonly budget: VerificationBudget;

  constructor(
    readonly providers: readonly IdentityProviderConfig[],
    options: IdentityOptions = {},
  ) {
    const timing = { ...DEFAULT_IDENTITY_TIMING, ...options.timing };
    this.verified = new VerifiedTokens(options.cacheSize ?? DEFAULT_TOKEN_CACHE_SIZE, timing.recheckMs);
    this.maxLifetimeSeconds = options.maxLifetimeSeconds ?? DEFAULT_TOKEN_MAX_LIFETIME_SECONDS;
    this.budget = options.budget ?? new VerificationBudget();
    for (const provider of providers) {
      const keys = new IssuerKeys(provider.issuer, timing, options.onKeysFetched, (kids) => this.verified.keepOnly(provider.issuer, kids));
      this.byIssuer.set(provider.issuer, { provider, keys });
    }
  }

  /** `address`: the sender's, whose budget of failed tokens a check that fails spends. */
  async verify(token: string, address = ''): Promise<TokenCheck> {
    const now = Date.now();
    const known = this.verified.get(token, now);
    if (known) return { ok: true, person: known };
    const waitSeconds = this.budget.waitSeconds(address);
    if (waitSeconds > 0) return { ok: false, refusal: 'too_many_failures', retryAfterSeconds: waitSeconds };
    const checked = await this.check(token, now);
    if (!checked.ok) {
      // A token that no longer verifies (its key withdrawn) is forgotten, not served from memory again.
      this.verified.delete(token);
      if (checked.refusal === 'invalid_token') this.budget.failed(address);
    }
    return checked;
  }

  private async check(token: string, now: number): Promise<TokenCheck> {
    if (token.length > MAX_TOKEN_BYTES) return invalid(`the token is ${token.length} bytes; at most ${MAX_TOKEN_BYTES} are accepted`);
    let header: ReturnType<typeof decodeProtectedHeader>;
    let unverified: JWTPayload;
    try {
      header = decodeProtectedHeader(token);
      unverified = decodeJwt(token);
    } catch {
      return invalid('the token is not a well-formed JWT (a JSON header and JSON claims, base64url-encoded, and a signature)');
    }
    if (typeof header.alg !== 'string' || !(TOKEN_ALGORITHMS as readonly string[]).includes(header.alg)) {
      return invalid(`the token's signature algorithm is not accepted (only ${TOKEN_ALGORITHMS.join(', ')})`);
    }
    const issuer = typeof unverified.iss === 'string' ? this.byIssuer.get(unverified.iss) : undefined;
    if (!issuer) return invalid("the token's issuer (iss) is not an identity provider this service trusts");
    const { provider, keys } = issuer;
    const typ = typeof header.typ === 'string' ? header.typ.toLowerCase() : header.typ === undefined ? undefined : String(header.typ);
    if (!ACCESS_TOKEN_TYPES.has(typ as string) && !(provider.acceptJwtTyp && PLAIN_JWT_TYPES.has(typ))) {
      return invalid(
        typ === undefined || PLAIN_JWT_TYPES.has(typ)
          ? 'the token is not an access token: its typ header must be at+jwt (RFC 9068); an ID token is not a credential for this API'
          : 'the token is not an access token (its typ header names another kind of JWT)',
      );
    }
    let claims: JWTPayload;
    try {
      ({ payload: claims } = await jwtVerify(token, keys.lookup, {
        issuer: provider.issuer,
        audience: provider.audience,
        algorithms: [...TOKEN_ALGORITHMS],
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['exp', 'iat', 'sub'],
      }));
    } catch (error) {
      if (error instanceof IdentityProviderUnreachable)
        return { ok: false, refusal: 'unavailable', retryAfterSeconds: error.retryAfterSeconds };
      if (error instanceof IdentityProviderMisconfigured) return { ok: false, refusal: 'misconfigured', description: error.message };
      return invalid(describe(error, provider));
    }
    const exp = claims.exp!;
    const iat = claims.iat!;
    if (exp > LARGEST_EXP_IN_SECONDS) return invalid("the token's expiry (exp) is in milliseconds; JWT times are seconds since 1970");
    if (exp - iat > this.maxLifetimeSeconds) {
      return invalid(`the token lives ${exp - iat} s (exp - iat); at most ${this.maxLifetimeSeconds} s are accepted`);
    }
    // jose checks `iat` only against a maximum age: a token issued in the future is refused here.
    if (typeof claims.iat === 'number' && claims.iat > now / 1000 + CLOCK_TOLERANCE_SECONDS) {
      return invalid('the token was issued in the future (iat)');
    }
    if (typeof claims.sub !== 'string' || claims.sub === '' || claims.sub.length > MAX_SUBJECT_LENGTH) {
      return invalid(`the token's subject (sub) must be a string of 1 to ${MAX_SUBJECT_LENGTH} characters`);
    }
    if (CONTROL_CHARACTER.test(claims.sub)) return invalid("the token's subject (sub) holds a control character");
    const name = nameClaimOf(claims);
    if (name !== undefined && CONTROL_CHARACTER.test(name)) return invalid("the token's name holds a control character");
    const person: Person = {
      provider,
      subject: claims.sub,
      name: name?.slice(0, MAX_NAME_LENGTH) ?? null,
      scopes: scopesOf(claims),
      expiresAt: exp * 1000,
    };
    this.verified.set(token, { person, kid: typeof header.kid === 'string' ? header.kid : undefined, checkedAt: now });
    return { ok: true, person };
  }
}
