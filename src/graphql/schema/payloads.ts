/**
 * Mutation payloads: each is named after its mutation (`createCase` → CreateCasePayload, "Result
 * of createCase."), holds what the mutation made, and ends with its userErrors.
 */
import type { ObjectFieldsShape, ObjectRef } from '@pothos/core';
import { type BuilderTypes, builder } from '../builder';
import type { Created } from '../mutations/payloads';
import type { UserError } from '../../services/user-errors';
import { UserErrorType } from './user-error';

type Types = PothosSchemaTypes.ExtendDefaultTypes<BuilderTypes>;

/** The payload type of the mutation `operation`: its own fields, then userErrors. */
export function mutationPayload<P extends { userErrors: UserError[] }>(operation: string, fields: ObjectFieldsShape<Types, P>) {
  return builder.objectRef<P>(`${operation.charAt(0).toUpperCase()}${operation.slice(1)}Payload`).implement({
    description: `Result of ${operation}.`,
    fields: (t) => ({
      ...fields(t),
      userErrors: t.field({ type: [UserErrorType], description: 'Business failures; empty on success.', resolve: (p) => p.userErrors }),
    }),
  });
}

/** The payload of a creating mutation: the created object under `field`, null on userErrors. */
export function createdPayloadType<T>(operation: string, field: string, type: ObjectRef<Types, T>, description: string) {
  return mutationPayload<Created<T>>(operation, (t) => ({
    [field]: t.expose('value', { type, nullable: true, description }),
  }));
}
