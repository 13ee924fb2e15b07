/**
 * People signed in at their organisation's identity provider: OAuth 2.0 JWT access tokens
 * (RFC 9068) from the providers of the tenants file, verified with jose. A token is accepted only
 * when it is signed with an asymmetric algorithm by a key its issuer publishes, `iss` is a
 * configured issuer exactly, `aud` holds that provider's audience, it is within its lifetime (a
 * minute's clock skew allowed), and it names its subject. Verified tokens are kept until they
 * expire, so a token costs a lookup, not a signature check, on every request after its first.
 */
import { decodeJwt, decodeProtectedHeader, errors, jwtVerify, type JWTPayload } from 'jose';
import { DEFAULT_IDENTITY_TIMING, IdentityProviderUnreachable, type IdentityTiming, IssuerKeys } from './identity-keys';
import { isScope, type Scope } from './scopes';

export { issuerProblem, type IdentityTiming } from './identity-keys';

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
}

/** Signature algorithms accepted: asymmetric only (never `none`, never an HMAC whose secret could be a public key). */
export const TOKEN_ALGORITHMS = ['RS256', 'PS256', 'ES256', 'EdDSA'] as const;
/**
 * `typ` values of an access token: RFC 9068's `at+jwt`, and the plain `JWT` most providers still
 * send. Any other (an ID token's or a logout token's own type, say) is not a credential for an API.
 */
const ACCESS_TOKEN_TYPES = new Set(['at+jwt', 'application/at+jwt', 'jwt', 'application/jwt']);
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
  | { ok: false; refusal: 'unavailable'; retryAfterSeconds: number };

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

function nameOf(claims: JWTPayload): string | null {
  for (const claim of [claims.name, claims.email, claims.preferred_username]) {
    if (typeof claim === 'string' && claim.trim() !== '') return claim.trim().slice(0, MAX_NAME_LENGTH);
  }
  return null;
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

/** Verified tokens by their text, oldest first (a Map keeps insertion order). */
class VerifiedTokens {
  private readonly entries = new Map<string, Person>();
  constructor(private readonly max: number) {}

  // Oldest first out, not least recently used: a token is used until it expires, and moving it to
  // the end on every request (a delete and a set, each hashing a 600-byte key) was most of what a
  // token cost more than a key.
  get(token: string, now: number): Person | undefined {
    const person = this.entries.get(token);
    if (!person) return undefined;
    if (person.expiresAt <= now) {
      this.entries.delete(token);
      return undefined;
    }
    return person;
  }

  set(token: string, person: Person): void {
    this.entries.set(token, person);
    if (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
  }
}

export interface IdentityOptions {
  timing?: Partial<IdentityTiming>;
  /** Verified tokens kept (DEFAULT_TOKEN_CACHE_SIZE). */
  cacheSize?: number;
  /** Told of every fetch of a provider's keys (logs). */
  onKeysFetched?: (outcome: { issuer: string; ok: boolean; reason?: string }) => void;
}

export class IdentityProviders {
  private readonly byIssuer = new Map<string, { provider: IdentityProviderConfig; keys: IssuerKeys }>();
  private readonly verified: VerifiedTokens;

  constructor(
    readonly providers: readonly IdentityProviderConfig[],
    options: IdentityOptions = {},
  ) {
    const timing = { ...DEFAULT_IDENTITY_TIMING, ...options.timing };
    for (const provider of providers) {
      this.byIssuer.set(provider.issuer, { provider, keys: new IssuerKeys(provider.issuer, timing, options.onKeysFetched) });
    }
    this.verified = new VerifiedTokens(options.cacheSize ?? DEFAULT_TOKEN_CACHE_SIZE);
  }

  /** The provider whose people call with this register API client. */
  byClientId(clientId: string): IdentityProviderConfig | undefined {
    return this.providers.find((p) => p.clientId === clientId);
  }

  async verify(token: string): Promise<TokenCheck> {
    const now = Date.now();
    const known = this.verified.get(token, now);
    if (known) return { ok: true, person: known };
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
    if (header.typ !== undefined && !ACCESS_TOKEN_TYPES.has(String(header.typ).toLowerCase())) {
      return invalid('the token is not an access token (its typ header names another kind of JWT)');
    }
    const issuer = typeof unverified.iss === 'string' ? this.byIssuer.get(unverified.iss) : undefined;
    if (!issuer) return invalid("the token's issuer (iss) is not an identity provider this service trusts");
    const { provider, keys } = issuer;
    let claims: JWTPayload;
    try {
      ({ payload: claims } = await jwtVerify(token, keys.lookup, {
        issuer: provider.issuer,
        audience: provider.audience,
        algorithms: [...TOKEN_ALGORITHMS],
        clockTolerance: CLOCK_TOLERANCE_SECONDS,
        requiredClaims: ['exp', 'sub'],
      }));
    } catch (error) {
      if (error instanceof IdentityProviderUnreachable)
        return { ok: false, refusal: 'unavailable', retryAfterSeconds: error.retryAfterSeconds };
      return invalid(describe(error, provider));
    }
    // jose checks `iat` only against a maximum age: a token issued in the future is refused here.
    if (typeof claims.iat === 'number' && claims.iat > now / 1000 + CLOCK_TOLERANCE_SECONDS) {
      return invalid('the token was issued in the future (iat)');
    }
    if (typeof claims.sub !== 'string' || claims.sub === '' || claims.sub.length > MAX_SUBJECT_LENGTH) {
      return invalid(`the token's subject (sub) must be a string of 1 to ${MAX_SUBJECT_LENGTH} characters`);
    }
    const person: Person = {
      provider,
      subject: claims.sub,
      name: nameOf(claims),
      scopes: scopesOf(claims),
      expiresAt: claims.exp! * 1000,
    };
    this.verified.set(token, person);
    return { ok: true, person };
  }
}
