/** Builds the process-wide services from configuration; tests build them the same way. */
import type { IdempotencyRecord, IdempotencyTiming } from '../storage/idempotency/store';
import { EventHub } from './events';
import {
  DEFAULT_JOURNAL_RETENTION_DAYS,
  type ApiKeyConfig,
  type ClientsConfig,
  type DownloadLimits,
  type OrganisationsConfig,
  type ServiceSettings,
} from './settings';
import { JournalOutbox } from './journal-outbox';
import { IdempotentRunner } from './idempotency/runner';
import { DownloadSlots } from './downloads/slots';
import { DownloadLinks } from './downloads/links';
import type { ApqStore } from '../storage/apq/store';
import { PgApqStore } from '../storage/apq/pg-store';
import { RememberedApqStore } from '../storage/apq/remembered';
import { SqliteApqStore } from '../storage/apq/sqlite-store';
import { SqliteIdempotencyStore } from '../storage/idempotency/sqlite-store';
import { PgIdempotencyStore } from '../storage/idempotency/pg-store';
import { dataFileHealth } from '../storage/sqlite-database';
import type { IdempotencyStore } from '../storage/idempotency/store';
import { type RegisterDay, RegisterTransport, type RegisterTransportOptions } from '../register/client';
import { msToLondonMidnight, QuotaGuard } from './quota';
import type { QuotaStore } from '../storage/quota/store';
import { SqliteQuotaStore } from '../storage/quota/sqlite-store';
import { PgQuotaStore } from '../storage/quota/pg-store';
import { connectionShares } from '../storage/pg-database';
import { DEFAULT_DATABASE_MAX_CONNECTIONS } from '../storage/settings';
import { ReferenceListCache } from './reference-lists';
import { SummaryCaches } from './summary-cache';
import { SpendControl } from './spend';
import { CallerDirectory } from './callers';
import { type IdentityOptions, type IdentityProviderConfig, IdentityProviders } from './identity';
import { VerificationBudget } from './verification-budget';

/** Process-wide parts, built once at start by createServices; every request shares them. */
export interface Services {
  /** Who may call: replaced whole when the tenants file is reloaded (replaceCallers), so read it per request. */
  callers: CallerDirectory;
  /** The tenants file the callers come from (a hash of its content), and since when; absent without one. */
  callersVersion?: CallersVersion | undefined;
  idempotency: IdempotencyStore;
  /** Same-key mutations executing in this process, so concurrent duplicates wait for them. */
  inflight: Map<string, Promise<unknown>>;
  /**
   * Keys whose outcome this process holds but could not write yet (the database was away or its
   * disk full; the journal outbox retries): a replay is answered from here at once.
   */
  unsettled: Map<string, IdempotencyRecord>;
  /** Runs a mutation at most once per idempotency key, driving the store, the journal outbox and spend control. */
  idempotentRunner: IdempotentRunner;
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
  /**
   * The register's clock now, estimated from its latest Date header (this machine's clock until
   * it has answered once: RegisterClient.registerNow asks it first). A charge's day is not read
   * here but from the answer to the call that charged (`Answered.answeredAt`, and `RegisterError.answeredAt` for an answer that broke off).
   */
  registerNow: () => Date;
  /** The register's day now (or, `forPurchase`, while a call sent now may reach it), and whether it is known (RegisterTransport.registerDay). */
  registerDay: (forPurchase?: boolean) => RegisterDay;
  /** Concurrent downloads per tenant (this replica). */
  downloadSlots: DownloadSlots;
  /** When a download is closed: its caller stopped reading, or it ran too long. */
  downloadLimits: DownloadLimits;
  /** Automatic persisted queries (hash → query), shared by the replicas. */
  apq: ApqStore;
  /** Signed, absolute links to documents and plans. */
  downloadLinks: DownloadLinks;
  /** List fees, spending limits and statement visibility; replaced with the callers. */
  spend: SpendControl;
  /** Journal writes that failed after the register answered, retried until they land. */
  journalOutbox: JournalOutbox;
  /** Days the charge journal is kept (JOURNAL_RETENTION_DAYS): a statement reaching further back says so. */
  journalRetentionDays: number;
}

/** Who may call, as the tenants file says: replaced whole by a reload. */
export interface CallerSet {
  /** The API keys of the tenants file (`tenants`), or the embedded start's. */
  apiKeys: readonly ApiKeyConfig[];
  /** Per organisation (the tenants file): its spending limit and charging accounts. */
  organisations?: OrganisationsConfig;
  /** Per register API client (the tenants file): its spending limit. */
  clients?: ClientsConfig;
  /** The identity providers whose people call with sign-in tokens (the tenants file's `identityProviders`). */
  identityProviders?: readonly IdentityProviderConfig[];
}

/** Which tenants file runs: the first 12 hex digits of its content's SHA-256, and when it was taken. */
export interface CallersVersion {
  version: string;
  since: Date;
}

