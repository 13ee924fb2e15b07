/**
 * Turns wire-schema validation into userErrors: the GraphQL layer builds the register request
 * from its input and validates it with the SAME zod schema the register emulator uses, so the
 * rules live in one place. Every broken field is reported at once.
 */
import type { z } from 'zod';
import type { UserError } from './schema/user-error';

export type FieldMapper = (wirePath: readonly PropertyKey[]) => string[];

export function userErrorsOf(result: z.ZodSafeParseResult<unknown>, toField: FieldMapper): UserError[] {
  if (result.success) return [];
  return result.error.issues.map((issue) => {
    const field = toField(issue.path);
    return { code: 'INVALID_INPUT' as const, message: `${field.join('.')} ${issue.message}.`, field };
  });
}

/** The register names a field as a dotted path; map it to the GraphQL input path. */
export function dottedFieldMapper(mapper: FieldMapper): (registerField: string) => string[] {
  return (registerField) => mapper(registerField.split('.'));
}
