/**
 * Automatic persisted queries, Apollo's protocol, as Apollo Client's PersistedQueryLink and
 * urql's persistedExchange speak it: a request with only `extensions.persistedQuery.sha256Hash`
 * runs the query its organisation registered under that hash, or is answered
 * PERSISTED_QUERY_NOT_FOUND (and the client sends the query with its hash, which registers it).
 *
 * A query is registered only once its request is about to execute: its caller authenticated, its
 * document parsed and validated. Nothing an unauthenticated caller sends is written anywhere, nor
 * text that is not a valid operation. Each API client may register `registrationsPerMinute`
 * queries a minute (per replica); past that, and past the store's bounds, the request still
 * runs, its query is just not kept.
 *
 * Written here rather than with @graphql-yoga/plugin-apq: that plugin's peer range pins
 * @graphql-tools/utils 10, while this project (codegen) is on 11, and npm refuses the install;
 * and it stores on arrival, before authentication.
 */
import { topLevelError, type TopLevelErrorCode } from '../graphql/error-codes';
import { createHash } from 'node:crypto';
import type { Plugin } from 'graphql-yoga';
import { callerOf, type Context } from '../graphql/context';
import type { ApqStore } from '../storage/apq/store';
import { DEFAULT_APQ_REGISTRATIONS_PER_MINUTE } from '../storage/settings';

const HEX_SHA256 = /^[0-9a-f]{64}$/;

const refusal = (message: string, code: TopLevelErrorCode) => topLevelError(code, message, { http: { status: 200 } });

/** A token bucket per API client: `perMinute` registrations a minute, as many at once. */
class RegistrationBudget {
  private readonly buckets = new Map<string, { tokens: number; at: number }>();

  constructor(private readonly perMinute: number) {}

  take(client: string, now = Date.now()): boolean {
    const bucket = this.buckets.get(client) ?? { tokens: this.perMinute, at: now };
    bucket.tokens = Math.min(this.perMinute, bucket.tokens + ((now - bucket.at) / 60_000) * this.perMinute);
    bucket.at = now;
    this.buckets.set(client, bucket);
    if (bucket.tokens < 1) return false;
    bucket.tokens -= 1;
    return true;
  }
}

export function useAutomaticPersistedQueries(store: ApqStore, registrationsPerMinute = DEFAULT_APQ_REGISTRATIONS_PER_MINUTE): Plugin {
  const toRegister = new WeakMap<Request, { hash: string; query: string }>();
  const budget = new RegistrationBudget(registrationsPerMinute);
  return {
    // Synchronous unless a store is to be read or written: a promise would cost every request a turn.
    onParams({ params, setParams, request }) {
      const persisted = params.extensions?.persistedQuery as { version?: unknown; sha256Hash?: unknown } | undefined;
      if (!persisted || typeof persisted !== 'object') return;
      const hash = typeof persisted.sha256Hash === 'string' ? persisted.sha256Hash.toLowerCase() : '';
      if (persisted.version !== 1 || !HEX_SHA256.test(hash)) {
        throw topLevelError('PERSISTED_QUERY_INVALID', 'extensions.persistedQuery must be { version: 1, sha256Hash: <64 hex digits> }.', {
          http: { status: 400 },
        });
      }
      if (typeof params.query === 'string') {
        // The client registers: the hash must be the query's, or anyone could shadow another's query.
        if (createHash('sha256').update(params.query, 'utf8').digest('hex') !== hash) {
          throw topLevelError('PERSISTED_QUERY_MISMATCH', 'PersistedQueryMismatch: sha256Hash is not the SHA-256 of the query text.', {
            http: { status: 400 },
          });
        }
        toRegister.set(request, { hash, query: params.query });
        return;
      }
      // A hash alone is looked up in its caller's organisation (the edge authenticated it before this).
      const caller = callerOf(request);
      const found = caller ? store.get(caller.organisation, hash) : Promise.resolve(undefined);
      return found.then((query) => {
        // The message and code Apollo Client and urql look for before sending the query itself.
        if (query === undefined) throw refusal('PersistedQueryNotFound', 'PERSISTED_QUERY_NOT_FOUND');
        setParams({ ...params, query });
      });
    },
    onExecute({ args }) {
      const context = args.contextValue as Partial<Context> & { request?: Request };
      const pending = context.request && toRegister.get(context.request);
      if (!pending || !context.caller || context.caller.router) return;
      if (!budget.take(context.caller.clientId)) return;
      // Written before the answer goes out, so the client's next request (maybe to another
      // replica) finds it; a store that is full or away never fails the request that registers.
      return store.set(context.caller.organisation, pending.hash, pending.query).then(
        () => undefined,
        () => undefined,
      );
    },
  };
}
