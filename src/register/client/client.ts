/**
 * RegisterClient: one per tenant (API client credentials). Owns that tenant's token cache and
 * calls the register through a shared RegisterTransport. Knows HTTP, nothing of GraphQL.
 * Every URL comes from ROUTES + buildPath, every JSON response is parsed with wire schemas.
 */
import type { z } from 'zod';
import { ROUTES, type RouteDef } from '../contract/routes';
import * as wire from '../contract/wire';
import type { RegisterCallEvent, RegisterTransport } from './http';
import { TokenCache, type TokenCacheOptions } from './token-cache';
import { RegisterError } from './errors';
import type { AttemptGate, AuthProvider, CallOptions, ExchangeSpec } from './call-spec';
import type { CallerSignal } from './cancellation';
import { exchange, initOf } from './exchange';
import {
  type Answered,
  contractError,
  discard,
  header,
  readDownload,
  readJson,
  type RawResponse,
  type RegisterDownload,
} from './responses';

export type { CallOptions } from './call-spec';
export type { RegisterDownload } from './responses';

export interface RegisterCredentials {
  clientId: string;
  clientSecret: string;
}

/**
 * The one object through which the organisation's quota (services/quota.ts, `QuotaGuard.forClient`)
 * sees and decides one client's calls, asked by this client alone: each attempt of a route before
 * it is sent and after it ended (through the call's AttemptGate), and the register's 429. Token
 * fetches are not counted (the register does not count them), but none is made while the
 * organisation's calls are refused: `refuseIfHeld` is asked first.
 */
export interface QuotaGate {
  /** Before every attempt; a RegisterError it throws refuses the attempt, unsent. */
  admit(route: RouteDef): Promise<void>;
  /**
   * Before `admit`: true when the attempt is admitted here and now (a free read with a lease in
   * hand), with nothing to wait for; false leaves the decision to `admit`.
   */
  admitNow(route: RouteDef): boolean;
  /**
   * Before a sign-in a call needs: throws the refusal admission would give the organisation as a
   * whole (the register's 429 holds, the day is used up, or a free read's share of it), counting
   * nothing; a sign-in is a request to the register too, and none is made for a call that cannot be.
   */
  refuseIfHeld(call: HeldCheck): Promise<void>;
  /** After every attempt, sent or not, with the event `onCall` gets. */
  settled(call: RegisterCallEvent): void;
  /** The register answered 429: awaited before the caller hears of it; resolves to the seconds its calls are now refused for. */
  rateLimited(retryAfterSeconds: number | undefined): Promise<number>;
}

/** A call about to sign in: its route's name, and whether it is a free read (which stops sooner, at its share of the day). */
export interface HeldCheck {
  route: string;
  free: boolean;
}

/** Optional tuning of a client; `now` lets tests share the emulator's clock. */
export type RegisterClientOptions = TokenCacheOptions & { quota?: QuotaGate };

export interface ListBodies {
  basic: wire.BasicList;
  detailed: wire.DetailedList;
  ordered: wire.OrderedList;
}

export type ReferenceListResult<V extends wire.ListView = wire.ListView> =
  | { notModified: true }
  | { notModified: false; etag?: string; body: ListBodies[V] };

const LIST_SCHEMAS: { [V in wire.ListView]: z.ZodType<ListBodies[V]> } = {
  basic: wire.BasicList,
  detailed: wire.DetailedList,
  ordered: wire.OrderedList,
};

type JsonRoute = RouteDef & { response: z.ZodType };

export class RegisterClient {
  private readonly tokens: TokenCache;
  private readonly basicHeader: string;
  private readonly bearer: AuthProvider;
  private readonly quota: QuotaGate | undefined;
  /**
   * The parts of a call's spec that do not change from call to call are made once (a closure per
   * call costs, under tsx's keepNames, a defineProperty each): what to redact when no FAS is sent,
   * the quota's word after each attempt, and each route's admission.
   */
  private readonly sensitive: () => (string | undefined)[];
  private readonly gates = new Map<RouteDef, AttemptGate>();

  constructor(
    private readonly transport: RegisterTransport,
    private readonly credentials: RegisterCredentials,
    options: RegisterClientOptions = {},
  ) {
    this.basicHeader = `Basic ${Buffer.from(`${credentials.clientId}:${credentials.clientSecret}`, 'utf8').toString('base64')}`;
    this.tokens = new TokenCache(() => this.fetchToken(), options);
    this.quota = options.quota;
    this.sensitive = () => [credentials.clientSecret, this.basicHeader, this.tokens.current()];
    this.bearer = {
      authorize: async (signal) => {
        const token = await this.tokens.get(signal);
        return { header: `Bearer ${token}`, token };
      },
      ready: () => {
        const token = this.tokens.ready();
        return token === undefined ? undefined : { header: `Bearer ${token}`, token };
      },
      invalidate: (token) => this.tokens.invalidate(token),
    };
  }

