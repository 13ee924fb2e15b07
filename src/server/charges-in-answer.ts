/**
 * The second line of defence for money in the answer: when a request that made (or replayed) a
 * charge ends with errors, its charges are also listed under the top-level `extensions.charges`,
 * because an error may have taken them out of `data` (null propagation, a masked exception).
 * The first line is the validation rule that keeps a chargeable mutation alone in its operation.
 */
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import type { Context } from '../graphql/context';

/** What an `onExecute` hook hands back: its hooks for the end of that execution. */
type ExecuteHooks = Exclude<Awaited<ReturnType<NonNullable<Plugin<Context>['onExecute']>>>, void>;

/** The same hooks for every request: nothing of a request is kept between them. */
const CHARGES_IN_ANSWER: ExecuteHooks = {
  onExecuteDone({ args, result, setResult }) {
    const made = (args.contextValue as Partial<Context>).chargesMade;
    if (!made?.length || isAsyncIterable(result) || !result.errors?.length) return;
    const charges = made.flatMap(({ operation, idempotencyKey, charges }) =>
      charges.map((charge) => ({ operation, idempotencyKey, ...charge })),
    );
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
