/**
 * Query cost, computed with the request's variables before execution. It prices what is scarce:
 * register calls, each REGISTER_CALL, counted as often as they will run (every `titles` item and
 * every `_entities` representation calls the register, and so does `Title.securities` under
 * each). Plain fields cost FIELD each, once per selection, whatever the list lengths: resolving a
 * field is cheap next to a register call, and a page of titles must not be refused for asking
 * for the whole summary of each.
 */
import {
  GraphQLError,
  Kind,
  valueFromASTUntyped,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';

import { distinctTitles } from './entities';

export const REGISTER_CALL = 10;
export const FIELD = 1;

/** Register calls each resolution of a field makes (by parent type and name). */
const CALLS: Record<string, number> = {
  'Query.title': 1,
  'Query.node': 1,
  'Query.titles': 0, // priced per item: see LISTS
  'Query._entities': 0, // priced per representation: see LISTS
  'Query.creditors': 1,
  'Query.referenceList': 1,
  'Query.referenceListPaths': 1,
  'Title.securities': 1,
  'Mutation.purchaseTitleDetails': 1,
  'Mutation.purchasePendingApplications': 1,
  'Mutation.orderTitleDocument': 1,
  'Mutation.purchaseTitlePlans': 1,
  'Mutation.createCase': 1,
  'Mutation.addDeedToCase': 1,
};

/** Fields that resolve once per item of a list argument, one register call per item, into Titles. */
const LISTS: Record<string, string> = {
  'Query.titles': 'titleNumbers',
  'Query._entities': 'representations',
};

/** Names of the fields priced by what their list argument holds: a variable there changes the price. */
export const PRICED_BY_LIST_ARGUMENT: ReadonlySet<string> = new Set(Object.keys(LISTS).map((key) => key.slice(key.indexOf('.') + 1)));

/** The selection under these fields is of type Title (for pricing Title.securities). */
const TITLE_FIELDS = new Set(['title', 'titles', '_entities', 'node']);

function listLength(node: ValueNode | undefined, variables: Record<string, unknown>): number {
  if (!node) return 0;
  if (node.kind === Kind.LIST) return node.values.length;
  if (node.kind === Kind.VARIABLE) {
    const value = variables[node.name.value];
    return Array.isArray(value) ? value.length : value == null ? 0 : 1;
  }
  return 1;
}

function distinctTitleCount(node: ValueNode | undefined, variables: Record<string, unknown>): number {
  return node ? distinctTitles(valueFromASTUntyped(node, variables)).size : 0;
}

export function operationCost(
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
): number {
  const rootType = operation.operation === 'mutation' ? 'Mutation' : operation.operation === 'subscription' ? 'Subscription' : 'Query';
  const visiting = new Set<string>();
  /** `times`: how often this selection resolves (the product of the list lengths above it). */
  const costOf = (set: SelectionSetNode | undefined, parentType: string, times: number): number => {
    if (!set) return 0;
    let total = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const name = selection.name.value;
        const key = `${parentType}.${name}`;
        const childType = TITLE_FIELDS.has(name) ? 'Title' : 'Other';
        const listArgument = LISTS[key];
        const argument = listArgument ? selection.arguments?.find((a) => a.name.value === listArgument)?.value : undefined;
        // `_entities` costs a call per distinct title (its loader resolves repeats once), as `titles` would for them.
        const items = !listArgument ? 1 : name === '_entities' ? distinctTitleCount(argument, variables) : listLength(argument, variables);
        total += FIELD + times * ((CALLS[key] ?? 0) + (listArgument ? items : 0)) * REGISTER_CALL;
        total += costOf(selection.selectionSet, childType, times * items);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        total += costOf(selection.selectionSet, selection.typeCondition?.name.value ?? parentType, times);
      } else {
        const fragment = fragments[selection.name.value];
        if (!fragment || visiting.has(fragment.name.value)) continue; // cycles are a validation error anyway
        visiting.add(fragment.name.value);
        total += costOf(fragment.selectionSet, fragment.typeCondition.name.value, times);
        visiting.delete(fragment.name.value);
      }
    }
    return total;
  };
  return costOf(operation.selectionSet, rootType, 1);
}

export function costLimitError(cost: number, max: number): GraphQLError {
  return new GraphQLError(
    `Query cost ${cost} exceeds the limit of ${max} (each register call the query would make costs ${REGISTER_CALL}: every titles item and _entities representation, and each title's securities; each field ${FIELD}).`,
    { extensions: { code: 'COST_LIMIT_EXCEEDED', cost, maxCost: max } },
  );
}
