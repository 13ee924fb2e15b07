/**
 * Callers. A caller presents an API key, or a person's sign-in token (identity.ts), as
 * `Authorization: Bearer <credential>`; a key is looked up by its SHA-256 (keys are never stored
 * in clear) and maps to one register API client, a token to its provider's. Each API client gets
 * its own RegisterClient (and so its own token cache): nothing is shared across clients but the
 * connection pool.
 *
 * A caller is a principal (principal.ts): what it did and may do (idempotency records, the
 * journal, statements, spending, limits) belongs to its id, never to a display name.
 */
import { hash } from 'node:crypto';
import type { ApiKeyConfig, OrganisationsConfig } from './settings';
import { keyScopes, type Scope } from './scopes';
import { IdentityProviders, looksLikeJwt, type Person } from './identity';
import { RegisterClient, type RegisterClientOptions, type RegisterTransport } from '../register/client';
import { KEYS_PROVIDER, type Principal, principalId } from './principal';

export type { CallerKind } from './principal';

/**
 * Who is calling, and the register API client their calls are made with. Each API key and each
 * signed-in person is a caller of its own: rights (scopes), records and limits belong to the
 * caller's principal; the register client and its caches to the API client.
 */
export interface Caller extends Principal {
  /** The principal's id (principal.ts): whose records, statements, spending and limits these are. */
  id: string;
  /** A person's name as their token gives it; null for a key. */
  name: string | null;
  /** The register API client calls are made with: the scope of idempotency keys and caches. */
  clientId: string;
  /** The register organisation owning the client: the owner of the daily quota. */
  organisation: string;
  /** A federation router: may read `_service { sdl }` while introspection is off. */
  router: boolean;
  scopes: ReadonlySet<Scope>;
  /** The caller's own daily spending limit, in pence (a key's `dailySpendLimit`, a person's provider's `dailySpendLimitPerPerson`). */
  spendLimitPence?: number | undefined;
  /**
   * Whether the rows the previous release wrote with this caller's subject on its client (no
   * principal id, only a bare name) are this caller's: see legacyOwner.
   */
  ownsLegacyRows: boolean;
}

export const sha256Hex = (value: string) => hash('sha256', value, 'hex');

/** The embedded start's federation router key: reads the schema, and names a gateway beside its callers' own keys. */
export const DEV_ROUTER_KEY = 'dev-router-key';

/** The embedded emulator's callers (docs/emulator.md). Only used with the embedded emulator. */
export const DEV_API_KEYS: ApiKeyConfig[] = [
  {
    name: 'dev-key-a',
    apiKeySha256: sha256Hex('dev-key-a'),
    clientId: 'client-a',
    clientSecret: 'secret-a',
    organisation: 'ORG-A',
    accounts: true,
  },
  { name: 'dev-key-a2', apiKeySha256: sha256Hex('dev-key-a2'), clientId: 'client-a2', clientSecret: 'secret-a2', organisation: 'ORG-A' },
  { name: 'dev-key-b', apiKeySha256: sha256Hex('dev-key-b'), clientId: 'client-b', clientSecret: 'secret-b', organisation: 'ORG-B' },
  // The shipped gateway configurations present it (titlegraph-router-key), so they run against `npm start` as they are.
  { name: 'dev-router', apiKeySha256: sha256Hex(DEV_ROUTER_KEY), router: true },
];

/** The emulator's organisations and their charging accounts (docs/emulator.md). */
export const DEV_ORGANISATIONS: OrganisationsConfig = {
  'ORG-A': { fasAccounts: ['0877', '1234', '9999'] },
  'ORG-B': { fasAccounts: ['5555'] },
};

/** Why a request's credentials were refused: none, an unknown API key, a token that did not verify, or a provider we could not reach. */
export type AuthFailure =
  | { ok: false; reason: 'missing' | 'unknown' | 'malformed' }
  /** RFC 6750 `invalid_token`: what was wrong, never the token itself. */
  | { ok: false; reason: 'invalid_token'; description: string }
  /** The provider is misconfigured (its discovery document names another issuer): the operator's to mend, not the caller's. */
  | { ok: false; reason: 'misconfigured'; description: string }
  /** The identity provider's keys could not be fetched to verify a token: not the caller's fault. */
  | { ok: false; reason: 'unavailable'; retryAfterSeconds: number }
  /** The sender's address sent too many tokens that failed: new ones are not checked for a while. */
  | { ok: false; reason: 'too_many_failures'; retryAfterSeconds: number };

export type Authentication = { ok: true; caller: Caller } | AuthFailure;

