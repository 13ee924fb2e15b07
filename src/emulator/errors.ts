/** Register errors: JSON `{code, message, field?}` with a status and optional headers. */
import type { ErrorCode } from '../register/contract/wire';

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: ErrorCode | 'NOT_FOUND' | 'METHOD_NOT_ALLOWED',
    message: string,
    readonly field?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  body(): { code: string; message: string; field?: string } {
    return this.field === undefined
      ? { code: this.code, message: this.message }
      : { code: this.code, message: this.message, field: this.field };
  }
}

export const invalidRequest = (field: string, message: string) => new ApiError(400, 'INVALID_REQUEST', message, field);
export const invalidTitleNumber = (value: string) =>
  new ApiError(400, 'INVALID_TITLE_NUMBER', `titleNumber: "${value}" must be 3 uppercase letters then 1 to 8 digits`, 'titleNumber');
export const unauthorised = (message: string, scheme: 'Bearer' | 'Basic' = 'Bearer') =>
  new ApiError(401, 'UNAUTHORISED', message, undefined, {
    'WWW-Authenticate': scheme === 'Bearer' ? 'Bearer realm="register"' : 'Basic realm="register"',
  });
export const fasNotAuthorised = (fas: string, why: string, field = 'fas') =>
  new ApiError(403, 'FAS_NOT_AUTHORISED', `${field}: ${fas} ${why}`, field);
export const titleNotFound = (titleNumber: string) =>
  new ApiError(404, 'TITLE_NOT_FOUND', `title ${titleNumber} was not found`, 'titleNumber');
export const titleStatusNotSupported = (titleNumber: string, status: string, what: string) =>
  new ApiError(422, 'TITLE_STATUS_NOT_SUPPORTED', `title ${titleNumber} is ${status}: ${what}`, 'titleNumber');
export const deedRule = (field: string, message: string) => new ApiError(422, 'DEED_RULE_VIOLATION', `${field}: ${message}`, field);
