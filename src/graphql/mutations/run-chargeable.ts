/**
 * The chargeable mutations' shared path: the charging query (FAS and invoice reference) is
 * checked by this service's rules, then the register call runs once per idempotency key with
 * the charge journalled.
 */
import { type Charge, ChargeQuery, Latin1Max } from '../../register/contract/wire';
import { LIMITS } from '../../register/contract/rules';
import type { Context } from '../context';
import { check, dottedFieldMapper, userErrorsOf } from './input-rules';
import { runIdempotent } from './run-idempotent';
import { AMOUNT_RULE, type ChargeableProduct, penceOf } from '../../register/contract/money';
import { badUserInput } from './user-errors';
import type { UserError } from '../../services/user-errors';
import type { Answered } from '../../register/client';

export interface PurchaseTitleInputShape {
  titleNumber: string;
  reference?: string | null;
  idempotencyKey: string;
  maxFee?: string | null;
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

/** `maxFee` in pence; a malformed amount is refused before anything else, naming the field. */
function maxFeePenceOf(input: PurchaseTitleInputShape): number | undefined {
  if (input.maxFee == null) return undefined;
  const pence = penceOf(input.maxFee);
  if (pence === undefined) throw badUserInput(`input.maxFee ${AMOUNT_RULE} (got ${JSON.stringify(input.maxFee)}).`, 'input.maxFee');
  return pence;
}

/** One chargeable mutation: what it calls, on which account, and what it may charge. */
export interface ChargeableCall<T> {
  operation: string;
  fas: string;
  input: PurchaseTitleInputShape;
  /** The products the call may charge, reserved against the spending limits before it is sent. */
  products: readonly ChargeableProduct[];
  /** The register call, with when the register began to answer it (the charge's register day). */
  call: (query: ChargeQuery) => Promise<Answered<T>>;
  /** More input that the idempotency key binds (e.g. a document's parts), and what is wrong with it. */
  extraInput?: object;
  inputErrors?: UserError[];
}

/** What every chargeable payload is made of: the result, the charges and the userErrors. */
export interface ChargeableResult<T> {
  value: T | null;
  charges: readonly Charge[];
  userErrors: UserError[];
}

/**
 * Validates the charging query, then runs the register call once per idempotency key, with the
 * products it may charge reserved against the spending limits (and held to `maxFee`).
 */
export async function runChargeable<T extends { charges: readonly Charge[] }>(
  ctx: Context,
  run: ChargeableCall<T>,
): Promise<ChargeableResult<T>> {
  const { operation, fas, input } = run;
  const maxFeePence = maxFeePenceOf(input);
  const query = { fas, ...(input.reference != null ? { reference: input.reference } : {}) };
  const parsed = check(ChargeRequest, query);
  // A FAS the organisation does not list is refused first, as chargeQuote does: any limit or
  // maxFee check after it would answer a question about an account the caller may not charge.
  const fasErrors: UserError[] = ctx.services.spend.fasAllowed(ctx.caller, fas)
    ? []
    : [{ code: 'FAS_NOT_AUTHORISED', message: `fas: ${fas} is not a charging account of your organisation.`, field: ['fas'] }];
  const outcome = await runIdempotent(ctx, {
    operation,
    effect: {
      charges: { fas, titleNumber: input.titleNumber, ...(input.reference != null ? { reference: input.reference } : {}) },
      products: run.products,
      ...(maxFeePence !== undefined ? { maxFeePence } : {}),
      chargesOf: (value) => value.charges,
    },
    idempotencyKey: input.idempotencyKey,
    // maxFee is bound to the key; left out when absent, so keys stored before it still match.
    input: {
      fas,
      titleNumber: input.titleNumber,
      reference: input.reference ?? null,
      ...(input.maxFee != null ? { maxFee: input.maxFee } : {}),
      ...run.extraInput,
    },
    inputErrors: [...fasErrors, ...userErrorsOf(parsed, chargeFieldPath), ...(run.inputErrors ?? [])],
    fieldFor: dottedFieldMapper(chargeFieldPath),
    callerInput: { fas, titleNumber: input.titleNumber },
    execute: () => run.call(query),
  });
  if (!outcome.ok) return { value: null, charges: [], userErrors: outcome.userErrors };
  const { value } = outcome;
  if (maxFeePence !== undefined) {
    const chargedPence = value.charges.reduce((sum, c) => sum + (penceOf(c.fee) ?? 0), 0);
    // The register's fee changed since the quote: the charge is shown as ever, and someone is told.
    if (chargedPence > maxFeePence) {
      ctx.services.events.emit('chargeAboveMaxFee', { tenant: ctx.caller.clientId, operation, chargedPence, maxFeePence });
    }
  }
  return { value, charges: value.charges, userErrors: [] };
}
