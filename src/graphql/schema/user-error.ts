/** The GraphQL face of `userErrors`: the UserError type and the UserErrorCode enum, one description per code. */
import { builder } from '../builder';
import { USER_ERROR_CODES, type UserError, type UserErrorCode } from '../../services/user-errors';

const CODE_DESCRIPTIONS: Record<UserErrorCode, string> = {
  INVALID_INPUT: 'A limit or character-set rule of the spec was broken; `field` names the input.',
  TITLE_NOT_FOUND: 'The register has no such title.',
  TITLE_STATUS_NOT_SUPPORTED: 'The operation does not apply to a title of this status, e.g. details of a closed title.',
  FAS_NOT_AUTHORISED: "Not a charging account of the caller's organisation, or the wrong kind of account.",
  CREDIT_LIMIT_EXCEEDED: 'The charging account is at its credit limit; nothing was charged.',
  CASE_NOT_FOUND: "Unknown, private, or another organisation's case.",
  SECURITY_NOT_FOUND: 'The security to discharge is not registered against the case title.',
  IDEMPOTENCY_KEY_REUSED: 'This idempotency key was used before with different input.',
  RATE_LIMITED: "The register's quota or rate limit was reached; retry after the time given.",
  DEED_RULE_VIOLATION:
    "A deed rule that depends on the register's state was broken, e.g. a discharge of a security the title does not have; `field` names the input.",
  OUTCOME_UNKNOWN:
    'The request reached the register but no answer came back, so it may have been charged or created. It is never re-sent automatically: check before retrying with a new key.',
  IDEMPOTENCY_KEY_IN_USE: 'A request with this idempotency key is still in progress; retry shortly.',
  SPEND_LIMIT_REACHED:
    "The API client's or organisation's spending limit for the day leaves no room for this call; nothing was sent. The message says which limit, what remains and when it resets.",
  CHARGE_ABOVE_MAXIMUM: "The expected charge is above the caller's maxFee; nothing was sent.",
  DOCUMENT_EXPIRED:
    'A replay of an order whose document or plans expired with their day (midnight, London time): the charges are those of the original order. Order again with a new idempotency key.',
};

export const UserErrorCodeEnum = builder.enumType('UserErrorCode', {
  description: 'Why a mutation did not do what was asked.',
  values: Object.fromEntries(USER_ERROR_CODES.map((code) => [code, { description: CODE_DESCRIPTIONS[code] }])) as Record<
    UserErrorCode,
    { description: string }
  >,
});

export const UserErrorType = builder.objectRef<UserError>('UserError').implement({
  description: 'A business failure of a mutation: nothing was charged or created unless the code says otherwise.',
  fields: (t) => ({
    code: t.expose('code', { type: UserErrorCodeEnum, description: 'Machine-readable reason.' }),
    message: t.exposeString('message', { description: 'Human-readable explanation naming the rule.' }),
    field: t.exposeStringList('field', {
      nullable: true,
      description: 'Path to the offending input field, e.g. ["input", "reference"].',
    }),
  }),
});
