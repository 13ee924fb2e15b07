/**
 * Turns wire-schema validation into userErrors: the GraphQL layer builds the register request
 * from its input and validates it with the SAME zod schema the register emulator uses, so the
 * rules live in one place. Every broken field is reported at once, once, in our own words.
 */
import type { z } from 'zod';
import { LATIN1_RULE, latin1Problem } from '../../register/contract/rules';
import { invalidInput, onePerField, type UserError } from '../../services/user-errors';

export type FieldMapper = (wirePath: readonly PropertyKey[]) => string[];

type Issue = z.core.$ZodRawIssue;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/**
 * Our wording for zod's built-in checks (the schemas' own messages, the spec's rules, take
 * precedence over this map). zod's defaults ("Invalid input", "Too small: expected string to
 * have >=1 characters") speak of types and operators, not of the caller's field.
 */
function ourWords(issue: Issue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined || issue.input === null ? 'is required' : `must be a ${String(issue.expected)}`;
    case 'too_small': {
      const min = Number(issue.minimum);
      if (issue.origin === 'string') return min <= 1 ? 'must not be empty' : `must be at least ${plural(min, 'character', 'characters')}`;
      if (issue.origin === 'array' || issue.origin === 'set')
        return min <= 1 ? 'must have at least one item' : `must have at least ${plural(min, 'item', 'items')}`;
      return `must be at least ${min}`;
    }
    case 'too_big': {
      const max = Number(issue.maximum);
      if (issue.origin === 'string') return `must be at most ${plural(max, 'character', 'characters')}`;
      if (issue.origin === 'array' || issue.origin === 'set') return `must have at most ${plural(max, 'item', 'items')}`;
      return `must be at most ${max}`;
    }
    case 'invalid_format':
      return issue.format === 'email' ? 'must be an e-mail address (name@domain)' : 'is not in the required format';
    case 'invalid_value':
      return `must be one of ${issue.values.map((v) => String(v)).join(', ')}`;
    case 'unrecognized_keys':
      return 'has fields the register does not accept';
    default:
      return 'is not valid';
  }
}

/** Validates `data` with a wire schema, in our words (the values come back, to point at a character). */
export function check<S extends z.ZodType>(schema: S, data: unknown): z.ZodSafeParseResult<z.output<S>> {
  return schema.safeParse(data, { error: (issue) => ourWords(issue as Issue), reportInput: true }) as z.ZodSafeParseResult<z.output<S>>;
}

/** The rule's words, or, for the ISO-8859-1 rule, which character breaks it and what to type instead. */
function wordsFor(issue: z.core.$ZodIssue): string {
  const input = (issue as { input?: unknown }).input;
  return issue.message === LATIN1_RULE && typeof input === 'string' ? (latin1Problem(input) ?? issue.message) : issue.message;
}

export function userErrorsOf(result: z.ZodSafeParseResult<unknown>, toField: FieldMapper): UserError[] {
  if (result.success) return [];
  return onePerField(result.error.issues.map((issue) => invalidInput(toField(issue.path), `${wordsFor(issue)}.`)));
}

/** The register names a field as a dotted path; map it to the GraphQL input path. */
export function dottedFieldMapper(mapper: FieldMapper): (registerField: string) => string[] {
  return (registerField) => mapper(registerField.split('.'));
}

/** A light e-mail shape check: the register leaves the format open, but a typo should not become a case. */
const EMAIL_SHAPE = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

export function emailErrors(value: string, field: string[]): UserError[] {
  return EMAIL_SHAPE.test(value) ? [] : [invalidInput(field, 'must be an e-mail address (name@domain).')];
}
