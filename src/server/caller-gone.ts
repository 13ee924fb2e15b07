/**
 * A caller going away, read from Node's response: the signal the register client follows to stop
 * a free call nobody waits for. The request's own `signal` says the same, but the server adapter
 * makes it a Proxy over an EventTarget, and listening to it cost ~12 µs a request (about 2 % of a
 * `title`; docs/performance.md); this listens to the response's 'close', only once a call asks.
 */
import type { ServerResponse } from 'node:http';
import type { CallerSignal } from '../register/client';

/** Gone: the response closed before it was finished, as the adapter's own signal decides (@whatwg-node/server). */
export class CallerGone implements CallerSignal {
  private listeners: Set<EventListenerOrEventListenerObject> | undefined;
  private abortReason: unknown;

  constructor(private readonly res: ServerResponse) {}

  get aborted(): boolean {
    // Node marks the response destroyed as its socket closes, before the 'close' event.
    return this.res.destroyed && !this.res.writableFinished;
  }

  get reason(): unknown {
    if (!this.aborted) return undefined;
    this.abortReason ??= this.res.errored ?? new DOMException('This operation was aborted', 'AbortError');
    return this.abortReason;
  }

  addEventListener(_type: string, listener: EventListenerOrEventListenerObject | null): void {
    if (!listener) return;
    if (!this.listeners) {
      const listeners = new Set<EventListenerOrEventListenerObject>();
      this.listeners = listeners;
      this.res.once('close', () => {
        if (this.res.writableFinished) return;
        const event = new Event('abort');
        for (const each of [...listeners]) {
          if (typeof each === 'function') each(event);
          else each.handleEvent(event);
        }
        listeners.clear();
      });
    }
    // Kept as given, so that removeEventListener finds a listener object as well as a function.
    this.listeners.add(listener);
  }

  removeEventListener(_type: string, listener: EventListenerOrEventListenerObject | null): void {
    if (listener) this.listeners?.delete(listener);
  }
}
