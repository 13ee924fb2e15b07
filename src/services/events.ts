/**
 * In-process events of the service, so that metrics, logs and the quota guard observe the
 * register calls, charges and idempotency outcomes without the code that produces them
 * knowing who listens. Listeners must be cheap and must not throw (errors are swallowed).
 */
import type { RegisterCallEvent } from '../register/client';
import type { Charge } from '../register/contract/wire';
import type { DatabaseOutage } from '../storage/database-unavailable';

export interface ServiceEvents {
  /** A document reached GRAPHQL_JIT_AFTER runs: compiled by graphql-jit, or kept on graphql-js (it streams, or graphql-jit refused it). */
  documentCompiled: { outcome: 'compiled' | 'interpreted' };
  /** One register HTTP attempt finished (or failed without an answer). */
  registerCall: RegisterCallEvent;
  /** A mutation executed at the register and the register returned these charges. */
  charges: { tenant: string; organisation: string; operation: string; charges: readonly Charge[] };
  /**
   * What the idempotency layer did with one mutation request: `executed` only when the register
   * did it; `refused` when the register refused it for good; `rate_limited` when the
   * organisation's quota or the register's rate limit refused it and nothing was done.
   */
  idempotency: {
    tenant: string;
    operation: string;
    outcome:
      | 'executed'
      | 'refused'
      | 'rate_limited'
      | 'replayed'
      | 'key_reused'
      | 'outcome_unknown'
      | 'in_use'
      | 'invalid_input'
      | 'spend_limit'
      | 'above_max_fee';
  };
  /** A chargeable call refused by spend control before anything was sent. */
  spendRefused: { tenant: string; organisation: string; reason: 'caller_limit' | 'client_limit' | 'organisation_limit' | 'max_fee' };
  /** A chargeable call's expected fee was reserved against the spending limits (it is in flight). */
  spendReserved: { organisation: string; pence: number };
  /** That call ended: the register answered, or its outcome is unknown and the reservation now counts as spent. */
  spendReservationEnded: { organisation: string; pence: number };
  /** A /downloads request is over: refused (its code, lowercase), `ok` (the whole file, or a HEAD), or `cut` mid-file. */
  download: { outcome: string; durationMs: number };
  /** A live download link signed with a key this replica does not have arrived: replicas disagree on DOWNLOAD_LINK_SECRET (or the link is forged). */
  downloadLinkUnknownKey: { keyId: string; knownKeyIds: string[] };
  /** A journal write failed after the register answered; it is retried until it lands. */
  journalDeferred: { waiting: number };
  /** The disk under the embedded database (DATA_DIR) became full, read-only or failing: told once per episode, not per request. */
  storageOutage: { reason: DatabaseOutage; message: string; dataDir: string };
  /** That episode is over: writes are taken again. */
  storageRecovered: { reason: DatabaseOutage; downMs: number; dataDir: string };
  /**
   * The tenants file was read again (SIGHUP, or it changed): `applied` (its callers serve every
   * later request), `unchanged`, or `refused` (it does not validate: `reason` says why, and
   * `version` still runs).
   */
  tenantsFile: {
    outcome: 'applied' | 'unchanged' | 'refused';
    version: string;
    previous?: string | undefined;
    reason?: string | undefined;
  };
  /** An identity provider's discovery document and signing keys were fetched, or could not be. */
  identityKeys: { issuer: string; ok: boolean; reason?: string | undefined };
  /**
   * A request that looks like a federation gateway's (`sign`: why) came without a router key in
   * `titlegraph-router-key`, so titlegraph cannot tell whether the gateway's money rules checked it.
   */
  gatewayWithoutRouterKey: { requestId: string; sign: GatewaySign };
  /** The register charged more than the caller's maxFee allowed (its fee changed): shown, and logged as a warning. */
  chargeAboveMaxFee: { tenant: string; operation: string; chargedPence: number; maxFeePence: number };
}

/**
 * What gave a request away as a gateway's: a subgraph operation name (`Name__titlegraph__0`, Apollo's
 * planners), `_entities` or `_service`, Apollo Gateway's HTTP client (`minipass-fetch`,
 * `make-fetch-happen`), or the Accept that Hive Gateway's subgraph executor sends.
 */
export type GatewaySign = 'subgraph_operation_name' | 'entities' | 'service_sdl' | 'apollo_gateway_client' | 'hive_gateway_accept';

type Listener<E> = (event: E) => void;

export class EventHub {
  private readonly listeners: { [K in keyof ServiceEvents]?: Listener<ServiceEvents[K]>[] } = {};

  on<K extends keyof ServiceEvents>(name: K, listener: Listener<ServiceEvents[K]>): () => void {
    this.listeners[name] ??= [];
    const list = this.listeners[name] as Listener<ServiceEvents[K]>[];
    list.push(listener);
    return () => list.splice(list.indexOf(listener), 1);
  }

  emit<K extends keyof ServiceEvents>(name: K, event: ServiceEvents[K]): void {
    for (const listener of (this.listeners[name] ?? []) as Listener<ServiceEvents[K]>[]) {
      try {
        listener(event);
      } catch {
        // An observer must never break a request.
      }
    }
  }
}
