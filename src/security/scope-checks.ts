/**
 * Scopes, enforced by the service from the schema's own `@requiresScopes` (the directives
 * routers read; graphql/field-scopes.ts puts them on the fields): before any resolver runs, an
 * operation selecting a field whose scope its caller lacks is refused whole, FORBIDDEN, naming
 * the scope, so a chargeable mutation refused so sends nothing. What each operation of a document
 * needs is worked out once; each request then compares its caller's scopes with that list.
 */
import { topLevelError } from '../graphql/error-codes';
import {
  getNamedType,
  type GraphQLError,
  isAbstractType,
  isInterfaceType,
  isObjectType,
  type DocumentNode,
  type FieldNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { operationToRun, perOperation } from '../observability/request-record';
import type { Context } from '../graphql/context';
import { meets, missingScopeMessage, requirementOf, type ScopeRequirement } from '../graphql/field-scopes';
import { fieldsOf, fragmentsOf, type FragmentLookup } from '../graphql/selections';

/** A field of the operation with what it (or the type it returns) requires. */
interface Need {
  /** `Type.field`, as the refusal names it. */
  coordinate: string;
  node: FieldNode;
  requirement: ScopeRequirement;
}

/** Requirements of a type: its own, or for a union or interface every type it may be (`_entities`, `node`). */
function typeRequirements(schema: GraphQLSchema, type: GraphQLNamedType): ScopeRequirement[] {
  const types = isAbstractType(type) ? schema.getPossibleTypes(type) : [type];
  return types.map((t) => requirementOf(t)).filter((r): r is ScopeRequirement => r !== undefined && r.anyOf.length > 0);
}

/** Every field the operation may resolve (all depths, through fragments) that declares a scope. */
function needsOf(schema: GraphQLSchema, operation: OperationDefinitionNode, fragments: FragmentLookup): Need[] {
  const needs: Need[] = [];
  const walk = (set: SelectionSetNode | undefined, parent: GraphQLNamedType | undefined) => {
    for (const { field: node, typeCondition } of fieldsOf(set, fragments)) {
      const owner = typeCondition ? (schema.getType(typeCondition) ?? undefined) : parent;
      const field = isObjectType(owner) || isInterfaceType(owner) ? owner.getFields()[node.name.value] : undefined;
      if (!field) {
        // __typename, introspection, or a field validation refused: nothing of ours below it.
        continue;
      }
      const type = getNamedType(field.type);
      const coordinate = `${owner!.name}.${field.name}`;
      for (const requirement of [requirementOf(field), ...typeRequirements(schema, type)]) {
        if (requirement && requirement.anyOf.length > 0) needs.push({ coordinate, node, requirement });
      }
      walk(node.selectionSet, type);
    }
  };
  walk(operation.selectionSet, schema.getRootType(operation.operation) ?? undefined);
  return needs;
}

/** The refusal for want of a scope: the field, the scope (the first set's, when several would do), 403. */
function forbidden(need: Need, scopes: ReadonlySet<string>): GraphQLError {
  const missing = need.requirement.anyOf[0]!.filter((scope) => !scopes.has(scope));
  const field = need.coordinate.split('.')[1]!;
  return topLevelError(
    'FORBIDDEN',
    missingScopeMessage(missing.join(' and '), field),
    { field: need.coordinate, missingScopes: missing, http: { status: 403, spec: true } },
    { nodes: [need.node] },
  );
}

export function useScopes(): Plugin {
  const plans = perOperation<Need[]>();
  const planOf = (schema: GraphQLSchema, document: DocumentNode, operationName: string | null | undefined): Need[] =>
    plans(document, operationName, () => {
      const operation = operationToRun(document, operationName);
      return operation ? needsOf(schema, operation, fragmentsOf(document)) : [];
    });
  return {
    onExecute({ args, setResultAndStopExecution }) {
      const caller = (args.contextValue as Partial<Context>).caller;
      // A router's key is refused by its own rule (router-key.ts), in its own words.
      if (!caller || caller.router) return;
      const refusals: GraphQLError[] = [];
      const named = new Set<string>();
      for (const need of planOf(args.schema, args.document, args.operationName)) {
        if (meets(need.requirement, caller.scopes) || named.has(need.coordinate)) continue;
        named.add(need.coordinate);
        refusals.push(forbidden(need, caller.scopes));
      }
      if (refusals.length > 0) setResultAndStopExecution({ errors: refusals });
    },
  };
}
