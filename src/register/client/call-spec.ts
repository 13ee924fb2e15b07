/**
 * What one register call is: its route and request, how it is authorised, how its answer is
 * read, and what the quota says about its attempts. The client builds one per call; the exchange
 * (exchange.ts) runs it.
 */
import type { RouteDef } from '../contract/routes';
import type { RegisterCallEvent } from './http';
import type { CallerSignal } from './cancellation';
import type { RawResponse } from './responses';

export interface CallOptions {
  /** Aborts a call that has no effect; ignored by charging and creating calls (see exchange). */
  signal?: CallerSignal;
  /** Sent as X-Request-Id. */
  requestId?: string;
}

export interface AuthProvider {
  /** The Authorization header for one attempt, and the bearer token inside it. */
  authorize(signal: AbortSignal): Promise<{ header: string; token?: string }>;
  /**
   * The same, when it is at hand without waiting (a cached token); undefined: ask `authorize`.
   * Spares the common attempt an AbortSignal and two promises.
   */
  ready?(): { header: string; token?: string } | undefined;
  /** Bearer routes only: forget a token the register answered 401 to. */
  invalidate?(token: string): void;
}

/**
 * What the organisation's quota says about one call, asked by the exchange alone and in this
 * order: before a sign-in the attempt needs, before each attempt, and after each attempt.
 */
export interface AttemptGate {
  /** Before a sign-in the attempt needs: the quota's word on the organisation, counting nothing; a RegisterError it throws ends the call unsent. */
  refuseIfHeld(): Promise<void>;
  /** Before each attempt (after credentials): true when the quota admits it at once, with nothing to wait for (a lease in hand). */
  admitNow(): boolean;
  /** Otherwise: the quota's admission, awaited; a RegisterError it throws ends the call unsent. */
  admit(): Promise<void>;
  /** After each attempt the breaker let through or refused, with its event: the quota takes back what the register did not count. */
  settled(call: RegisterCallEvent): void;
}

export interface ExchangeSpec<T> {
  route: RouteDef;
  params?: Record<string, string>;
  query?: Record<string, string | undefined>;
  json?: unknown;
  headers?: Record<string, string>;
  accept?: string;
  auth: AuthProvider;
  /** The tenant (API client id) for events; never sent anywhere. */
  tenant?: string;
  /** Statuses besides 2xx handed to `read` (e.g. 304). */
  alsoOk?: readonly number[];
  /** Reads a success response; may throw a REGISTER_CONTRACT_ERROR. */
  read(res: RawResponse): Promise<T>;
  /** The quota's say in this call's attempts; none: every attempt goes. */
  gate?: AttemptGate;
  /** Values to redact from register messages (secret, token, fas). */
  sensitive(): (string | undefined)[];
  opts?: CallOptions;
}

/** One attempt's Authorization header, and the bearer token inside it. */
export type Credentials = Awaited<ReturnType<AuthProvider['authorize']>>;
