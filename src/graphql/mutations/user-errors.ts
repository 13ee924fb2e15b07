/**
 * What a caller is told about an argument refused outright, before any register call: the
 * top-level BAD_USER_INPUT (a query's argument, or an amount no mutation can read). The
 * `userErrors` a mutation returns are built below GraphQL, by the services that find them
 * (src/services/user-errors.ts).
 */
import type { GraphQLError } from 'graphql';
import { topLevelError } from '../error-codes';

/** A query argument that breaks a rule: refused before any register call, naming the argument. */
export function badUserInput(message: string, field?: string): GraphQLError {
  return topLevelError('BAD_USER_INPUT', message, field ? { field } : {});
}
