/**
 * A register error as a mutation's userError: the mutation column of the one mapping from register
 * errors to what GraphQL callers see (its table, and the top-level column: src/graphql/errors.ts).
 * Made here, below GraphQL, because the idempotency service records the refusal as the key's answer.
 */
import { QuotaRefusal } from './quota';
import { RegisterError } from '../register/client';
import { FAS_PLACEHOLDER, type RegisterErrorCode } from '../register/client/errors';
import type { UserError, UserErrorCode } from './user-errors';

/**
 * Each register error code: the mutation userError it becomes, or null when it is not a business
 * outcome (a transport failure, which becomes a top-level error). A Record over the whole union,
 * so a code added to the contract or the client does not compile until it is mapped here.
 */
const BUSINESS: Record<RegisterErrorCode, { code: UserErrorCode; field?: string[] } | null> = {
  INVALID_REQUEST: { code: 'INVALID_INPUT' },
  INVALID_TITLE_NUMBER: { code: 'INVALID_INPUT', field: ['input', 'titleNumber'] },
  TITLE_NOT_FOUND: { code: 'TITLE_NOT_FOUND', field: ['input', 'titleNumber'] },
  TITLE_STATUS_NOT_SUPPORTED: { code: 'TITLE_STATUS_NOT_SUPPORTED', field: ['input', 'titleNumber'] },
  FAS_NOT_AUTHORISED: { code: 'FAS_NOT_AUTHORISED', field: ['fas'] },
  CREDIT_LIMIT_EXCEEDED: { code: 'CREDIT_LIMIT_EXCEEDED', field: ['fas'] },
  CASE_NOT_FOUND: { code: 'CASE_NOT_FOUND', field: ['input', 'caseId'] },
  SECURITY_NOT_FOUND: { code: 'SECURITY_NOT_FOUND', field: ['input', 'securityId'] },
  DEED_RULE_VIOLATION: { code: 'DEED_RULE_VIOLATION' },
  TOO_MANY_REQUESTS: { code: 'RATE_LIMITED' },
  UNAUTHORISED: null,
  DOCUMENT_NOT_FOUND: null,
  LIST_NOT_FOUND: null,
  INTERNAL_ERROR: null,
  REGISTER_UNAVAILABLE: null,
  REGISTER_TIMEOUT: null,
  REGISTER_CONTRACT_ERROR: null,
  CIRCUIT_OPEN: null,
  REGISTER_ERROR: null,
  SERVICE_UNAVAILABLE: null,
};

/** A rate limit's words: a mutation's userError and a query's top-level error say the same. */
export const rateLimitedMessage = (error: RegisterError) =>
  error instanceof QuotaRefusal && error.detail
    ? error.detail
    : `The register's quota or rate limit was reached${error.retryAfterSeconds ? `; retry after ${error.retryAfterSeconds} s` : ''}.`;

/** What the caller sent that a refusal may be about: named back to them in its message and field. */
export interface CallerInput {
  /** The caller's own charging account: shown to them, never logged. */
  fas?: string;
  titleNumber?: string;
  caseId?: string;
  /** GraphQL input paths per register code, where the register's own field would mislead (e.g. createCase's one title). */
  fieldsByCode?: Partial<Record<string, string[]>>;
}

/**
 * A register message for the caller: each `wire.path: rule` part speaks of the GraphQL field
 * instead (`agent.fas` → `fas`), and the caller's own FAS, redacted for the logs, is theirs to see.
 */
function forCaller(detail: string, fieldFor: (registerField: string) => string[] | undefined, input: CallerInput): string {
  const parts = detail.split('; ').map((part) => {
    const m = /^([A-Za-z][\w]*(?:\.[\w]+)*): (.*)$/s.exec(part);
    const path = m && fieldFor(m[1]!);
    return m && path ? `${path.join('.')}: ${m[2]}` : part;
  });
  const text = parts.join('; ');
  return input.fas ? text.split(FAS_PLACEHOLDER).join(input.fas) : text;
}

/** Our own sentence for refusals whose subject we know; others keep the register's (translated) words. */
function ownMessage(code: string, input: CallerInput): string | undefined {
  switch (code) {
    case 'TITLE_NOT_FOUND':
      return input.titleNumber ? `The register has no title ${input.titleNumber}.` : undefined;
    case 'CREDIT_LIMIT_EXCEEDED':
      return input.fas ? `FAS ${input.fas} is at its credit limit; nothing was charged.` : undefined;
    case 'CASE_NOT_FOUND':
      return input.caseId
        ? `No case ${input.caseId} that your organisation can add deeds to: it is unknown, private, or another organisation's.`
        : undefined;
    default:
      return undefined;
  }
}

/**
 * The userError for a register error that is a business outcome, or undefined for a transport
 * failure (which becomes a top-level error). `fieldFor` translates a register field path (e.g.
 * `agent.contactEmail`) into the GraphQL input path.
 */
export function userErrorFromRegister(
  error: unknown,
  fieldFor: (registerField: string) => string[] | undefined = () => undefined,
  input: CallerInput = {},
): UserError | undefined {
  if (!(error instanceof RegisterError)) return undefined;
  const mapped = BUSINESS[error.code];
  if (!mapped) return undefined;
  const field = input.fieldsByCode?.[error.code] ?? (error.field && fieldFor(error.field)) ?? mapped.field;
  const message =
    mapped.code === 'RATE_LIMITED'
      ? rateLimitedMessage(error)
      : (ownMessage(error.code, input) ??
        (error.detail ? forCaller(error.detail, fieldFor, input) : `The register refused the request (${error.code}).`));
  return { code: mapped.code, message, ...(field ? { field } : {}) };
}
