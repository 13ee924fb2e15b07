/** The per-request context: who is calling, their register client, and fresh loaders. */
import { topLevelError } from './error-codes';
import type { GraphQLError } from 'graphql';
import type { Charge } from '../register/contract/wire';
import { createLoaders, type Loaders } from './loaders';
import type { CallerSignal, CallOptions, RegisterClient } from '../register/client';
import type { Services } from '../services/create-services';
import { RouterKeyNotAClient, type Caller } from '../services/callers';

export type { Services } from '../services/create-services';

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
  caller: Caller;
  register: RegisterClient;
  loaders: Loaders;
  services: Services;
  callOptions: CallOptions;
  /** Charges made or replayed by this request (see server/charges-in-answer.ts). */
  chargesMade: ChargeInAnswer[];
  /** What the answer must say beside its data (`extensions.warnings`, see server/warnings-in-answer.ts). */
  warnings: AnswerWarning[];
}

/** A caveat on an answer that is not an error: its data is right, and this is what it lacks. */
export interface AnswerWarning {
  code: string;
  message: string;
}

export function unauthenticated(message: string): GraphQLError {
  return topLevelError('UNAUTHENTICATED', message, { http: { status: 401, headers: { 'WWW-Authenticate': 'Bearer' } } });
}

/** Callers as the HTTP edge authenticated them (server/authentication.ts), before the request's document was read. */
const callers = new WeakMap<Request, Caller>();

export function rememberCaller(request: Request, caller: Caller): void {
  callers.set(request, caller);
}

/** The caller the edge authenticated for this request; undefined before it has. */
export const callerOf = (request: Request): Caller | undefined => callers.get(request);

/** The register client of a router key: there is none, and any use of it is refused. */
const NO_REGISTER_CLIENT = new Proxy({} as RegisterClient, {
  get: () => {
    throw new RouterKeyNotAClient();
  },
});

/**
 * The context of one request; `requestId` and `origin` (scheme, host and port, for the links an
 * answer gives) come from the HTTP edge, which names every request and has parsed its URL.
 */
export function createContext(
  services: Services,
  request: Request,
  requestId: string,
  origin: string,
  /** The caller's going away (server/caller-gone.ts behind Node's server, the request's signal through yoga.fetch). */
  callerSignal: CallerSignal,
): Context {
  const caller = callers.get(request);
  // Never reached through the app, whose edge refuses a request without valid credentials first.
  if (!caller) throw unauthenticated('Authentication required: send Authorization: Bearer <API key or sign-in access token>.');
  // A router key has no register client (security/router-key.ts refuses whatever would need one).
  const register = caller.router ? NO_REGISTER_CLIENT : services.callers.clientFor(caller);
  // A caller that goes away stops its free register calls (queued ones are never sent, those in
  // flight are aborted); the exchange never lets this signal touch a call that charges or
  // creates, which runs to its end and is recorded (register/client/exchange.ts). The signal is
  // only listened to, once, when a free call is made.
  const callOptions: CallOptions = { requestId, signal: callerSignal };
  return {
    requestId,
    origin,
    caller,
    register,
    loaders: createLoaders(register, services.concurrency, callOptions, services.summaryCaches.for(caller.clientId)),
    services,
    callOptions,
    chargesMade: [],
    warnings: [],
  };
}
