/** Cancelling register calls: a call's deadline, and a free call's caller going away (one listener per caller). */
import { EventEmitter } from 'node:events';

/**
 * What a call needs of its caller's going away: an AbortSignal is one; the HTTP edge gives a
 * cheaper one read from Node's response (server/caller-gone.ts).
 */
export type CallerSignal = Pick<AbortSignal, 'aborted' | 'reason' | 'addEventListener' | 'removeEventListener'>;

/** The call's own deadline passed (RegisterCall's timer). */
export class DeadlineExceeded extends Error {
  override name = 'DeadlineExceeded';
}

/**
 * One call's cancellation: its deadline or, for a free call, its caller going away. undici takes
 * an EventEmitter as its `signal`, and so does the wait for a pool slot: an AbortSignal is made
 * only when something asks for one (a token fetch, a back-off wait). Node's AbortSignal costs
 * ~3 µs to create and a composite one (`AbortSignal.any`) far more, on every call (docs/performance.md).
 */
export class CallAbort extends EventEmitter {
  aborted = false;
  reason: unknown;
  private controller: AbortController | undefined;

  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason;
    this.controller?.abort(reason);
    this.emit('abort', reason);
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.aborted) this.controller.abort(this.reason);
    }
    return this.controller.signal;
  }
}

/**
 * The free calls in flight for each caller's signal. One listener per caller aborts them all
 * when it goes away, instead of a composite signal and its listeners for every call.
 */
const callsOfCaller = new WeakMap<CallerSignal, Set<CallAbort>>();

/** Aborts `call` when `caller` aborts, until the function returned is called. */
export function followCaller(caller: CallerSignal, call: CallAbort): () => void {
  let calls = callsOfCaller.get(caller);
  if (!calls) {
    const inFlight = new Set<CallAbort>();
    calls = inFlight;
    callsOfCaller.set(caller, inFlight);
    caller.addEventListener(
      'abort',
      () => {
        for (const c of inFlight) c.abort(caller.reason);
        inFlight.clear();
      },
      { once: true },
    );
  }
  calls.add(call);
  const followed = calls;
  return () => followed.delete(call);
}

/** `pending`, or the call's abort reason when it aborts first ('abort' is emitted with it). */
export function raceAbort<R>(pending: Promise<R>, abort: CallAbort): Promise<R> {
  if (abort.aborted) return Promise.reject(abort.reason);
  return new Promise<R>((resolve, reject) => {
    abort.once('abort', reject);
    pending.then(
      (value) => {
        abort.removeListener('abort', reject);
        resolve(value);
      },
      (error: unknown) => {
        abort.removeListener('abort', reject);
        reject(error);
      },
    );
  });
}