  // ---------------------------------------------------------------- the register's clock
  /**
   * The register's time now, by its own clock (the `Date` of its answers), never this
   * machine's: a process that has not heard the register yet asks it first, with the token
   * fetch its next call needs anyway (the register does not count token calls).
   */
  async registerNow(signal?: CallerSignal): Promise<Date> {
    if (!this.transport.knowsRegisterClock) {
      // Asked before a purchase: while the organisation may not make one, nothing is sent, not even the sign-in.
      await this.quota?.refuseIfHeld({ route: ROUTES.token.name, free: false });
      await this.tokens.get(signal).catch((error: unknown) => this.heldAfterRateLimit(error));
    }
    if (!this.transport.knowsRegisterClock) {
      // A token kept from an answer without a Date header (an HTTP server with a clock must send one).
      throw contractError(ROUTES.token.name, 200, "the register's answers carry no Date header, so its day is unknown");
    }
    return this.transport.registerNow();
  }

  // ---------------------------------------------------------------- titles
  titleSummary(titleNumber: string, opts?: CallOptions): Promise<wire.TitleSummaryResponse> {
    return this.json(ROUTES.titleSummary, { params: { titleNumber }, opts });
  }

  titleDetails(titleNumber: string, q: wire.ChargeQuery, opts?: CallOptions): Promise<Answered<wire.TitleDetailsResponse>> {
    return this.charging(ROUTES.titleDetails, { params: { titleNumber }, query: charge(q), fas: q.fas, opts });
  }

  pendingApplications(titleNumber: string, q: wire.ChargeQuery, opts?: CallOptions): Promise<Answered<wire.PendingApplicationsResponse>> {
    return this.charging(ROUTES.pendingApplications, { params: { titleNumber }, query: charge(q), fas: q.fas, opts });
  }

  // ---------------------------------------------------------------- documents and plans
  orderDocument(
    titleNumber: string,
    q: wire.ChargeQuery,
    body: wire.OrderDocumentRequest,
    opts?: CallOptions,
  ): Promise<Answered<wire.OrderDocumentResponse>> {
    return this.charging(ROUTES.orderDocument, { params: { titleNumber }, query: charge(q), json: body, fas: q.fas, opts });
  }

  purchasePlans(titleNumber: string, q: wire.ChargeQuery, opts?: CallOptions): Promise<Answered<wire.PurchasePlansResponse>> {
    return this.charging(ROUTES.purchasePlans, { params: { titleNumber }, query: charge(q), fas: q.fas, opts });
  }

  downloadDocument(titleNumber: string, documentId: string, opts?: CallOptions): Promise<RegisterDownload> {
    return this.download(ROUTES.downloadDocument, { titleNumber, documentId }, opts);
  }

  downloadPlan(titleNumber: string, planId: string, opts?: CallOptions): Promise<RegisterDownload> {
    return this.download(ROUTES.downloadPlan, { titleNumber, planId }, opts);
  }

  // ---------------------------------------------------------------- securities, creditors, cases
  securities(titleNumber: string, opts?: CallOptions): Promise<wire.SecuritiesResponse> {
    return this.json(ROUTES.securities, { params: { titleNumber }, opts });
  }

  creditors(query: string, opts?: CallOptions): Promise<wire.CreditorsResponse> {
    return this.json(ROUTES.creditors, { query: { query }, opts });
  }

  createCase(body: wire.CreateCaseRequest, opts?: CallOptions): Promise<wire.CreateCaseResponse> {
    return this.json(ROUTES.createCase, { json: body, fas: body.agent?.fas, opts });
  }

  addDeed(caseId: string, body: wire.AddDeedRequest, opts?: CallOptions): Promise<wire.AddDeedResponse> {
    return this.json(ROUTES.addDeed, { params: { caseId }, json: body, opts });
  }

  // ---------------------------------------------------------------- reference lists
  listPaths(opts?: CallOptions): Promise<string[]> {
    return this.json(ROUTES.listPaths, { opts });
  }

  /** 304 (with `ifNoneMatch`) → `{notModified: true}`; the body is parsed with the view's schema. */
  referenceList<V extends wire.ListView>(
    path: string,
    view: V,
    opts?: CallOptions & { ifNoneMatch?: string },
  ): Promise<ReferenceListResult<V>> {
    const route = ROUTES.referenceList;
    return this.call<ReferenceListResult<V>>(route, {
      params: { path },
      query: { view },
      headers: opts?.ifNoneMatch !== undefined ? { 'if-none-match': opts.ifNoneMatch } : undefined,
      alsoOk: [304],
      opts,
      read: async (res) => {
        if (res.status === 304) {
          await discard(res.body);
          return { notModified: true };
        }
        const body = await readJson(res, route.name, LIST_SCHEMAS[view]);
        const etag = header(res.headers, 'etag');
        return etag !== undefined ? { notModified: false, etag, body } : { notModified: false, body };
      },
    });
  }

