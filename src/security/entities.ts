/**
 * `_entities` (federation) asks for Titles by representation: one register call per distinct
 * title (the request's loader resolves duplicates once), so the cap counts distinct titles, not
 * representations: a gateway sends every reference, repeats included, and merges its clients'
 * lists into one batch it never splits. Every representation is checked before any is looked
 * up; a bad one is refused by index, and nothing of the request reaches the register. Nothing
 * the caller typed into a representation is echoed but its position and rule.
 */
import { topLevelError } from '../graphql/error-codes';
import { type GraphQLError, valueFromASTUntyped, type OperationDefinitionNode, type FragmentDefinitionNode } from 'graphql';
import { isTitleNumber } from '../register/contract/rules';
import { fieldsOf, fragmentsIn } from '../graphql/selections';

/** The entity types of this subgraph, and the key each must carry. */
const ENTITY_KEYS: Record<string, string> = { Title: 'titleNumber' };

const refuse = (message: string) => topLevelError('BAD_USER_INPUT', message, { field: 'representations' });

/** The distinct title numbers among representations (those that carry one). */
export function distinctTitles(given: unknown): Set<string> {
  const representations = Array.isArray(given) ? given : given == null ? [] : [given];
  const titles = new Set<string>();
  for (const r of representations) {
    const value = r && typeof r === 'object' ? (r as Record<string, unknown>).titleNumber : undefined;
    if (typeof value === 'string') titles.add(value);
  }
  return titles;
}

/** Problems with one `_entities` call's representations, in order; empty when all are fine. */
export function representationErrors(given: unknown, maxTitles: number): GraphQLError[] {
  if (given == null) return [refuse('representations must be a list of entity representations.')];
  // GraphQL's input coercion: a single value where a list is expected is a list of one.
  const representations = Array.isArray(given) ? given : [given];
  const titles = distinctTitles(representations).size;
  if (titles > maxTitles) {
    // In the words of the client whose query the gateway turned into this request.
    return [
      refuse(
        `This query needs ${titles} different titles from the register in one request; the limit is ${maxTitles}. Ask for fewer titles at once (a gateway sends all of one query's title references together).`,
      ),
    ];
  }
  const errors: GraphQLError[] = [];
  representations.forEach((representation, index) => {
    const at = `representations[${index}]`;
    if (!representation || typeof representation !== 'object' || Array.isArray(representation)) {
      errors.push(refuse(`${at} must be an object with __typename and its key.`));
      return;
    }
    const { __typename: typename } = representation as Record<string, unknown>;
    const key = typeof typename === 'string' && Object.hasOwn(ENTITY_KEYS, typename) ? ENTITY_KEYS[typename] : undefined;
    if (!key) {
      errors.push(refuse(`${at}: __typename must be one of ${Object.keys(ENTITY_KEYS).join(', ')}.`));
      return;
    }
    const value = (representation as Record<string, unknown>)[key];
    if (typeof value !== 'string' || !isTitleNumber(value)) {
      errors.push(refuse(`${at}: ${key} must be 3 uppercase letters followed by 1 to 8 digits.`));
    }
  });
  return errors;
}

/** Every `_entities` field of the operation (aliases and fragments included), with its representations. */
export function entitiesCalls(
  operation: OperationDefinitionNode,
  fragments: Record<string, FragmentDefinitionNode>,
  variables: Record<string, unknown>,
): unknown[] {
  const found: unknown[] = [];
  if (operation.operation !== 'query') return found;
  for (const { field } of fieldsOf(operation.selectionSet, fragmentsIn(fragments))) {
    if (field.name.value !== '_entities') continue;
    const argument = field.arguments?.find((a) => a.name.value === 'representations');
    found.push(argument ? valueFromASTUntyped(argument.value, variables) : undefined);
  }
  return found;
}