/** The register API client calls are made with, and whose organisation's quota they count on. */
export interface ApiClientRef {
  clientId: string;
  organisation: string;
  router: boolean;
}

export class CallerDirectory {
  private readonly byKeyHash = new Map<string, ApiKeyConfig>();
  private readonly organisations = new Map<string, string>();
  /** Register credentials by API client id: API keys' and identity providers'. */
  private readonly credentials = new Map<string, { clientId: string; clientSecret: string }>();
  /** Each API client's register client, with the credentials it was made with: a reload keeps those that did not change. */
  private readonly clients = new Map<string, { register: RegisterClient; secret: string }>();
  private readonly callerByConfig = new Map<ApiKeyConfig, Caller>();
  /** One Caller per verified token (the identity module keeps the token's Person while it is valid). */
  private readonly callerByPerson = new WeakMap<Person, Caller>();
  /** The API keys' names on each API client, and how many identity providers act as it: whose the previous release's rows are. */
  private readonly keyNamesByClient = new Map<string, Set<string>>();
  private readonly providersByClient = new Map<string, string[]>();

  constructor(
    private readonly transport: RegisterTransport,
    keys: readonly ApiKeyConfig[],
    /** The key name a request without credentials acts as (embedded emulator only). */
    private readonly anonymous?: string,
    /** Per-client options (e.g. the quota guard's check before each call). */
    private readonly clientOptions: (client: ApiClientRef) => RegisterClientOptions = () => ({}),
    /** The identity providers whose people may call with a sign-in token. */
    private readonly identity: IdentityProviders = new IdentityProviders([]),
    /** The directory this one replaces (the tenants file reloaded): its register clients, and their tokens, are kept where credentials are unchanged. */
    previous?: CallerDirectory,
  ) {
    for (const k of keys) {
      this.byKeyHash.set(k.apiKeySha256, k);
      if (k.clientId) this.organisations.set(k.clientId, k.organisation ?? k.clientId);
      if (!k.router && k.clientId && k.clientSecret && !this.credentials.has(k.clientId)) {
        this.credentials.set(k.clientId, { clientId: k.clientId, clientSecret: k.clientSecret });
      }
      if (!k.router && k.clientId) this.keyNamesByClient.set(k.clientId, (this.keyNamesByClient.get(k.clientId) ?? new Set()).add(k.name));
    }
    for (const p of identity.providers) {
      if (!this.organisations.has(p.clientId)) this.organisations.set(p.clientId, p.organisation);
      if (!this.credentials.has(p.clientId)) this.credentials.set(p.clientId, { clientId: p.clientId, clientSecret: p.clientSecret });
      this.providersByClient.set(p.clientId, [...(this.providersByClient.get(p.clientId) ?? []), p.name]);
    }
    for (const [clientId, kept] of previous?.clients ?? []) {
      if (this.credentials.get(clientId)?.clientSecret === kept.secret) this.clients.set(clientId, kept);
    }
  }

  /**
   * Who `Authorization: Bearer <credential>` names: an API key, or a person's JWT access token,
   * told apart by shape (a JWT is three base64url segments) and, for a token, by its issuer.
   */
  async authenticate(authorization: string | null, address = ''): Promise<Authentication> {
    if (!authorization) {
      const fallback = this.anonymous && [...this.byKeyHash.values()].find((k) => k.name === this.anonymous);
      return fallback ? { ok: true, caller: this.keyCallerOf(fallback) } : { ok: false, reason: 'missing' };
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) return { ok: false, reason: 'malformed' };
    const credential = match[1]!;
    if (looksLikeJwt(credential)) {
      const checked = await this.identity.verify(credential, address);
      if (checked.ok) return { ok: true, caller: this.personCaller(checked.person) };
      // An API key may happen to have a JWT's shape: it is still a key.
      const key = this.keyCaller(credential);
      if (key) return { ok: true, caller: key };
      switch (checked.refusal) {
        case 'invalid_token':
        case 'misconfigured':
          return { ok: false, reason: checked.refusal, description: checked.description };
        case 'unavailable':
        case 'too_many_failures':
          return { ok: false, reason: checked.refusal, retryAfterSeconds: checked.retryAfterSeconds };
      }
    }
    const key = this.keyCaller(credential);
    return key ? { ok: true, caller: key } : { ok: false, reason: 'unknown' };
  }

  /** The router whose key this is (a gateway presenting `titlegraph-router-key`); undefined for any other key. */
  routerOf(key: string): Caller | undefined {
    const caller = this.keyCaller(key);
    return caller?.router ? caller : undefined;
  }

