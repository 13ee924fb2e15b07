/**
 * Query cost, computed with the request's variables before execution. It prices what is scarce:
 * register calls, each REGISTER_CALL, counted as often as they will run (every `titles` item and
 * every `_entities` representation calls the register, and so does `Title.securities` under
 * each). Which fields and types call the register is read from the schema, where each declares
 * it with `@cost` (graphql/register-calls.ts): a new field cannot be added without its price. Plain fields cost FIELD each, once per selection, whatever the list lengths: resolving a
 * field is cheap next to a register call, and a page of titles must not be refused for asking
 * for the whole summary of each.
 */
import { topLevelError } from '../graphql/error-codes';
import {
  getNamedType,
  type GraphQLError,
  isInterfaceType,
  isObjectType,
  isUnionType,
  Kind,
  valueFromASTUntyped,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValueNode,
} from 'graphql';

import { REGISTER_CALL } from '../graphql/register-calls';
import { fieldsOf, fragmentsIn } from '../graphql/selections';
import { distinctTitles } from './entities';

export { REGISTER_CALL };
export const FIELD = 1;

/** Federation's entity field: one register call per distinct title asked for, whatever its type says. */
const ENTITIES = '_entities';

/** The `@cost` weight the schema declares on a field or a type (federation demand control); 0 without one. */
function weightOf(element: { extensions?: { directives?: unknown } | null | undefined }): number {
  const directives = element.extensions?.directives;
  if (!Array.isArray(directives)) return 0;
  const cost = directives.find((d: { name?: string }) => d?.name === 'cost') as { args?: { weight?: unknown } } | undefined;
  return Number(cost?.args?.weight ?? 0) || 0;
}

/**
 * The argument whose items a field resolves one by one, each a register call: declared on the
 * field (`titles`), or federation's `_entities`, which we do not declare ourselves.
 */
function itemsArgumentOf(field: GraphQLField<unknown, unknown>): string | undefined {
  if (field.name === ENTITIES) return 'representations';
  const declared = (field.extensions as { pricedPerItemOf?: unknown } | undefined)?.pricedPerItemOf;
  return typeof declared === 'string' ? declared : undefined;
}

/** What each item a field returns weighs: an object type's `@cost`, or for `_entities`, the most of its entity types. */
function itemWeightOf(schema: GraphQLSchema, type: GraphQLNamedType): number {
  if (isObjectType(type)) return weightOf(type);
  if (isUnionType(type)) return Math.max(0, ...schema.getPossibleTypes(type).map(weightOf));
  return 0;
}

const pricedByListArgumentCache = new WeakMap<GraphQLSchema, ReadonlySet<string>>();

/** Names of the fields priced by what their list argument holds: a variable there changes the price. */
export function fieldsPricedByListArgument(schema: GraphQLSchema): ReadonlySet<string> {
  let names = pricedByListArgumentCache.get(schema);
  if (!names) {
    names = new Set(
      Object.values(schema.getQueryType()?.getFields() ?? {})
        .filter((field) => itemsArgumentOf(field))
        .map((field) => field.name),
    );
    pricedByListArgumentCache.set(schema, names);
  }
  return names;
}

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

/**
 * An operation's price in two parts: the fields it selects, and the weight of the register calls
 * it will make (`@cost` on fields and types, as often as each resolves, every list item counted).
 * The second part is what a router's demand control estimates from the supergraph for the same
 * fields, since both read the same directives.
 */
export function operationPrice(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
): { fields: number; registerCalls: number } {
  const root = schema.getRootType(operation.operation);
  const lookup = fragmentsIn(fragments);
  let fields = 0;
  let weight = 0;
  /** `times`: how often this selection resolves (the product of the list lengths above it). */
  const walk = (set: SelectionSetNode | undefined, parentType: GraphQLNamedType | undefined, times: number): void => {
    for (const { field: selection, typeCondition } of fieldsOf(set, lookup)) {
      fields++;
      const owner = typeCondition ? (schema.getType(typeCondition) ?? undefined) : parentType;
      const field = isObjectType(owner) || isInterfaceType(owner) ? owner.getFields()[selection.name.value] : undefined;
      if (!field) {
        // __typename, or a field validation refuses anyway: its selections still count as fields.
        walk(selection.selectionSet, undefined, times);
        continue;
      }
      const type = getNamedType(field.type);
      const listArgument = itemsArgumentOf(field);
      const argument = listArgument ? selection.arguments?.find((a) => a.name.value === listArgument)?.value : undefined;
      // `_entities` costs a call per distinct title (its loader resolves repeats once), as `titles` would for them.
      const items = !listArgument ? 1 : field.name === ENTITIES ? distinctTitleCount(argument, variables) : listLength(argument, variables);
      weight += times * (weightOf(field) + items * itemWeightOf(schema, type));
      walk(selection.selectionSet, type, times * items);
    }
  };
  walk(operation.selectionSet, root ?? undefined, 1);
  return { fields, registerCalls: weight / REGISTER_CALL };
}

/** The price the cost limit compares: FIELD per field selected, REGISTER_CALL per register call. */
export function operationCost(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
): number {
  const price = operationPrice(schema, operation, fragments, variables);
  return price.fields * FIELD + price.registerCalls * REGISTER_CALL;
}

export function costLimitError(cost: number, max: number): GraphQLError {
  return topLevelError(
    'COST_LIMIT_EXCEEDED',
    `Query cost ${cost} exceeds the limit of ${max} (each register call the query would make costs ${REGISTER_CALL}: every titles item and _entities representation, and each title's securities; each field ${FIELD}).`,
    { cost, maxCost: max },
  );
}
