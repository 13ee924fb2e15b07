/**
 * Validation rule: an operation may contain at most ONE chargeable mutation field (aliases
 * and fragments included), so one request can never bill an account several times over.
 * Chargeable fields are marked in the schema with `extensions: { chargeable: true }`.
 */
import { GraphQLError, Kind, type ASTVisitor, type SelectionSetNode, type ValidationContext } from 'graphql';

export function oneChargeableMutationRule(context: ValidationContext): ASTVisitor {
  return {
    OperationDefinition(operation) {
      if (operation.operation !== 'mutation') return;
      const mutationType = context.getSchema().getMutationType();
      if (!mutationType) return;
      const fields = mutationType.getFields();
      const chargeable: string[] = [];
      const seen = new Set<string>();
      const collect = (set: SelectionSetNode) => {
        for (const selection of set.selections) {
          if (selection.kind === Kind.FIELD) {
            if (fields[selection.name.value]?.extensions?.chargeable) chargeable.push(selection.alias?.value ?? selection.name.value);
          } else if (selection.kind === Kind.INLINE_FRAGMENT) {
            collect(selection.selectionSet);
          } else if (!seen.has(selection.name.value)) {
            seen.add(selection.name.value);
            const fragment = context.getFragment(selection.name.value);
            if (fragment) collect(fragment.selectionSet);
          }
        }
      };
      collect(operation.selectionSet);
      if (chargeable.length > 1) {
        context.reportError(
          new GraphQLError(
            `An operation may contain at most one chargeable mutation; this one has ${chargeable.length} (${chargeable.join(', ')}). Send them as separate requests.`,
            { nodes: operation, extensions: { code: 'TOO_MANY_CHARGEABLE_MUTATIONS' } },
          ),
        );
      }
    },
  };
}
