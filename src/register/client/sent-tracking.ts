/** Whether a call was written to the register: the proof a failed call with an effect needs that it never was. */
import type { Dispatcher } from 'undici';

/**
 * undici writes a request only after handing it a connection (`onConnect`); until then it
 * waits in the pool queue. This dispatcher tells the two apart, which is the proof that a
 * failed call with an effect never reached the register. Written by hand: undici exposes no
 * per-request "was it written" flag, and its interceptors see the same handler calls. The
 * handler is the one `request()` made for this call alone, so its `onConnect` is shadowed on the
 * instance (a Proxy around it cost a trap and a bound function on every handler call).
 */
export function trackingDispatcher(agent: Dispatcher, onConnected: () => void): Dispatcher {
  return {
    dispatch(options: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler) {
      const onConnect = handler.onConnect;
      if (typeof onConnect === 'function') {
        // An anonymous function: a named one costs a defineProperty per call under tsx's keepNames.
        handler.onConnect = function (this: unknown, ...args: Parameters<typeof onConnect>) {
          onConnected();
          return onConnect.apply(this, args);
        };
      }
      return agent.dispatch(options, handler);
    },
  } as Dispatcher;
}
