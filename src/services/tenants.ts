/**
 * Callers and tenants. A caller presents an API key as `Authorization: Bearer <key>`; the key
 * is looked up by its SHA-256 (keys are never stored in clear) and maps to one register API
 * client. Each tenant gets its own RegisterClient (and so its own token cache): nothing is
 * shared across tenants but the connection pool.
 */
import { createHash } from 'node:crypto';
import type { OrganisationsConfig } from './spend';
import { RegisterClient, type RegisterClientOptions, type RegisterTransport } from '../register/client';

export interface Tenant {
  /** The register API client id: the scope of idempotency keys and caches. */
  id: string;
  name: string;
  /** The register organisation owning the client: the owner of the daily quota. */
  organisation: string;
  /** A federation router: may read `_service { sdl }` while introspection is off. */
  router: boolean;
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
  /** An accounts key: its charge statements cover every API client of its organisation. */
  accounts?: boolean | undefined;
  /** This API client's daily spending limit in pence, overriding CLIENT_DAILY_SPEND_LIMIT. */
  dailySpendLimit?: number | undefined;
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
  private readonly byKnownKey = new Map<string, TenantConfig>();

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
      return fallback ? { ok: true, tenant: toTenant(fallback) } : { ok: false, reason: 'missing' };
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) return { ok: false, reason: 'malformed' };
    const key = match[1]!;
    let config = this.byKnownKey.get(key);
    if (!config) {
      config = this.byKeyHash.get(sha256Hex(key));
      // Only keys that matched are kept, so the map holds at most one entry per configured key.
      if (config) this.byKnownKey.set(key, config);
    }
    return config ? { ok: true, tenant: toTenant(config) } : { ok: false, reason: 'unknown' };
  }

  /** The organisation of an API client (the client id itself when none is configured). */
  organisationOf(clientId: string): string {
    return this.organisations.get(clientId) ?? clientId;
  }

  /** The tenant of an API client id (a signed download link names its client). */
  byClientId(clientId: string): Tenant | undefined {
    const config = [...this.byKeyHash.values()].find((t) => !t.router && t.clientId === clientId);
    return config ? toTenant(config) : undefined;
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
});
