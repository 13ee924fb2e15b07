// promise-helpers 2.x, plus the one function 2.0 removed (see README.md).
import { handleMaybePromise } from 'promise-helpers-2';

export * from 'promise-helpers-2';

/** 1.x's mapMaybePromise, which @envelop/core 5 re-exports: 2.x's handleMaybePromise does the work, as 1.x's did. */
export function mapMaybePromise(input, onSuccess, onError) {
  return handleMaybePromise(() => input, onSuccess, onError);
}
