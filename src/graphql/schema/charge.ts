/** Charges, exactly as the register returns them from a chargeable call (service-spec 2.4). */
import { builder } from '../builder';
import type { Charge as WireCharge } from '../../register/contract/wire';
import type { Context } from '../context';
import { runIdempotent, type Outcome } from '../../idempotency/run';
import { ChargeQuery, Latin1Max } from '../../register/contract/wire';
import { LIMITS } from '../../register/contract/rules';
import { check, dottedFieldMapper, userErrorsOf } from '../validation';
import type { UserError } from './user-error';

export const ChargeType = builder.objectRef<WireCharge>('Charge').implement({
  description: 'One charge made to a charging (FAS) account, as the register returned it.',
  fields: (t) => ({
    status: t.exposeString('status', { description: 'Charge status; NEW for a charge made by this call.' }),
    productType: t.exposeString('productType', { nullable: true, description: 'The product charged for.' }),
    details: t.exposeString('details', { nullable: true, description: 'What was charged, in words.' }),
    fee: t.exposeString('fee', { description: 'Decimal amount as the register gives it, e.g. "3.00".' }),
    fas: t.expose('fas', { type: 'FasNumber', description: 'The charging account billed.' }),
    transactionNumber: t.exposeString('transactionNumber', {
      nullable: true,
      description: "The register's transaction number, as on the invoice.",
    }),
    reference: t.exposeString('reference', {
      nullable: true,
      description: "The caller's search reference, as it appears on the invoice.",
    }),
  }),
});

export interface PurchaseTitleInputShape {
  titleNumber: string;
  reference?: string | null;
  idempotencyKey: string;
}

export const PurchaseTitleInput = builder.inputType('PurchaseTitleInput', {
  description: 'Which title to buy, the search reference for the invoice, and the idempotency key.',
  fields: (t) => ({
    titleNumber: t.field({ type: 'TitleNumber', required: true, description: 'The title to buy.' }),
    reference: t.string({
      description: "Caller's search reference, at most 75 characters; appears on invoices and charges.",
    }),
    idempotencyKey: t.string({
      required: true,
      description: 'Client-chosen key (1 to 255 printable ASCII): the same key with the same input never charges twice.',
    }),
  }),
});

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
export function runChargeable<T extends { charges: readonly WireCharge[] }>(
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

/** The charges and userErrors every chargeable payload carries. */
export function chargeablePayload<T>(outcome: Outcome<T>, charges: (value: T) => WireCharge[]) {
  return outcome.ok
    ? { value: outcome.value, charges: charges(outcome.value), userErrors: [] as UserError[] }
    : { value: null, charges: [] as WireCharge[], userErrors: outcome.userErrors };
}
