/** The per-request context: who is calling, their register client, and fresh loaders. */
import type { IdempotencyTiming } from '../idempotency/store';
import { GraphQLError } from 'graphql';
import type { EventHub } from '../services/events';
import type { DownloadLimits } from '../server/download-stream';
import type { DownloadSlots } from '../services/download-slots';
import type { ApqStore } from '../services/apq-store';
import type { DownloadLinks } from '../server/download-links';
import type { IdempotencyStore } from '../idempotency/store';
import type { QuotaGuard } from '../services/quota';
import type { SpendControl } from '../services/spend';
import type { JournalOutbox } from '../services/journal-outbox';
import type { Charge } from '../register/contract/wire';
import { createLoaders, type Loaders } from './loaders';
import { requestIdOf } from '../server/logging';
import type { CallOptions, RegisterClient } from '../register/client';
import type { ReferenceListCache } from '../services/reference-lists';
import type { SummaryCaches } from '../services/summary-cache';
import { authFailureMessage, type Tenant, type TenantDirectory } from '../services/tenants';

/** Process-wide parts, built once at start (see services.ts). */
export interface Services {
  tenants: TenantDirectory;
  idempotency: IdempotencyStore;
  /** Same-key mutations executing in this process, so concurrent duplicates wait for them. */
  inflight: Map<string, Promise<unknown>>;
  /** The idempotency runner's waits (tests shorten them). */
  idempotencyTiming: IdempotencyTiming;
  referenceLists: ReferenceListCache;
  concurrency: number;
  /** Optional short per-tenant cache of title summaries (off unless SUMMARY_CACHE_TTL_MS > 0). */
  summaryCaches: SummaryCaches;
  /** Fetch securities listings alongside summaries when selected (SECURITIES_PREFETCH). */
  prefetchSecurities: boolean;
  /** Register calls, charges and idempotency outcomes, for metrics, logs and the quota guard. */
  events: EventHub;
  /** Register calls per tenant and register day; fails fast after a 429. */
  quota: QuotaGuard;
  /** The register's clock (from its Date headers): its day decides charges and the journal. */
  registerNow: () => Date;
  /** Concurrent downloads per tenant (this replica). */
  downloadSlots: DownloadSlots;
  /** When a download is closed: its caller stopped reading, or it ran too long. */
  downloadLimits: DownloadLimits;
  /** Automatic persisted queries (hash → query), shared by the replicas. */
  apq: ApqStore;
  /** Signed, absolute links to documents and plans. */
  downloadLinks: DownloadLinks;
  /** List fees, spending limits and statement visibility. */
  spend: SpendControl;
  /** Journal writes that failed after the register answered, retried until they land. */
  journalOutbox: JournalOutbox;
}

/** A charge this request made (or replayed), kept so the answer carries it whatever else fails. */
export interface ChargeInAnswer {
  operation: string;
  idempotencyKey: string;
  charges: readonly Charge[];
}

export interface Context {
  requestId: string;
  /** This server's origin as the request reached it (for absolute links without PUBLIC_URL). */
  origin: string;
  tenant: Tenant;
  register: RegisterClient;
  loaders: Loaders;
  services: Services;
  callOptions: CallOptions;
  /** Charges made or replayed by this request (see server/charges-in-answer.ts). */
  chargesMade: ChargeInAnswer[];
}

export function unauthenticated(message: string): GraphQLError {
  return new GraphQLError(message, {
    extensions: { code: 'UNAUTHENTICATED', http: { status: 401, headers: { 'WWW-Authenticate': 'Bearer' } } },
  });
}

export function createContext(services: Services, request: Request): Context {
  const auth = services.tenants.authenticate(request.headers.get('authorization'));
  if (!auth.ok) {
    throw unauthenticated(authFailureMessage(auth.reason));
  }
  const requestId = requestIdOf(request);
  const register = services.tenants.clientFor(auth.tenant);
  // No client abort signal: a disconnecting caller must not cut a chargeable call in half.
  const callOptions: CallOptions = { requestId };
  return {
    requestId,
    origin: new URL(request.url).origin,
    tenant: auth.tenant,
    register,
    loaders: createLoaders(register, services.concurrency, callOptions, services.summaryCaches.for(auth.tenant.id)),
    services,
    callOptions,
    chargesMade: [],
  };
}
