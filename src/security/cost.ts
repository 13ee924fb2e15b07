/**
 * Query cost, computed with the request's variables before execution: every field costs 1,
 * a field that makes a register call (a title summary, a securities listing, a creditor
 * search, a reference list) costs REGISTER_CALL more, and `titles` multiplies the cost of its
 * selection by the number of title numbers asked.
 */
import {
  GraphQLError,
  Kind,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';

export const REGISTER_CALL = 10;

/** Fields (by parent type and name) that cost a register call each time they resolve. */
const CALLS: Record<string, number> = {
  'Query.title': REGISTER_CALL,
  'Query.creditors': REGISTER_CALL,
  'Query.referenceList': REGISTER_CALL,
  'Query.referenceListPaths': REGISTER_CALL,
  'Title.securities': REGISTER_CALL,
  'Query.titles': REGISTER_CALL,
};

/** The selection under these fields is of type Title (for pricing Title.securities). */
const TITLE_FIELDS = new Set(['title', 'titles', '_entities']);

function listLength(node: ValueNode | undefined, variables: Record<string, unknown>): number {
  if (!node) return 0;
  if (node.kind === Kind.LIST) return node.values.length;
  if (node.kind === Kind.VARIABLE) {
    const value = variables[node.name.value];
    return Array.isArray(value) ? value.length : value == null ? 0 : 1;
  }
  return 1;
}

export function operationCost(
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
): number {
  const rootType = operation.operation === 'mutation' ? 'Mutation' : operation.operation === 'subscription' ? 'Subscription' : 'Query';
  const visiting = new Set<string>();
  const costOf = (set: SelectionSetNode | undefined, parentType: string): number => {
    if (!set) return 0;
    let total = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const name = selection.name.value;
        const childType = TITLE_FIELDS.has(name) ? 'Title' : 'Other';
        const own = 1 + (CALLS[`${parentType}.${name}`] ?? 0);
        const children = costOf(selection.selectionSet, childType);
        if (parentType === 'Query' && name === 'titles') {
          const n = listLength(selection.arguments?.find((a) => a.name.value === 'titleNumbers')?.value, variables);
          total += 1 + n * (REGISTER_CALL + children);
        } else {
          total += own + children;
        }
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        total += costOf(selection.selectionSet, selection.typeCondition?.name.value ?? parentType);
      } else {
        const fragment = fragments[selection.name.value];
        if (!fragment || visiting.has(fragment.name.value)) continue; // cycles are a validation error anyway
        visiting.add(fragment.name.value);
        total += costOf(fragment.selectionSet, fragment.typeCondition.name.value);
        visiting.delete(fragment.name.value);
      }
    }
    return total;
  };
  return costOf(operation.selectionSet, rootType);
}

export function costLimitError(cost: number, max: number): GraphQLError {
  return new GraphQLError(
    `Query cost ${cost} exceeds the limit of ${max} (each field costs 1, each register call ${REGISTER_CALL}, and every titles item counts).`,
    { extensions: { code: 'COST_LIMIT_EXCEEDED', cost, maxCost: max } },
  );
}
