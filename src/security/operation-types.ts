/**
 * Validation rule: an operation's type must be one the schema has. graphql-js 16 leaves this to
 * execution (its KnownOperationTypesRule came in 17), where a subscription fails with
 * "Schema is not configured to execute subscription operation." and no code: refused here
 * instead, before anything runs, with a code and words that say what to send.
 */
import { type ASTVisitor, OperationTypeNode, type ValidationContext } from 'graphql';
import { topLevelError } from '../graphql/error-codes';

export function knownOperationTypeRule(context: ValidationContext): ASTVisitor {
  return {
    OperationDefinition(operation) {
      if (context.getSchema().getRootType(operation.operation)) return;
      const offered = Object.values(OperationTypeNode).filter((type) => context.getSchema().getRootType(type));
      context.reportError(
        topLevelError(
          'GRAPHQL_VALIDATION_FAILED',
          `This API has no ${operation.operation} operations: send a ${offered.join(' or a ')}.`,
          {},
          { nodes: [operation] },
        ),
      );
    },
  };
}