  /**
   * The key's caller, found by the key's SHA-256 on every request: no key is kept in clear, not
   * even in memory (a map of matched keys saved the hash, ~1 µs with the one-shot `crypto.hash`).
   */
  private keyCaller(key: string): Caller | undefined {
    const config = this.byKeyHash.get(sha256Hex(key));
    return config ? this.keyCallerOf(config) : undefined;
  }

  /** One Caller per tenants-file key, made once: requests share it read-only. */
  private keyCallerOf(config: ApiKeyConfig): Caller {
    let caller = this.callerByConfig.get(config);
    if (!caller) {
      caller = keyCaller(config);
      this.callerByConfig.set(config, caller);
    }
    return caller;
  }

  /** A signed-in person: their provider's register client and organisation, their own principal, name, scopes and limit. */
  private personCaller(person: Person): Caller {
    let caller = this.callerByPerson.get(person);
    if (!caller) {
      const { provider } = person;
      const principal: Principal = { kind: 'PERSON', provider: provider.name, subject: person.subject };
      const id = principalId(principal);
      caller = {
        ...principal,
        id,
        name: person.name,
        clientId: provider.clientId,
        organisation: provider.organisation,
        router: false,
        scopes: person.scopes,
        spendLimitPence: provider.dailySpendLimitPerPerson,
        ownsLegacyRows: this.legacyOwner(provider.clientId, person.subject) === id,
      };
      this.callerByPerson.set(person, caller);
    }
    return caller;
  }

  /**
   * Whose the rows are that the previous release wrote with a bare name (`subject`) on an API
   * client: a key of that name on that client (the operator named it; a person whose `sub` was a
   * key's name was already indistinguishable from it then), else a person of the one identity
   * provider acting as that client. Undefined when two providers act as it: such rows stay the
   * organisation's accounts' to read, and nobody's to replay.
   */
  legacyOwner(clientId: string, subject: string): string | undefined {
    if (this.keyNamesByClient.get(clientId)?.has(subject)) return principalId({ kind: 'API_KEY', provider: KEYS_PROVIDER, subject });
    const providers = this.providersByClient.get(clientId) ?? [];
    return providers.length === 1 ? principalId({ kind: 'PERSON', provider: providers[0]!, subject }) : undefined;
  }

  /** The organisation of an API client (the client id itself when none is configured). */
  organisationOf(clientId: string): string {
    return this.organisations.get(clientId) ?? clientId;
  }

  /** The API client a signed download link names (the link is the credential: it acts for nobody in particular). */
  byClientId(clientId: string): ApiClientRef | undefined {
    return this.credentials.has(clientId) ? { clientId, organisation: this.organisationOf(clientId), router: false } : undefined;
  }

  /** The API client's own register client, created on first use and shared by every caller of that client; a router has none. */
  clientFor(client: ApiClientRef): RegisterClient {
    const kept = this.clients.get(client.clientId);
    if (kept) return kept.register;
    const credentials = client.router ? undefined : this.credentials.get(client.clientId);
    if (!credentials) throw new RouterKeyNotAClient();
    const register = new RegisterClient(this.transport, credentials, this.clientOptions(client));
    this.clients.set(client.clientId, { register, secret: credentials.clientSecret });
    return register;
  }
}

/** A router's key asked for something a register client would be needed for. */
export class RouterKeyNotAClient extends Error {
  override name = 'RouterKeyNotAClient';
  constructor() {
    super(ROUTER_KEY_MESSAGE);
  }
}

/** What a router key is told when it asks for anything but the schema. */
export const ROUTER_KEY_MESSAGE =
  "This API key belongs to a federation router: it may read the schema (_service { sdl }) and answer a health check, and nothing else. Forward each caller's own API key (their Authorization header) to titlegraph for their requests.";

function keyCaller(config: ApiKeyConfig): Caller {
  const principal: Principal = { kind: config.router ? 'ROUTER' : 'API_KEY', provider: KEYS_PROVIDER, subject: config.name };
  const id = principalId(principal);
  return {
    ...principal,
    id,
    name: null,
    // A router key has no register client: its client id can never be taken for one.
    clientId: config.router || !config.clientId ? id : config.clientId,
    organisation: config.organisation ?? config.clientId ?? id,
    router: config.router ?? false,
    scopes: config.router ? new Set() : keyScopes(config.scopes, config.accounts),
    spendLimitPence: config.dailySpendLimit,
    ownsLegacyRows: !config.router,
  };
}
