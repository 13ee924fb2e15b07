/**
 * A stand-in identity provider for tests: its OpenID discovery document and key set (JWKS)
 * served over real HTTP on 127.0.0.1, port 0, with keys made by jose, and access tokens signed
 * with them. It rotates its key, goes down and comes back, and counts how often its keys were
 * fetched. (The browser test runs a real OpenID Provider; this one only publishes keys.)
 */
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { exportJWK, generateKeyPair, type JWK, SignJWT } from 'jose';
import { onTestFinished } from 'vitest';
import type { IdentityProviderConfig } from '../../src/services/identity';
import { closeServer, listen } from './http-service';

type KeyPair = Awaited<ReturnType<typeof generateKeyPair>>;

export interface SignOptions {
  /** The key to sign with (default: the key published last). */
  key?: KeyPair['privateKey'];
  /** The `kid` header (default: the current key's). */
  kid?: string;
  alg?: string;
  /** Extra protected-header parameters (e.g. `typ`). */
  header?: Record<string, unknown>;
}

export interface TestIssuer {
  /** e.g. http://127.0.0.1:54321 */
  issuer: string;
  /** The provider as the tenants file lists it, for `identityProviders` (client-a of ORG-A unless `overrides` say otherwise). */
  provider(overrides?: Partial<IdentityProviderConfig>): IdentityProviderConfig;
  /** An access token for `sub` person-1 with these claims on top (a claim set to undefined is left out). */
  sign(claims?: Record<string, unknown>, options?: SignOptions): Promise<string>;
  /** A key pair it does not publish, with the algorithm it signs with. */
  strangerKey(): Promise<KeyPair>;
  /** Publishes a new key beside the old one and signs with it from now on; returns its kid. */
  rotate(): Promise<string>;
  /** Stops publishing the key `kid` (a withdrawn key). */
  withdraw(kid: string): void;
  /** The kid of the key it signs with now. */
  currentKid(): string;
  /** Its key set answers `{ keys }` as given (a set with no usable key, say), or again its real keys (undefined). */
  answerKeySet(keys: unknown[] | undefined): void;
  /** Its discovery document names this issuer instead of its own (a misconfiguration), or its own again (undefined). */
  nameIssuer(issuer: string | undefined): void;
  /** Its discovery document and keys answer 503 (down) or again (up). */
  down(): void;
  up(): void;
  /** Key-set fetches so far. */
  jwksFetches(): number;
  close(): Promise<void>;
}

export const ALG = 'ES256';

async function newKey(): Promise<{ kid: string; pair: KeyPair; jwk: JWK }> {
  const pair = await generateKeyPair(ALG, { extractable: true });
  const kid = randomUUID();
  return { kid, pair, jwk: { ...(await exportJWK(pair.publicKey)), kid, alg: ALG, use: 'sig' } };
}

export async function startTokenIssuer(): Promise<TestIssuer> {
  const keys = [await newKey()];
  let available = true;
  let fetches = 0;
  let issuer = '';
  let keySetOverride: unknown[] | undefined;
  let namedIssuer: string | undefined;
  const server = createServer((req, res) => {
    if (!available) {
      res.writeHead(503).end();
      return;
    }
    if (req.url === '/.well-known/openid-configuration') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ issuer: namedIssuer ?? issuer, jwks_uri: `${issuer}/jwks`, id_token_signing_alg_values_supported: [ALG] }));
    } else if (req.url === '/jwks') {
      fetches++;
      res.writeHead(200, { 'content-type': 'application/jwk-set+json' });
      res.end(JSON.stringify({ keys: keySetOverride ?? keys.map((k) => k.jwk) }));
    } else res.writeHead(404).end();
  });
  issuer = await listen(server);
  const current = () => keys[keys.length - 1]!;
  return {
    issuer,
    provider: (overrides = {}) => ({
      name: 'firm-a-sso',
      issuer,
      audience: 'titlegraph',
      organisation: 'ORG-A',
      clientId: 'client-a',
      clientSecret: 'secret-a',
      ...overrides,
    }),
    async sign(claims = {}, options = {}) {
      const now = Math.floor(Date.now() / 1000);
      const all: Record<string, unknown> = {
        iss: issuer,
        aud: 'titlegraph',
        sub: 'person-1',
        name: 'Alice Conveyancer',
        scope: 'titles:read titles:buy charges:read',
        iat: now,
        exp: now + 300,
        ...claims,
      };
      const payload = Object.fromEntries(Object.entries(all).filter(([, v]) => v !== undefined));
      return new SignJWT(payload)
        .setProtectedHeader({ alg: options.alg ?? ALG, kid: options.kid ?? current().kid, typ: 'at+jwt', ...options.header })
        .sign(options.key ?? current().pair.privateKey);
    },
    strangerKey: () => generateKeyPair(ALG, { extractable: true }),
    async rotate() {
      keys.push(await newKey());
      return current().kid;
    },
    down: () => {
      available = false;
    },
    up: () => {
      available = true;
    },
    withdraw(kid) {
      keys.splice(
        keys.findIndex((k) => k.kid === kid),
        1,
      );
    },
    currentKid: () => current().kid,
    answerKeySet(override) {
      keySetOverride = override;
    },
    nameIssuer(name) {
      namedIssuer = name;
    },
    jwksFetches: () => fetches,
    close: () => closeServer(server),
  };
}

/** startTokenIssuer, closed when the current test ends. Call it inside a test. */
export async function tokenIssuerForTest(): Promise<TestIssuer> {
  const issuer = await startTokenIssuer();
  onTestFinished(() => issuer.close());
  return issuer;
}
