/**
 * Validation rule: an operation may contain at most ONE chargeable mutation field (aliases
 * and fragments included), so one request can never bill an account several times over, and
 * that field stands alone at the root (`__typename` aside): a sibling that fails could otherwise
 * null the whole `data` and take the charge out of the answer. Chargeable fields are marked in
 * the schema with `extensions: { chargeable: true }`.
 */
import { topLevelError } from '../graphql/error-codes';
import type { ASTVisitor, ValidationContext } from 'graphql';
import { fieldsOf } from '../graphql/selections';

export function oneChargeableMutationRule(context: ValidationContext): ASTVisitor {
  return {
    OperationDefinition(operation) {
      if (operation.operation !== 'mutation') return;
      const mutationType = context.getSchema().getMutationType();
      if (!mutationType) return;
      const fields = mutationType.getFields();
      const chargeable: string[] = [];
      const others: string[] = [];
      for (const { field: selection } of fieldsOf(operation.selectionSet, (name) => context.getFragment(name) ?? undefined)) {
        const name = selection.alias?.value ?? selection.name.value;
        const field = fields[selection.name.value];
        // Unknown fields (and __typename, which is not one of Mutation's fields) are left to GraphQL's own rules.
        if (field?.extensions?.chargeable) chargeable.push(name);
        else if (field) others.push(name);
      }
      if (chargeable.length > 1) {
        context.reportError(
          topLevelError(
            'TOO_MANY_CHARGEABLE_MUTATIONS',
            `An operation may contain at most one chargeable mutation; this one has ${chargeable.length} (${chargeable.join(', ')}). Send them as separate requests.`,
            {},
            { nodes: operation },
          ),
        );
      } else if (chargeable.length === 1 && others.length > 0) {
        context.reportError(
          topLevelError(
            'CHARGEABLE_MUTATION_NOT_ALONE',
            `A chargeable mutation must be the only field of its operation; ${chargeable[0]} is sent with ${others.join(', ')}. Send the mutations as separate requests, so that each answer holds its own outcome and charges.`,
            {},
            { nodes: operation },
          ),
        );
      }
    },
  };
}