  // ---------------------------------------------------------------- plumbing
  private json<R extends JsonRoute>(
    route: R,
    o: Pick<ExchangeSpec<unknown>, 'params' | 'query' | 'json' | 'opts'> & { fas?: string | undefined },
  ): Promise<z.output<R['response']>> {
    return this.call<z.output<R['response']>>(route, { ...o, read: jsonReader(route) as ExchangeSpec<z.output<R['response']>>['read'] });
  }

  /** A call that charges: its answer with the register's clock as the answer began (the charge's day). */
  private charging<R extends JsonRoute>(
    route: R,
    o: Pick<ExchangeSpec<unknown>, 'params' | 'query' | 'json' | 'opts'> & { fas?: string | undefined },
  ): Promise<Answered<z.output<R['response']>>> {
    const read = jsonReader(route);
    return this.call<Answered<z.output<R['response']>>>(route, {
      ...o,
      read: async (res) => {
        const body = (await read(res)) as z.output<R['response']>;
        return res.answeredAt ? { body, answeredAt: res.answeredAt } : { body };
      },
    });
  }

  private download(route: RouteDef, params: Record<string, string>, opts?: CallOptions): Promise<RegisterDownload> {
    return this.call<RegisterDownload>(route, {
      params,
      opts,
      accept: 'application/pdf, application/json;q=0.5',
      read: (res) => readDownload(res, route.name),
    });
  }

  private call<T>(
    route: RouteDef,
    o: Omit<ExchangeSpec<T>, 'route' | 'auth' | 'sensitive' | 'read'> & { read(res: RawResponse): Promise<T>; fas?: string | undefined },
  ): Promise<T> {
    const { fas, ...rest } = o;
    const quota = this.quota;
    const called = exchange(this.transport, {
      ...rest,
      route,
      ...(quota ? { gate: this.gateOf(route, quota) } : {}),
      auth: this.bearer,
      tenant: this.credentials.clientId,
      sensitive: fas === undefined ? this.sensitive : () => [this.credentials.clientSecret, this.basicHeader, this.tokens.current(), fas],
    });
    if (!quota) return called;
    return called.catch((error: unknown) => this.heldAfterRateLimit(error));
  }

  /**
   * The register's own 429 (status 429 with an answer, not a refusal made here), to a call or to
   * the sign-in before one: every replica refuses the organisation's calls until its Retry-After
   * (a minute without one), awaited before the caller hears of it, and the caller hears that
   * wait. Anything else is passed on as it is.
   */
  private async heldAfterRateLimit(error: unknown): Promise<never> {
    const quota = this.quota;
    if (quota && error instanceof RegisterError && error.status === 429 && error.code === 'TOO_MANY_REQUESTS' && error.sentAt) {
      const refusedForSeconds = await quota.rateLimited(error.retryAfterSeconds).catch(() => undefined);
      // Without a Retry-After, the caller hears the wait the organisation is now held to here.
      if (error.retryAfterSeconds === undefined && refusedForSeconds !== undefined) {
        const { outcomeUnknown, neverSent } = error;
        throw new RegisterError({
          ...initOf(error),
          retryAfterSeconds: refusedForSeconds,
          outcomeUnknown,
          neverSent,
          sentAt: error.sentAt,
          ...(error.answeredAt ? { answeredAt: error.answeredAt } : {}),
        });
      }
    }
    throw error;
  }

  /** The quota's gate for one route's calls, made once per route: a call's spec takes it as it is. */
  private gateOf(route: RouteDef, quota: QuotaGate): AttemptGate {
    let gate = this.gates.get(route);
    if (!gate) {
      const held: HeldCheck = { route: route.name, free: route.effect === 'none' };
      gate = {
        refuseIfHeld: () => quota.refuseIfHeld(held),
        admitNow: () => quota.admitNow(route),
        admit: () => quota.admit(route),
        settled: (call) => quota.settled(call),
      };
      this.gates.set(route, gate);
    }
    return gate;
  }

  private async fetchToken(): Promise<{ accessToken: string; expiresInSeconds: number }> {
    const route = ROUTES.token;
    // shared by every waiter: no caller signal, only the transport's own deadline
    const res = await exchange(this.transport, {
      route,
      query: { grant_type: 'client_credentials' },
      auth: { authorize: async () => ({ header: this.basicHeader }) },
      tenant: this.credentials.clientId,
      read: (r) => readJson(r, route.name, route.response),
      sensitive: () => [this.credentials.clientSecret, this.basicHeader],
    });
    return { accessToken: res.access_token, expiresInSeconds: res.expires_in };
  }
}

/** Each JSON route's reader, made once per route. */
const jsonReaders = new Map<RouteDef, (res: RawResponse) => Promise<unknown>>();
function jsonReader(route: JsonRoute): (res: RawResponse) => Promise<unknown> {
  let read = jsonReaders.get(route);
  if (!read) {
    read = (res) => readJson(res, route.name, route.response);
    jsonReaders.set(route, read);
  }
  return read;
}

function charge(q: wire.ChargeQuery): Record<string, string | undefined> {
  return { fas: q.fas, reference: q.reference };
}
