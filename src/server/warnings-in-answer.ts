/**
 * Caveats on an answer whose data is right but not the whole story (a statement reaching back
 * before the days the journal keeps): listed under the top-level `extensions.warnings`, each
 * `{code, message, …}`, so a client shows them without treating the answer as failed.
 */
import { isAsyncIterable, type Plugin } from 'graphql-yoga';
import type { Context } from '../graphql/context';

export function useWarningsInAnswer(): Plugin<Context> {
  return {
    onExecute() {
      return {
        onExecuteDone({ args, result, setResult }) {
          const warnings = (args.contextValue as Partial<Context>).warnings;
          if (!warnings?.length || isAsyncIterable(result)) return;
          setResult({ ...result, extensions: { ...result.extensions, warnings } });
        },
      };
    },
  };
}
