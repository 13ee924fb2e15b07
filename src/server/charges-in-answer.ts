/**
 * The charges a request made (or replayed) always reach its answer: in `data` when the caller
 * selected them, and otherwise under the top-level `extensions.charges`. "Otherwise" is judged on
 * the result, not the document: an answer with errors (null propagation, a masked exception may
 * have taken them out of `data`), or whose `data` lacks a charge's transaction number (`charges`
 * left out, skipped by @skip or @include however they were written, or selected without
 * `transactionNumber`), lists them all there. Before any of this, validation keeps a chargeable
 * mutation alone in its operation and its payload never deferred (src/security/).
 */
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import type { Context } from '../graphql/context';

/** What an `onExecute` hook hands back: its hooks for the end of that execution. */
type ExecuteHooks = Exclude<Awaited<ReturnType<NonNullable<Plugin<Context>['onExecute']>>>, void>;

/** True when every one of `wanted` is a string somewhere in `data` (under whatever alias the caller gave it). */
function allIn(data: unknown, wanted: readonly string[]): boolean {
  const missing = new Set(wanted);
  const stack: unknown[] = [data];
  while (missing.size > 0 && stack.length > 0) {
    const value = stack.pop();
    if (typeof value === 'string') missing.delete(value);
    else if (Array.isArray(value)) stack.push(...value);
    else if (value && typeof value === 'object') stack.push(...Object.values(value));
  }
  return missing.size === 0;
}

/** The same hooks for every request: nothing of a request is kept between them. */
const CHARGES_IN_ANSWER: ExecuteHooks = {
  onExecuteDone({ args, result, setResult }) {
    const made = (args.contextValue as Partial<Context>).chargesMade;
    if (!made?.length || isAsyncIterable(result)) return;
    const charges = made.flatMap(({ operation, idempotencyKey, charges }) =>
      charges.map((charge) => ({ operation, idempotencyKey, ...charge })),
    );
    const transactionNumbers = charges.map((charge) => charge.transactionNumber);
    if (!result.errors?.length && allIn(result.data, transactionNumbers)) return;
    setResult({ ...result, extensions: { ...result.extensions, charges } });
  },
};

export function useChargesInAnswer(): Plugin<Context> {
  return {
    onExecute() {
      return CHARGES_IN_ANSWER;
    },
  };
}
