/**
 * What a mutation tells its caller about a business failure: the `userErrors` it returns
 * (Shopify/GitHub style: business failures are data), their codes and how input problems are
 * worded. Pure values, no schema types, so every layer can build them without importing the
 * builder; the top-level BAD_USER_INPUT a query argument gets is GraphQL's own
 * (src/graphql/mutations/user-errors.ts).
 */
export const USER_ERROR_CODES = [
  'INVALID_INPUT',
  'TITLE_NOT_FOUND',
  'TITLE_STATUS_NOT_SUPPORTED',
  'FAS_NOT_AUTHORISED',
  'CREDIT_LIMIT_EXCEEDED',
  'CASE_NOT_FOUND',
  'SECURITY_NOT_FOUND',
  'IDEMPOTENCY_KEY_REUSED',
  'RATE_LIMITED',
  'DEED_RULE_VIOLATION',
  'OUTCOME_UNKNOWN',
  'IDEMPOTENCY_KEY_IN_USE',
  'SPEND_LIMIT_REACHED',
  'CHARGE_ABOVE_MAXIMUM',
  'DOCUMENT_EXPIRED',
] as const;
export type UserErrorCode = (typeof USER_ERROR_CODES)[number];

export interface UserError {
  code: UserErrorCode;
  message: string;
  field?: string[];
}

/** A mutation input that breaks a rule: the message starts with the field's path, then the rule. */
export function invalidInput(field: string[], rule: string): UserError {
  return { code: 'INVALID_INPUT', message: `${field.join('.')} ${rule}`, field };
}

/** One error per field, saying every rule it breaks: a caller is told once per field, and all of it. */
export function onePerField(errors: readonly UserError[]): UserError[] {
  // A field that breaks two rules is one error saying both: "input.reference must be at most 75
  // characters; character 9 ’ (U+2019) is not allowed; use ' instead."
  const byField = new Map<string, UserError>();
  const out: UserError[] = [];
  for (const error of errors) {
    if (!error.field) {
      out.push(error);
      continue;
    }
    const key = JSON.stringify(error.field);
    const first = byField.get(key);
    if (!first) {
      const copy = { ...error };
      byField.set(key, copy);
      out.push(copy);
      continue;
    }
    const prefix = `${error.field.join('.')} `;
    const rule = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
    if (!first.message.includes(rule.replace(/\.$/, ''))) first.message = `${first.message.replace(/\.$/, '')}; ${rule}`;
  }
  return out;
}
