/** Charges, exactly as the register returns them from a chargeable call (service-spec 2.4). */
import { builder } from '../builder';
import type { Charge as WireCharge } from '../../register/contract/wire';

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
    maxFee: t.string({
      description:
        'The most this call may charge, before VAT (e.g. "3.00"). When the expected charge is\nhigher, the call is refused with CHARGE_ABOVE_MAXIMUM before anything is sent.',
    }),
  }),
});
