/**
 * The one walk over a selection set that the rules, the cost and the resolvers share: the
 * fields it selects at its own level, through inline fragments and named fragments.
 */
import { Kind, type DocumentNode, type FieldNode, type FragmentDefinitionNode, type SelectionSetNode } from 'graphql';

/** Named fragments by name: a document's, a validation context's (`getFragment`), or resolve info's. */
export type FragmentLookup = (name: string) => FragmentDefinitionNode | undefined;

export const fragmentsIn =
  (fragments: Readonly<Record<string, FragmentDefinitionNode>>): FragmentLookup =>
  (name) =>
    fragments[name];

export function fragmentsOf(document: DocumentNode): FragmentLookup {
  const byName = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions)
    if (definition.kind === Kind.FRAGMENT_DEFINITION) byName.set(definition.name.value, definition);
  return (name) => byName.get(name);
}

export interface SelectedField {
  field: FieldNode;
  /** The innermost type condition it was selected under (an inline fragment's or a named fragment's), if any. */
  typeCondition?: string;
}

/**
 * The fields `set` selects at its own level. Each named fragment is entered once per `seen`: a
 * fragment spread twice selects its fields once, as execution merges them, and a fragment cycle
 * (a validation error) never loops. A caller walking deeper passes its `seen` down.
 */
export function* fieldsOf(
  set: SelectionSetNode | undefined,
  fragments: FragmentLookup,
  seen: Set<string> = new Set(),
  typeCondition?: string,
): Generator<SelectedField> {
  for (const selection of set?.selections ?? []) {
    if (selection.kind === Kind.FIELD) yield typeCondition ? { field: selection, typeCondition } : { field: selection };
    else if (selection.kind === Kind.INLINE_FRAGMENT) {
      yield* fieldsOf(selection.selectionSet, fragments, seen, selection.typeCondition?.name.value ?? typeCondition);
    } else if (!seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      const fragment = fragments(selection.name.value);
      if (fragment) yield* fieldsOf(fragment.selectionSet, fragments, seen, fragment.typeCondition.name.value);
    }
  }
}
