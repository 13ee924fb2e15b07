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
import { AMOUNT_RULE, type ChargeableProduct, penceOf } from '../../register/contract/money';
import { badUserInput, type UserError } from './user-errors';

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

/**
 * Validates the charging query, then runs the register call once per idempotency key, with the
 * products it may charge reserved against the spending limits (and held to `maxFee`).
 */
export async function runChargeable<T extends { charges: readonly Charge[] }>(
  ctx: Context,
  operation: string,
  fas: string,
  input: PurchaseTitleInputShape,
  products: readonly ChargeableProduct[],
  call: (query: ChargeQuery) => Promise<T>,
  extra: { input?: unknown; inputErrors?: UserError[] } = {},
): Promise<Outcome<T>> {
  const maxFeePence = maxFeePenceOf(input);
  const query = { fas, ...(input.reference != null ? { reference: input.reference } : {}) };
  const parsed = check(ChargeRequest, query);
  const outcome = await runIdempotent(ctx, {
    operation,
    effect: {
      charges: { fas, titleNumber: input.titleNumber, ...(input.reference != null ? { reference: input.reference } : {}) },
      products,
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
      ...(extra.input as object),
    },
    inputErrors: [...userErrorsOf(parsed, chargeFieldPath), ...(extra.inputErrors ?? [])],
    fieldFor: dottedFieldMapper(chargeFieldPath),
    callerInput: { fas, titleNumber: input.titleNumber },
    execute: () => call(query),
  });
  if (outcome.ok && maxFeePence !== undefined) {
    const chargedPence = outcome.value.charges.reduce((sum, c) => sum + (penceOf(c.fee) ?? 0), 0);
    // The register's fee changed since the quote: the charge is shown as ever, and someone is told.
    if (chargedPence > maxFeePence) {
      ctx.services.events.emit('chargeAboveMaxFee', { tenant: ctx.tenant.id, operation, chargedPence, maxFeePence });
    }
  }
  return outcome;
}