/** The settings, the register and its callers, and what tests put in place of the defaults. */
export interface ServiceOptions extends ServiceSettings, CallerSet {
  registerBaseUrl: string;
  /** The version of the tenants file the callers come from, when they come from one. */
  callersVersion?: string;
  /** How providers' keys are fetched and tokens cached (tests shorten the waits), and the failed tokens an address may cost (TOKEN_FAILURES_PER_MINUTE). */
  identity?: Omit<IdentityOptions, 'onKeysFetched' | 'budget'> & { failuresPerMinute?: number };
  /** The API key a request without credentials acts as (embedded emulator only). */
  anonymousKey?: string;
  transport?: Omit<RegisterTransportOptions, 'baseUrl'>;
  /** The idempotency store; default: PostgreSQL when `databaseUrl` is set, else SQLite in `dataDir`. */
  idempotency?: IdempotencyStore;
  /** The quota ledger; default: PostgreSQL when `databaseUrl` is set, else SQLite in `dataDir`. */
  quotaStore?: QuotaStore;
  /** The clock download links are made and checked by (ms since epoch); tests move it. Default Date.now. */
  downloadLinkClock?: () => number;
  /** How long a same-key request waits on another replica's call (default 30 s), and when an unfinished call counts as crashed (2 min). */
  idempotencyTiming?: IdempotencyTiming;
}

export interface RunningServices extends Services {
  transport: RegisterTransport;
  /**
   * Resolves once every store can be used (PostgreSQL reached and its tables in place); rejects
   * naming the store that cannot be opened, so a start stops before it listens.
   */
  opened(): Promise<void>;
  /**
   * Takes a new set of callers (the tenants file reloaded): a request already authenticated keeps
   * its caller; every later one is judged by the new set. Register clients whose credentials are
   * unchanged are kept, with their tokens.
   */
  replaceCallers(set: CallerSet, version: string): void;
  close(): Promise<void>;
}

const DAY = 24 * 60 * 60 * 1000;

/** The most specific reason down an error's causes: a driver's code (ECONNREFUSED, 28P01) when there is one. */
function whyNotOpened(error: unknown): string {
  const messages: string[] = [];
  for (let e = error, depth = 0; e instanceof Error && depth < 4; depth++, e = e.cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    messages.push(e.message);
  }
  return messages.at(-1) ?? String(error);
}

/** A store that could not be opened at start: main.ts stops the start with it, naming DATABASE_URL. */
export class StoreOpenError extends Error {
  override name = 'StoreOpenError';
  constructor(
    readonly store: string,
    cause: unknown,
  ) {
    super(`cannot open ${store} (${whyNotOpened(cause)})`, { cause });
  }
}

