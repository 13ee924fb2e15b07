/** Ordered title documents (service-spec 4.4, 4.5): orderTitleDocument and the TitleDocument type. */
import { builder } from '../builder';
import type { Charge, OrderDocumentRequest } from '../../register/contract/wire';
import { chargeableMutation } from './chargeable';
import { downloadFields, expiryOfIssue } from './download-links';
import { invalidInput, type UserError } from '../../services/user-errors';
import type { Answered } from '../../register/client';

interface OrderedDocument {
  documentId: string;
  titleNumber: string;
  expiresAt: string;
  charges: Charge[];
}

const TitleDocumentType = builder.objectRef<OrderedDocument>('TitleDocument').implement({
  description:
    'An ordered title document. Bound to the API client that ordered it, valid until the end of\nthe day of issue (register time, Europe/London).',
  fields: (t) => ({
    documentId: t.exposeString('documentId', { description: "The register's opaque document id." }),
    titleNumber: t.expose('titleNumber', { type: 'TitleNumber', description: 'The title the document is of.' }),
    ...downloadFields(t, {
      kind: 'documents',
      idOf: (d) => d.documentId,
      linkDescription:
        'A link that streams the PDF. It works without credentials for a short time (the README says\nhow long), never past `expiresAt`; a caller may fetch a fresh one by replaying the order.',
    }),
  }),
});

const PreamblesEnum = builder.enumType('Preambles', {
  description: 'How burden preambles are printed in the title sheet.',
  values: { INLINE: { description: 'Preambles printed inline with each burden.' } } as const,
});

const TitleSheetPartInput = builder.inputType('TitleSheetPartInput', {
  description: 'The title sheet part of a document (charged as title data and plans).',
  fields: (t) => ({
    include: t.boolean({ required: true, description: 'Include the title sheet.' }),
    preambles: t.field({ type: PreamblesEnum, description: 'How preambles are printed.' }),
  }),
});
const DocumentPartInput = builder.inputType('DocumentPartInput', {
  description: 'A further part of a document.',
  fields: (t) => ({ include: t.boolean({ required: true, description: 'Include this part.' }) }),
});

const OrderTitleDocumentInput = builder.inputType('OrderTitleDocumentInput', {
  description: 'The title, the parts wanted (at least one), the invoice reference and the idempotency key.',
  fields: (t) => ({
    titleNumber: t.field({ type: 'TitleNumber', required: true, description: 'The title.' }),
    reference: t.string({ description: "Caller's search reference, at most 75 characters." }),
    titleSheet: t.field({ type: TitleSheetPartInput, description: 'The title sheet part.' }),
    applications: t.field({ type: DocumentPartInput, description: 'The pending applications part (charged separately).' }),
    idempotencyKey: t.string({ required: true, description: 'Client-chosen key: the same key and input never charge twice.' }),
    maxFee: t.string({ description: 'The most this call may charge, before VAT; as in PurchaseTitleInput.' }),
  }),
});

/** The register's order body: the parts asked for, as the caller gave them. */
function orderBody(input: typeof OrderTitleDocumentInput.$inferInput): OrderDocumentRequest {
  return {
    ...(input.titleSheet
      ? {
          titleSheet: {
            include: input.titleSheet.include,
            ...(input.titleSheet.preambles ? { preambles: input.titleSheet.preambles } : {}),
          },
        }
      : {}),
    ...(input.applications ? { applications: { include: input.applications.include } } : {}),
  };
}

chargeableMutation('orderTitleDocument', {
  description: 'Order the title document PDF (chargeable for the parts requested).',
  input: { type: OrderTitleDocumentInput, description: 'What to order.' },
  charge: (input, ctx) => {
    const body = orderBody(input);
    const inputErrors: UserError[] =
      body.titleSheet?.include || body.applications?.include
        ? []
        : [
            invalidInput(
              ['input', 'titleSheet', 'include'],
              'or input.applications.include must be true: a document needs at least one part.',
            ),
          ];
    return {
      products: [
        ...(body.titleSheet?.include ? (['TITLE_DATA_AND_PLANS'] as const) : []),
        ...(body.applications?.include ? (['PENDING_APPLICATIONS'] as const) : []),
      ],
      call: async (q): Promise<Answered<OrderedDocument>> => {
        const answered = await ctx.register.orderDocument(input.titleNumber, q, body, ctx.callOptions);
        const ordered = answered.body;
        return {
          ...answered,
          body: {
            documentId: ordered.data.documentId,
            titleNumber: input.titleNumber,
            // the register's day of issue, not ours: near midnight the two differ
            expiresAt: expiryOfIssue(ctx.services.registerNow()),
            charges: ordered.charges,
          },
        };
      },
      extraInput: body,
      inputErrors,
    };
  },
  files: { kind: 'documents', expiresAt: (document) => document.expiresAt },
  answer: (t) => ({
    document: t.field({ type: TitleDocumentType, nullable: true, description: 'The ordered document.', resolve: (p) => p.value }),
  }),
});
