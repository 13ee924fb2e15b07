/**
 * Liveness and readiness for orchestrators and load balancers.
 *
 * - GET /health (graphql-yoga's built-in check): 200 as long as the process serves HTTP. It
 *   never looks at the register: restarting titlegraph does not fix a register outage.
 * - GET /ready: 200 when the database takes requests (the shared one, DATABASE_URL, answers; the
 *   embedded one's disk is not full, read-only or failing) and the register's token route
 *   answers within `timeoutMs` and the circuit breaker lets calls through, 503 otherwise.
 *   While the breaker is open every call is refused, so the replica is not ready, and says for
 *   how long (`retryAfterSeconds`) and which routes failed (`failedRoutes`). Once it is half-open
 *   the probe makes its trial, of what failed: a replica that a load balancer took out of rotation
 *   gets no calls that could close it. When only the token route failed, the probe's own call is
 *   the trial; when data routes failed, the token route may answer while they hang, so the trial
 *   is the last failed call that has no effect, sent again (a real call with its caller's
 *   credentials, counted on its organisation's quota like any other), or, when only calls that
 *   charge or create failed (never sent again), the last call without effect.
 *   The probe sends no credentials (nothing is charged or counted, no token is made): the
 *   register refuses it (401), which proves the address is the register's. A 404 means
 *   REGISTER_BASE_URL points elsewhere (a missing /v1, say), and a 5xx that the register is
 *   down: both are "not ready". A result is reused for `cacheMs` and concurrent probes share one
 *   call, so frequent probing cannot flood the register.
 */
import type { Plugin } from 'graphql-yoga';
import type { RegisterTransport } from '../register/client';
import type { BreakerCall } from '../register/client/circuit-breaker';
import { ROUTES } from '../register/contract/routes';
import type { DownloadLinks } from '../services/downloads/links';
import type { CallersVersion, Services } from '../services/create-services';
import { useReadOnlyRoute } from './read-only-route';
import { type DatabaseOutage, DatabaseUnavailableError } from '../storage/database-unavailable';
import { DEFAULT_READY_TIMEOUT_MS, type ReadinessOptions } from './settings';

export interface Readiness {
  ready: boolean;
  register: {
    reachable: boolean;
    status?: number;
    error?: 'timeout' | 'unreachable' | 'closed';
    breaker: string;
    /** While the breaker refuses calls: when it lets one through again. */
    retryAfterSeconds?: number;
    /** While the breaker refuses calls: the routes whose failures opened it (what its trial must prove). */
    failedRoutes?: string[];
  };
  /**
   * The database (shared with DATABASE_URL, or the embedded file in DATA_DIR): without it no
   * request can be taken. `error` says why: unreachable, or the embedded file's disk is full,
   * read-only or failing.
   */
  database?: { reachable: boolean; error?: DatabaseOutage };
  /** The download link keys (ids only): replicas that show another signingKeyId sign links this one may refuse. */
  downloadLinks?: { signingKeyId: string; keyIds: string[] };
  /** The tenants file this replica's callers come from (its version) and since when: replicas that show another have not reloaded it yet. */
  tenantsFile?: { version: string; since: string };
}

type Transport = Pick<RegisterTransport, 'breakerState' | 'url' | 'closed' | 'breaker'>;

/** The probe as the breaker sees it when it is the trial: a call to the token route, never sent again. */
const PROBE_CALL: BreakerCall = {
  routeName: ROUTES.token.name,
  resendable: false,
  resend: () => Promise.reject(new Error('the readiness probe is not sent again')),
};

class ReadinessProbe {
  private last: { at: number; result: Omit<Readiness['register'], 'breaker'> } | undefined;
  private pending: Promise<Omit<Readiness['register'], 'breaker'>> | undefined;
  /** A failed call sent again as the breaker's trial, until it ends. */
  private resending = false;
  readonly path: string;
  private readonly timeoutMs: number;
  private readonly cacheMs: number;

  constructor(
    private readonly transport: Transport,
    options: ReadinessOptions = {},
    /** Rejects when the shared database cannot be reached; absent with the embedded store. */
    private readonly database?: () => Promise<void>,
    private readonly downloadLinks?: Pick<DownloadLinks, 'signingKeyId' | 'keyIds'>,
    /** Read at each check: a reload replaces it. */
    private readonly callersVersion: () => CallersVersion | undefined = () => undefined,
  ) {
    this.path = options.path ?? '/ready';
    this.timeoutMs = options.timeoutMs ?? DEFAULT_READY_TIMEOUT_MS;
    this.cacheMs = options.cacheMs ?? 1_000;
  }

