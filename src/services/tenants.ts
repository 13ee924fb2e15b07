/**
 * Callers and tenants. A caller presents an API key, or a person's sign-in token (identity.ts),
 * as `Authorization: Bearer <credential>`; a key is looked up by its SHA-256 (keys are never
 * stored in clear) and maps to one register API client, a token to its provider's. Each tenant gets its own RegisterClient (and so its own token cache): nothing is
 * shared across tenants but the connection pool.
 */
import { hash } from 'node:crypto';
import type { OrganisationsConfig } from './spend';
import { keyScopes, type Scope } from './scopes';
import { type IdentityProviderConfig, IdentityProviders, looksLikeJwt, type Person } from './identity';
import { RegisterClient, type RegisterClientOptions, type RegisterTransport } from '../register/client';

/** How the caller proved who it is. */
export type CallerKind = 'PERSON' | 'API_KEY' | 'ROUTER';

/**
 * Who is calling, and the register API client their calls are made with. Each API key and each
 * signed-in person is a caller of its own: rights (scopes) and limits belong to the caller, the
 * register client and its caches to the tenant.
 */
export interface Tenant {
  /** The register API client id: the scope of idempotency keys and caches. */
  id: string;
  /** The tenants-file entry's name (an API key's, or the identity provider's). */
  name: string;
  /** The register organisation owning the client: the owner of the daily quota. */
  organisation: string;
  /** A federation router: may read `_service { sdl }` while introspection is off. */
  router: boolean;
  kind: CallerKind;
  /** The caller as the journal names it: a person's subject (`sub`), or the API key's name. */
  caller: string;
  /** A person's name as their token gives it; null for a key. */
  callerName: string | null;
  scopes: ReadonlySet<Scope>;
  /** The caller's own daily spending limit, in pence (a key's `dailySpendLimit`, a person's provider's `dailySpendLimitPerPerson`). */
  callerLimitPence?: number | undefined;
}

