/**
 * Validation rule: a chargeable payload is never deferred. `@defer` or `@stream` anywhere in a
 * chargeable mutation's selection (fragments included), or on a fragment around the field itself,
 * refuses the operation before anything is sent: the outcome and its charges always come in one
 * answer, never in a later part a client (or a gateway that plans the parts itself) may lose.
 * Chargeable fields are marked in the schema with `extensions: { chargeable: true }`.
 */
import { topLevelError } from '../graphql/error-codes';
import {
  type ASTNode,
  BREAK,
  type DirectiveNode,
  Kind,
  type ASTVisitor,
  type SelectionSetNode,
  type ValidationContext,
  visit,
} from 'graphql';

const INCREMENTAL = new Set(['defer', 'stream']);

/** The first `@defer` or `@stream` in `node`, following its fragment spreads (each once). */
function incrementalWithin(node: ASTNode, context: ValidationContext, seen: Set<string>): DirectiveNode | undefined {
  let found: DirectiveNode | undefined;
  visit(node, {
    Directive(directive) {
      if (!INCREMENTAL.has(directive.name.value)) return;
      found = directive;
      return BREAK;
    },
    FragmentSpread(spread) {
      if (seen.has(spread.name.value)) return;
      seen.add(spread.name.value);
      const fragment = context.getFragment(spread.name.value);
      found = fragment ? incrementalWithin(fragment, context, seen) : undefined;
      return found ? BREAK : undefined;
    },
  });
  return found;
}

export function chargeableNotDeferredRule(context: ValidationContext): ASTVisitor {
  const isChargeable = (name: string) => Boolean(context.getSchema().getMutationType()?.getFields()[name]?.extensions?.chargeable);
  const seen = new Set<string>();
  /** Reports the first deferred chargeable field under `set`; `around` is the @defer of a root fragment it sits in. */
  const walk = (set: SelectionSetNode, around: DirectiveNode | undefined): boolean => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        if (!isChargeable(selection.name.value)) continue;
        const found = around ?? incrementalWithin(selection, context, new Set());
        if (!found) continue;
        const name = selection.alias?.value ?? selection.name.value;
        context.reportError(
          topLevelError(
            'CHARGEABLE_PAYLOAD_DEFERRED',
            `A chargeable mutation's payload is never deferred: ${name} has @${found.name.value} in or around its selection. Remove it, so that the outcome and its charges come in one answer.`,
            {},
            { nodes: found },
          ),
        );
        return true;
      }
      const deferred = around ?? selection.directives?.find((d) => INCREMENTAL.has(d.name.value));
      let inner: SelectionSetNode | undefined;
      if (selection.kind === Kind.INLINE_FRAGMENT) inner = selection.selectionSet;
      else {
        // Once plain and once deferred: `...Buy ...Buy @defer` defers what the first spread does not.
        const key = `${selection.name.value}${deferred ? ' deferred' : ''}`;
        if (seen.has(key)) continue;
        seen.add(key);
        inner = context.getFragment(selection.name.value)?.selectionSet;
      }
      if (inner && walk(inner, deferred)) return true;
    }
    return false;
  };
  return {
    OperationDefinition(operation) {
      seen.clear();
      if (operation.operation === 'mutation') walk(operation.selectionSet, undefined);
    },
  };
}
