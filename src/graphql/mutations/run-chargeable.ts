/**
 * The chargeable mutations' shared path: the charging query (FAS and invoice reference) is
 * checked by this service's rules, then the register call runs once per idempotency key with
 * the charge journalled.
 */
import { type Charge, ChargeQuery, Latin1Max } from '../../register/contract/wire';
import { LIMITS } from '../../register/contract/rules';
import type { Context } from '../context';
import { check, dottedFieldMapper, userErrorsOf } from './input-rules';
import { runIdempotent, type Outcome } from './run-idempotent';
import type { UserError } from './user-errors';

export interface PurchaseTitleInputShape {
  titleNumber: string;
  reference?: string | null;
  idempotencyKey: string;
}

/** Wire fields → GraphQL argument paths: `fas` is top-level, everything else is in the input. */
const chargeFieldPath = (path: readonly PropertyKey[]) => (path[0] === 'fas' ? ['fas'] : ['input', ...path.map(String)]);

/**
 * The charging query as this service accepts it: the register prints `reference` on invoices,
 * so it follows the case interface's text rule (ISO-8859-1 printable, spec section 1) as well
 * as its own length limit. Checked here only: the register itself states no character rule.
 */
const ChargeRequest = ChargeQuery.extend({
  reference: Latin1Max(LIMITS.chargeReference.max).optional(),
});

/** Validates the charging query, then runs the register call once per idempotency key. */
export function runChargeable<T extends { charges: readonly Charge[] }>(
  ctx: Context,
  operation: string,
  fas: string,
  input: PurchaseTitleInputShape,
  call: (query: ChargeQuery) => Promise<T>,
  extra: { input?: unknown; inputErrors?: UserError[] } = {},
): Promise<Outcome<T>> {
  const query = { fas, ...(input.reference != null ? { reference: input.reference } : {}) };
  const parsed = check(ChargeRequest, query);
  return runIdempotent(ctx, {
    operation,
    effect: { charges: { fas, titleNumber: input.titleNumber }, chargesOf: (value) => value.charges },
    idempotencyKey: input.idempotencyKey,
    input: { fas, titleNumber: input.titleNumber, reference: input.reference ?? null, ...(extra.input as object) },
    inputErrors: [...userErrorsOf(parsed, chargeFieldPath), ...(extra.inputErrors ?? [])],
    fieldFor: dottedFieldMapper(chargeFieldPath),
    callerInput: { fas, titleNumber: input.titleNumber },
    execute: () => call(query),
  });
}
