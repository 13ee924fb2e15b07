/**
 * Callers and tenants. A caller presents an API key as `Authorization: Bearer <key>`; the key
 * is looked up by its SHA-256 (keys are never stored in clear) and maps to one register API
 * client. Each tenant gets its own RegisterClient (and so its own token cache): nothing is
 * shared across tenants but the connection pool.
 */
import { createHash } from 'node:crypto';
import type { OrganisationsConfig } from './spend';
import { keyScopes, type Scope } from './scopes';
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

/** One caller of the tenants file (config.ts reads and checks it against this shape). */
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

export const sha256Hex = (value: string) => createHash('sha256').update(value, 'utf8').digest('hex');

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
];

/** The emulator's organisations and their charging accounts (docs/emulator.md). */
export const DEV_ORGANISATIONS: OrganisationsConfig = {
  'ORG-A': { fasAccounts: ['0877', '1234', '9999'] },
  'ORG-B': { fasAccounts: ['5555'] },
};

export type Authentication = { ok: true; tenant: Tenant } | { ok: false; reason: 'missing' | 'unknown' | 'malformed' };

/** What a refused caller is told, the same on /graphql and on downloads. */
export function authFailureMessage(reason: 'missing' | 'unknown' | 'malformed'): string {
  return reason === 'missing' ? 'Authentication required: send Authorization: Bearer <API key>.' : 'Unknown API key.';
}

export class TenantDirectory {
  private readonly byKeyHash = new Map<string, TenantConfig>();
  private readonly organisations = new Map<string, string>();
  private readonly clients = new Map<string, RegisterClient>();
  /** API keys already matched to their tenant: hashing the key on every request was ~1 % of a request's CPU. */
  private readonly byKnownKey = new Map<string, Tenant>();
  private readonly tenantByConfig = new Map<TenantConfig, Tenant>();

  constructor(
    private readonly transport: RegisterTransport,
    tenants: readonly TenantConfig[],
    /** Tenant name that a request without credentials acts as (embedded emulator only). */
    private readonly anonymous?: string,
    /** Per-tenant client options (e.g. the quota guard's check before each call). */
    private readonly clientOptions: (tenant: Tenant) => RegisterClientOptions = () => ({}),
  ) {
    for (const t of tenants) {
      this.byKeyHash.set(t.apiKeySha256, t);
      if (t.clientId) this.organisations.set(t.clientId, t.organisation ?? t.clientId);
    }
  }

  authenticate(authorization: string | null): Authentication {
    if (!authorization) {
      const fallback = this.anonymous && [...this.byKeyHash.values()].find((t) => t.name === this.anonymous);
      return fallback ? { ok: true, tenant: this.tenantOf(fallback) } : { ok: false, reason: 'missing' };
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) return { ok: false, reason: 'malformed' };
    const key = match[1]!;
    let tenant = this.byKnownKey.get(key);
    if (!tenant) {
      const config = this.byKeyHash.get(sha256Hex(key));
      if (!config) return { ok: false, reason: 'unknown' };
      tenant = this.tenantOf(config);
      // Only keys that matched are kept, so the map holds at most one entry per configured key.
      this.byKnownKey.set(key, tenant);
    }
    return { ok: true, tenant };
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

  /** The organisation of an API client (the client id itself when none is configured). */
  organisationOf(clientId: string): string {
    return this.organisations.get(clientId) ?? clientId;
  }

  /** The tenant of an API client id (a signed download link names its client). */
  byClientId(clientId: string): Tenant | undefined {
    const config = [...this.byKeyHash.values()].find((t) => !t.router && t.clientId === clientId);
    return config ? this.tenantOf(config) : undefined;
  }

  /** The tenant's own register client, created on first use; a router has none. */
  clientFor(tenant: Tenant): RegisterClient {
    let client = this.clients.get(tenant.id);
    if (!client) {
      const config = [...this.byKeyHash.values()].find((t) => !t.router && t.clientId === tenant.id);
      if (!config?.clientId || !config.clientSecret) throw new RouterKeyNotAClient();
      client = new RegisterClient(
        this.transport,
        { clientId: config.clientId, clientSecret: config.clientSecret },
        this.clientOptions(tenant),
      );
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