  async check(): Promise<Readiness> {
    const [register, database] = await Promise.all([this.probeThroughBreaker(), this.probeDatabase()]);
    const breaker = this.transport.breakerState();
    const refusing = breaker !== 'closed' && !this.transport.closed;
    const retryAfterMs = refusing ? this.transport.breaker.retryAfterMs() : 0;
    const tenants = this.callersVersion();
    return {
      ready: register.reachable && !refusing && (database?.reachable ?? true),
      register: {
        ...register,
        breaker,
        ...(refusing
          ? {
              retryAfterSeconds: Math.max(1, Math.ceil(retryAfterMs / 1000)),
              failedRoutes: this.transport.breaker.failedRoutes(),
            }
          : {}),
      },
      ...(database ? { database } : {}),
      ...(this.downloadLinks
        ? { downloadLinks: { signingKeyId: this.downloadLinks.signingKeyId, keyIds: this.downloadLinks.keyIds } }
        : {}),
      ...(tenants ? { tenantsFile: { version: tenants.version, since: tenants.since.toISOString() } } : {}),
    };
  }

  private async probeDatabase(): Promise<Readiness['database']> {
    if (!this.database) return undefined;
    try {
      await Promise.race([
        this.database(),
        new Promise((_, reject) => setTimeout(() => reject(new Error('timeout')), this.timeoutMs).unref()),
      ]);
      return { reachable: true };
    } catch (error) {
      return { reachable: false, error: error instanceof DatabaseUnavailableError ? error.reason : 'unreachable' };
    }
  }

  /** The probe; when the half-open breaker waits for its trial, the trial of what failed. */
  private async probeThroughBreaker(): Promise<Omit<Readiness['register'], 'breaker'>> {
    if (this.transport.breakerState() !== 'half_open') return this.probe();
    const failed = this.transport.breaker.failedRoutes();
    // the probe's own call (the token route) proves only the sign-in: the trial when it alone failed
    if (failed.length > 0 && (failed.length > 1 || failed[0] !== ROUTES.token.name)) {
      this.resendFailedCall();
      return this.probe();
    }
    const trial = this.transport.breaker.acquire(PROBE_CALL);
    if (!trial) return this.probe();
    trial.sent();
    const result = await this.call();
    if (result.reachable) trial.success();
    else trial.failure();
    this.last = { at: performance.now(), result };
    return result;
  }

  /** Not awaited: the breaker judges the trial (its answer, or its being slow), and /ready reports the state it leaves. */
  private resendFailedCall(): void {
    const breaker = this.transport.breaker;
    const call = breaker.trialCall();
    // retryAfterMs is 0 while half-open only when no trial is out yet
    if (!call || this.resending || breaker.retryAfterMs() > 0) return;
    this.resending = true;
    call
      .resend()
      .catch(() => undefined)
      .finally(() => {
        this.resending = false;
      });
  }

  private probe(): Promise<Omit<Readiness['register'], 'breaker'>> {
    if (this.transport.closed) return Promise.resolve({ reachable: false, error: 'closed' });
    if (this.last && performance.now() - this.last.at < this.cacheMs) return Promise.resolve(this.last.result);
    this.pending ??= this.call().then((result) => {
      this.last = { at: performance.now(), result };
      this.pending = undefined;
      return result;
    });
    return this.pending;
  }

  private async call(): Promise<Omit<Readiness['register'], 'breaker'>> {
    try {
      const response = await fetch(this.transport.url(ROUTES.token), {
        method: 'POST',
        signal: AbortSignal.timeout(this.timeoutMs),
        redirect: 'manual',
      });
      await response.body?.cancel().catch(() => undefined);
      return { reachable: response.status < 500 && response.status !== 404, status: response.status };
    } catch (error) {
      const timedOut = error instanceof DOMException && error.name === 'TimeoutError';
      return { reachable: false, error: timedOut ? 'timeout' : 'unreachable' };
    }
  }
}

/** GET /ready: whether this replica should take requests (the register through its breaker, the database, the signing keys). */
export function useReadiness(
  services: Pick<Services, 'idempotency' | 'downloadLinks' | 'callersVersion'> & { transport?: Transport },
  options?: ReadinessOptions,
): Plugin {
  // Services built without their register transport (some tests') have nothing to probe.
  if (!services.transport) return {};
  const ping = services.idempotency.ping?.bind(services.idempotency);
  const probe = new ReadinessProbe(services.transport, options, ping, services.downloadLinks, () => services.callersVersion);
  return useReadOnlyRoute({
    path: probe.path,
    answer: async (request) => {
      const readiness = await probe.check();
      return new Response(request.method === 'HEAD' ? null : JSON.stringify(readiness), {
        status: readiness.ready ? 200 : 503,
        headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' },
      });
    },
  });
}
