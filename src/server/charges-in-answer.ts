/**
 * The second line of defence for money in the answer: when a request that made (or replayed) a
 * charge ends with errors, its charges are also listed under the top-level `extensions.charges`,
 * because an error may have taken them out of `data` (null propagation, a masked exception).
 * The first line is the validation rule that keeps a chargeable mutation alone in its operation.
 */
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import type { Context } from '../graphql/context';

export function useChargesInAnswer(): Plugin<Context> {
  return {
    onExecute() {
      return {
        onExecuteDone({ args, result, setResult }) {
          const made = (args.contextValue as Partial<Context>).chargesMade;
          if (!made?.length || isAsyncIterable(result) || !result.errors?.length) return;
          const charges = made.flatMap(({ operation, idempotencyKey, charges }) =>
            charges.map((charge) => ({ operation, idempotencyKey, ...charge })),
          );
          setResult({ ...result, extensions: { ...result.extensions, charges } });
        },
      };
    },
  };
}
