/**
 * Retry policy: the pure decision of what may be sent again (`shouldRetry`), full-jitter
 * exponential back-off, Retry-After parsing and an abortable sleep.
 */
import type { RouteEffect } from '../contract/routes';
import type { CallerSignal } from './cancellation';

/**
 * How one attempt of a register call failed, as far as the client can know. The kinds split
 * on one question: can the register have executed the request?
 * - Proven not executed: `not_sent` (connection refused, connect timeout, or the wait for a
 *   pool connection ran out before any byte was written), `circuit_open`, `token_failed`
 *   (no credentials, so nothing was sent), `unauthorised` (401), `rate_limited` (429) and
 *   `rejected` (any other 4xx: the register refused the input).
 * - Possibly executed: `server_error` (5xx or an unexpected status), `timeout` (sent, no
 *   answer in time), `reset` (the connection dropped after sending), `body_cut` (a 2xx whose
 *   body stopped), `contract` (a 2xx whose body breaks the wire contract).
 */
export type FailureKind =
  | 'not_sent'
  | 'circuit_open'
  | 'token_failed'
  | 'unauthorised'
  | 'rate_limited'
  | 'rejected'
  | 'server_error'
  | 'timeout'
  | 'reset'
  | 'body_cut'
  | 'contract';

export const FAILURE_KINDS: readonly FailureKind[] = [
  'not_sent',
  'circuit_open',
  'token_failed',
  'unauthorised',
  'rate_limited',
  'rejected',
  'server_error',
  'timeout',
  'reset',
  'body_cut',
  'contract',
];

/**
 * - `retry`: send again (attempts, the deadline and the back-off permitting);
 * - `fail`: give up; nothing was executed (or, for a read, nothing worth repeating);
 * - `unknown`: give up and never send again: the register may have charged or created.
 */
export type RetryDecision = 'retry' | 'fail' | 'unknown';

export interface FailureFacts {
  kind: FailureKind;
  /** A 429 or a failed token fetch that said how long to wait. */
  retryAfterKnown?: boolean;
  /** A token fetch failure that is worth another try (5xx, timeout, reset, 429 with Retry-After). */
  tokenTransient?: boolean;
}

/**
 * Effect, not HTTP method, decides: `titleDetails` and `pendingApplications` are GETs that
 * charge. A call with an effect is retried only on a failure that proves the register never
 * executed it; any other failure of such a call is final and unknown. A read retries every
 * transient failure. The 401 refresh is not decided here: the exchange re-sends once after
 * fetching a new token (the register did not execute a request it refused as unauthorised).
 */
export function shouldRetry(effect: RouteEffect, failure: FailureFacts): RetryDecision {
  switch (failure.kind) {
    case 'not_sent':
      return 'retry';
    case 'token_failed':
      return failure.tokenTransient ? 'retry' : 'fail';
    case 'rate_limited':
      return failure.retryAfterKnown ? 'retry' : 'fail';
    case 'circuit_open':
    case 'unauthorised':
    case 'rejected':
      return 'fail';
    case 'contract':
      return effect === 'none' ? 'fail' : 'unknown';
    case 'server_error':
    case 'timeout':
    case 'reset':
    case 'body_cut':
      return effect === 'none' ? 'retry' : 'unknown';
  }
}

export interface RetryPolicy {
  /** Total attempts, first one included. */
  attempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 3, baseDelayMs: 100, maxDelayMs: 2_000 };

/**
 * Full jitter (AWS architecture blog): a uniform delay in [0, min(max, base * 2^(n-1))],
 * where n is the number of failed attempts so far (1 after the first failure).
 */
export function backoffDelayMs(policy: RetryPolicy, failures: number, random: () => number = Math.random): number {
  const exp = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, failures - 1));
  return Math.floor(random() * exp);
}

/**
 * Parses a Retry-After header: delta-seconds or an HTTP date. Returns whole seconds
 * (rounded up, never negative), or undefined when absent or unparseable.
 */
export function parseRetryAfter(value: string | string[] | undefined, nowMs: number = Date.now()): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (raw === undefined) return undefined;
  const v = raw.trim();
  if (v === '') return undefined;
  if (/^\d+$/.test(v)) return Number(v);
  // An HTTP date names its month in letters; Date.parse would also take "1.5" or "-3" as dates.
  if (!/[A-Za-z]{3}/.test(v)) return undefined;
  const at = Date.parse(v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, Math.ceil((at - nowMs) / 1000));
}

/** Sleeps `ms`, rejecting with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** Resolves or rejects with `promise`, or rejects with the signal's reason when it aborts first. */
export function raceSignal<T>(promise: Promise<T>, signal?: CallerSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