export function createServices(options: ServiceOptions): RunningServices {
  const events = new EventHub();
  const transport = new RegisterTransport({
    baseUrl: options.registerBaseUrl,
    ...options.transport,
    timeouts: {
      ...(options.registerCallDeadlineMs !== undefined ? { deadlineMs: options.registerCallDeadlineMs } : {}),
      ...options.transport?.timeouts,
    },
    onCall: (call) => {
      options.transport?.onCall?.(call);
      events.emit('registerCall', call);
    },
  });
  // The embedded stores' disk (full, read-only, failing) is told once per episode, for the log.
  const unwatchDataFile = options.databaseUrl
    ? undefined
    : dataFileHealth(options.dataDir).on((event) => {
        const { dataDir } = options;
        if (event.kind === 'outage') events.emit('storageOutage', { reason: event.reason, message: event.error.message, dataDir });
        else events.emit('storageRecovered', { reason: event.reason, downMs: event.downMs, dataDir });
      });
  const pools = connectionShares(options.databaseMaxConnections ?? DEFAULT_DATABASE_MAX_CONNECTIONS);
  // Every store is opened here, in PostgreSQL when DATABASE_URL is set (shared by the replicas),
  // else in SQLite files in DATA_DIR.
  const idempotency =
    options.idempotency ??
    (options.databaseUrl
      ? new PgIdempotencyStore({ connectionString: options.databaseUrl, maxConnections: pools.idempotency })
      : new SqliteIdempotencyStore(options.dataDir));
  // Keys are kept at least 24 h (the promise to callers) and the charge journal longer than the
  // longest statement (JOURNAL_RETENTION_DAYS; finance reconciles it with the register's
  // invoices); older rows are purged hourly.
  const journalRetentionDays = options.journalRetentionDays ?? DEFAULT_JOURNAL_RETENTION_DAYS;
  const apq = new RememberedApqStore(
    options.databaseUrl
      ? new PgApqStore(options.databaseUrl, options.apq, undefined, pools.apq)
      : new SqliteApqStore(options.dataDir, options.apq),
  );
  const purge = () => {
    void idempotency.purge(Date.now() - 2 * DAY).catch(() => undefined);
    // a purged query costs its next client one round trip to register it again
    void apq.purge(Date.now() - 30 * DAY).catch(() => undefined);
    void idempotency.purgeJournal(Date.now() - journalRetentionDays * DAY).catch(() => undefined);
  };
  purge();
  const purger = setInterval(purge, 60 * 60 * 1000);
  purger.unref();
  const quotaStore =
    options.quotaStore ??
    (options.databaseUrl
      ? new PgQuotaStore({
          connectionString: options.databaseUrl,
          msToMidnight: msToLondonMidnight,
          // The connection that hears other replicas' blocks (NOTIFY) is one of the ledger's share.
          maxConnections: Math.max(1, pools.quota - 1),
          notices: pools.quota > 1,
        })
      : new SqliteQuotaStore(options.dataDir, msToLondonMidnight));
  const quota = new QuotaGuard(quotaStore, options.quota, () => transport.registerNow());
  // One budget of failed tokens per address, whatever tenants file runs: a reload gives no address its budget back.
  const { failuresPerMinute, ...identityOptions } = options.identity ?? {};
  const budget = new VerificationBudget(failuresPerMinute);
  const callersOf = (set: CallerSet, previous?: CallerDirectory) => {
    const identityProviders = set.identityProviders ?? [];
    const identity = new IdentityProviders(identityProviders, {
      ...identityOptions,
      budget,
      onKeysFetched: (outcome) => events.emit('identityKeys', outcome),
    });
    const callers = new CallerDirectory(
      transport,
      set.apiKeys,
      options.anonymousKey,
      (client) => ({ quota: quota.forClient({ id: client.clientId, organisation: client.organisation }) }),
      identity,
      previous,
    );
    const spend = new SpendControl(
      options.spend,
      [
        ...set.apiKeys.filter((t): t is ApiKeyConfig & { clientId: string } => !t.router && !!t.clientId),
        ...identityProviders.map((p) => ({ clientId: p.clientId, organisation: p.organisation })),
      ],
      set.organisations,
      set.clients,
    );
    return { callers, spend };
  };
  const first = callersOf(options);
  // Rows the previous release wrote (a bare name, no principal) are given their principal once the
  // stores are open (opened), and hourly after: a replica of the previous release may write more
  // during a rolling upgrade. Until then the same rule decides at each read.
  const adoptLegacyCallers = () =>
    void idempotency.adoptLegacyCallers((scope, subject) => running.callers.legacyOwner(scope, subject)).catch(() => undefined);
  const adopter = setInterval(adoptLegacyCallers, 60 * 60 * 1000);
  adopter.unref();
  const inflight = new Map<string, Promise<unknown>>();
  const unsettled = new Map<string, IdempotencyRecord>();
  const journalOutbox = new JournalOutbox(events);
  const registerNow = () => transport.registerNow();
  const registerDay = (forPurchase?: boolean) => transport.registerDay(forPurchase);
  const running: RunningServices = {
    transport,
    callers: first.callers,
    callersVersion: options.callersVersion === undefined ? undefined : { version: options.callersVersion, since: new Date() },
    idempotency,
    inflight,
    unsettled,
    idempotentRunner: new IdempotentRunner({
      store: idempotency,
      journalOutbox,
      events,
      inflight,
      unsettled,
      spend: () => running.spend,
      registerNow,
      registerDay,
      timing: options.idempotencyTiming ?? {},
    }),
    referenceLists: new ReferenceListCache(options.reads.referenceListTtlMs),
    concurrency: options.reads.concurrency,
    summaryCaches: new SummaryCaches({ ttlMs: options.reads.summaryCacheTtlMs }),
    prefetchSecurities: options.reads.prefetchSecurities,
    events,
    quota,
    registerNow,
    registerDay,
    apq,
    downloadLinks: new DownloadLinks(options.downloadLinkSecret, options.publicUrl, options.downloadLinkClock, (keyId, knownKeyIds) =>
      events.emit('downloadLinkUnknownKey', { keyId, knownKeyIds }),
    ),
    downloadSlots: new DownloadSlots(options.downloads.perTenant),
    downloadLimits: options.downloads,
    journalOutbox,
    journalRetentionDays,
    spend: first.spend,
    async opened() {
      if (idempotency instanceof PgIdempotencyStore) {
        await idempotency.ready().catch((error: unknown) => {
          throw new StoreOpenError('the idempotency store', error);
        });
      }
      adoptLegacyCallers();
    },
    replaceCallers(set, version) {
      const next = callersOf(set, running.callers);
      running.callers = next.callers;
      running.spend = next.spend;
      running.callersVersion = { version, since: new Date() };
      adoptLegacyCallers();
    },
    async close() {
      clearInterval(purger);
      clearInterval(adopter);
      unwatchDataFile?.();
      // A mutation whose caller went away still runs: let it record its outcome before the
      // store closes, so its key is not left "in progress".
      await Promise.allSettled([...inflight.values()]);
      await journalOutbox.close();
      await quota.close();
      await transport.close();
      await idempotency.close();
      await quotaStore.close();
      await apq.close();
    },
  };
  return running;
}
