/** A light e-mail shape check: the register leaves the format open, but a typo should not become a case. */
import type { UserError } from './user-error';

const EMAIL_SHAPE = /^[^@\s]+@[^@\s]+\.[^@\s]+$/;

export function emailErrors(value: string, field: string[]): UserError[] {
  return EMAIL_SHAPE.test(value)
    ? []
    : [{ code: 'INVALID_INPUT', message: `${field.join('.')} must be an e-mail address (name@domain).`, field }];
}
