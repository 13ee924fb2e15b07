/**
 * Validation, once per parsed document. Yoga's cache answers a document it has seen, but only
 * after every plugin's onValidate hook has run again for it: eight here (armor's three limits,
 * which build their rule afresh on each call, @defer's rules, our money rules, the introspection
 * limits, the input wording), each handed its own set of closures by envelop, and the cache's key
 * rebuilt from every rule's name. That was about 20 µs of a `title`'s CPU (docs/performance.md),
 * for a verdict that cannot change. Here those hooks run once per schema and document; their
 * verdict, after their after-hooks, is kept, and Yoga's own validation cache is switched off
 * (app.ts), since it would only repeat this one.
 *
 * The hooks wrapped must decide from the schema and the document alone. Every one here does:
 * the one that reads the request (Yoga's introspection switch) is given no `isDisabled`, so it
 * answers the same for every request of an app.
 */
import type { DocumentNode, GraphQLSchema } from 'graphql';
import type { Plugin } from 'graphql-yoga';

// biome-ignore lint/suspicious/noExplicitAny: any plugin's context: its hooks are only passed along, never read
type AnyPlugin = Plugin<any>;
type ValidateHook = NonNullable<AnyPlugin['onValidate']>;
type ValidatePayload = Parameters<ValidateHook>[0];
type AfterValidateHook = Exclude<ReturnType<ValidateHook>, void>;
type AfterValidatePayload = Parameters<AfterValidateHook>[0];

/** `plugins` with their onValidate hooks gathered into one, which runs them once per schema and document. */
export function validatedOncePerDocument<P extends AnyPlugin>(plugins: P[]): P[] {
  const hooks: ValidateHook[] = [];
  const rest = plugins.map((plugin) => {
    if (!plugin.onValidate) return plugin;
    hooks.push(plugin.onValidate);
    const { onValidate: _gathered, ...others } = plugin;
    return others as P;
  });
  const verdicts = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, AfterValidatePayload['result']>>();
  const verdictsFor = (schema: GraphQLSchema) => {
    const bySchema = verdicts.get(schema);
    if (bySchema) return bySchema;
    const fresh = new WeakMap<DocumentNode, AfterValidatePayload['result']>();
    verdicts.set(schema, fresh);
    return fresh;
  };

  const onValidate: ValidateHook = (payload: ValidatePayload) => {
    const { schema, documentAST } = payload.params;
    const known = verdictsFor(schema);
    const verdict = known.get(documentAST);
    if (verdict) {
      payload.setResult(verdict);
      return;
    }
    const afterHooks: AfterValidateHook[] = [];
    for (const hook of hooks) {
      const after = hook(payload);
      if (after) afterHooks.push(after);
    }
    return (done: AfterValidatePayload) => {
      // As envelop runs after-hooks: each sees the result the ones before it left.
      let result = done.result;
      for (const after of afterHooks) {
        after({
          ...done,
          result,
          setResult: (next) => {
            result = next;
            done.setResult(next);
          },
        });
      }
      known.set(documentAST, result);
    };
  };
  return [...rest, { onValidate } as P];
}