/** One caller of the tenants file (config/tenants-file.ts reads and checks it against this shape). */
export interface TenantConfig {
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

export const sha256Hex = (value: string) => hash('sha256', value, 'hex');

/** The embedded start's federation router key: reads the schema, and names a gateway beside its callers' own keys. */
export const DEV_ROUTER_KEY = 'dev-router-key';

/** The embedded emulator's callers (docs/emulator.md). Only used with the embedded emulator. */
export const DEV_TENANTS: TenantConfig[] = [
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
  | { ok: false; reason: 'unavailable'; retryAfterSeconds: number };

export type Authentication = { ok: true; tenant: Tenant } | AuthFailure;

export class TenantDirectory {
  private readonly byKeyHash = new Map<string, TenantConfig>();
  private readonly organisations = new Map<string, string>();
  /** Register credentials by API client id: API keys' and identity providers'. */
  private readonly credentials = new Map<string, { clientId: string; clientSecret: string }>();
  private readonly clients = new Map<string, RegisterClient>();
  private readonly tenantByConfig = new Map<TenantConfig, Tenant>();
  /** One Tenant per verified token (the identity module keeps the token's Person while it is valid). */
  private readonly tenantByPerson = new WeakMap<Person, Tenant>();

  constructor(
    private readonly transport: RegisterTransport,
    tenants: readonly TenantConfig[],
    /** Tenant name that a request without credentials acts as (embedded emulator only). */
    private readonly anonymous?: string,
    /** Per-tenant client options (e.g. the quota guard's check before each call). */
    private readonly clientOptions: (tenant: Tenant) => RegisterClientOptions = () => ({}),
    /** The identity providers whose people may call with a sign-in token. */
    private readonly identity: IdentityProviders = new IdentityProviders([]),
  ) {
    for (const t of tenants) {
      this.byKeyHash.set(t.apiKeySha256, t);
      if (t.clientId) this.organisations.set(t.clientId, t.organisation ?? t.clientId);
      if (!t.router && t.clientId && t.clientSecret && !this.credentials.has(t.clientId)) {
        this.credentials.set(t.clientId, { clientId: t.clientId, clientSecret: t.clientSecret });
      }
    }
    for (const p of identity.providers) {
      if (!this.organisations.has(p.clientId)) this.organisations.set(p.clientId, p.organisation);
      if (!this.credentials.has(p.clientId)) this.credentials.set(p.clientId, { clientId: p.clientId, clientSecret: p.clientSecret });
    }
  }

  /**
   * Who `Authorization: Bearer <credential>` names: an API key, or a person's JWT access token,
   * told apart by shape (a JWT is three base64url segments) and, for a token, by its issuer.
   */
  async authenticate(authorization: string | null): Promise<Authentication> {
    if (!authorization) {
      const fallback = this.anonymous && [...this.byKeyHash.values()].find((t) => t.name === this.anonymous);
      return fallback ? { ok: true, tenant: this.tenantOf(fallback) } : { ok: false, reason: 'missing' };
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) return { ok: false, reason: 'malformed' };
    const credential = match[1]!;
    if (looksLikeJwt(credential)) {
      const checked = await this.identity.verify(credential);
      if (checked.ok) return { ok: true, tenant: this.personTenant(checked.person) };
      // An API key may happen to have a JWT's shape: it is still a key.
      const key = this.keyTenant(credential);
      if (key) return { ok: true, tenant: key };
      switch (checked.refusal) {
        case 'invalid_token':
        case 'misconfigured':
          return { ok: false, reason: checked.refusal, description: checked.description };
        case 'unavailable':
          return { ok: false, reason: 'unavailable', retryAfterSeconds: checked.retryAfterSeconds };
      }
    }
    const key = this.keyTenant(credential);
    return key ? { ok: true, tenant: key } : { ok: false, reason: 'unknown' };
  }

  /** The router tenant whose key this is (a gateway presenting `titlegraph-router-key`); undefined for any other key. */
  routerOf(key: string): Tenant | undefined {
    const tenant = this.keyTenant(key);
    return tenant?.router ? tenant : undefined;
  }

  /**
   * The key's caller, found by the key's SHA-256 on every request: no key is kept in clear, not
   * even in memory (a map of matched keys saved the hash, ~1 µs with the one-shot `crypto.hash`).
   */
  private keyTenant(key: string): Tenant | undefined {
    const config = this.byKeyHash.get(sha256Hex(key));
    return config ? this.tenantOf(config) : undefined;
  }

  /** One Tenant per tenants-file entry, made once: callers share it read-only. */
  private tenantOf(config: TenantConfig): Tenant {
    let tenant = this.tenantByConfig.get(config);
    if (!tenant) {
      tenant = toTenant(config);
      this.tenantByConfig.set(config, tenant);
    }
    return tenant;
  }

  /** A signed-in person: their provider's register client and organisation, their own subject, name, scopes and limit. */
  private personTenant(person: Person): Tenant {
    let tenant = this.tenantByPerson.get(person);
    if (!tenant) {
      const { provider } = person;
      tenant = {
        id: provider.clientId,
        name: provider.name,
        organisation: provider.organisation,
        router: false,
        kind: 'PERSON',
        caller: person.subject,
        callerName: person.name,
        scopes: person.scopes,
        callerLimitPence: provider.dailySpendLimitPerPerson,
      };
      this.tenantByPerson.set(person, tenant);
    }
    return tenant;
  }

  /** The organisation of an API client (the client id itself when none is configured). */
  organisationOf(clientId: string): string {
    return this.organisations.get(clientId) ?? clientId;
  }

  /** The tenant of an API client id (a signed download link names its client): a key's, or an identity provider's. */
  byClientId(clientId: string): Tenant | undefined {
    const config = [...this.byKeyHash.values()].find((t) => !t.router && t.clientId === clientId);
    if (config) return this.tenantOf(config);
    const provider = this.identity.byClientId(clientId);
    // The link is the credential here: the client it names, acting for nobody in particular.
    return provider
      ? {
          id: provider.clientId,
          name: provider.name,
          organisation: provider.organisation,
          router: false,
          kind: 'PERSON',
          caller: provider.name,
          callerName: null,
          scopes: new Set(),
        }
      : undefined;
  }

  /** The tenant's own register client, created on first use and shared by every caller of that client; a router has none. */
  clientFor(tenant: Tenant): RegisterClient {
    let client = this.clients.get(tenant.id);
    if (!client) {
      const credentials = tenant.router ? undefined : this.credentials.get(tenant.id);
      if (!credentials) throw new RouterKeyNotAClient();
      client = new RegisterClient(this.transport, credentials, this.clientOptions(tenant));
      this.clients.set(tenant.id, client);
    }
    return client;
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

const toTenant = (config: TenantConfig): Tenant => ({
  // A router key has no register client: its id can never be taken for one.
  id: config.router || !config.clientId ? `router:${config.name}` : config.clientId,
  name: config.name,
  organisation: config.organisation ?? config.clientId ?? `router:${config.name}`,
  router: config.router ?? false,
  kind: config.router ? 'ROUTER' : 'API_KEY',
  caller: config.name,
  callerName: null,
  scopes: config.router ? new Set() : keyScopes(config.scopes, config.accounts),
  callerLimitPence: config.dailySpendLimit,
});

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
