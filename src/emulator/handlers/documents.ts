/** Order (4.4) and download (4.5) title documents; purchase (4.6) and download (4.7) plans. */
import { OrderDocumentRequest } from '../../register/contract/wire';
import { ApiError, invalidRequest } from '../errors';
import { jsonReply, type Handler, type RequestContext } from '../context';
import { findTitle } from '../seed';
import type { PdfBody } from '../store';
import type { ProductType } from '../types';
import { requireTitleNumber } from '../validate';
import { chargeableInput, chargeCaller, existingTitle, requireStatus, titleFas } from './common';

export const orderDocument: Handler = (ctx) => {
  const { titleNumber, query, body } = chargeableInput(ctx, OrderDocumentRequest);
  const parts = {
    titleSheet: body.titleSheet?.include === true,
    applications: body.applications?.include === true,
    ...(body.titleSheet?.preambles ? { preambles: body.titleSheet.preambles } : {}),
  };
  if (!parts.titleSheet && !parts.applications) {
    throw invalidRequest(
      'titleSheet.include',
      'titleSheet.include: at least one of titleSheet.include and applications.include must be true',
    );
  }
  const account = titleFas(ctx, query.fas);
  const title = existingTitle(titleNumber);
  requireStatus(title, ['REGISTERED'], 'title documents');
  const products: ProductType[] = [];
  if (parts.titleSheet) products.push('TITLE_DATA_AND_PLANS');
  if (parts.applications) products.push('PENDING_APPLICATIONS');
  const charges = chargeCaller(ctx, account, titleNumber, products, query.reference);
  const file = ctx.env.store.issueFile({
    kind: 'document',
    clientId: ctx.caller.clientId,
    organisation: ctx.caller.organisation,
    titleNumber,
    issuedAt: ctx.now,
    filename: `${titleNumber}-title-sheet.pdf`,
    parts,
    ...(query.reference !== undefined ? { reference: query.reference } : {}),
  });
  return jsonReply(ctx, { data: { documentId: file.id }, charges });
};

export const purchasePlans: Handler = (ctx) => {
  const { titleNumber, query } = chargeableInput(ctx);
  const account = titleFas(ctx, query.fas);
  const title = existingTitle(titleNumber);
  requireStatus(title, ['REGISTERED'], 'plan purchase');
  if (title.plans.length === 0) return jsonReply(ctx, { plans: [], charges: [] });
  const charges = chargeCaller(ctx, account, titleNumber, ['TITLE_DATA_AND_PLANS'], query.reference);
  const plans = title.plans.map((p, planIndex) => {
    const file = ctx.env.store.issueFile({
      kind: 'plan',
      clientId: ctx.caller.clientId,
      organisation: ctx.caller.organisation,
      titleNumber,
      issuedAt: ctx.now,
      filename: `${titleNumber}-plan-${planIndex + 1}.pdf`,
      planIndex,
    });
    return { ...p.summary, planId: file.id };
  });
  return jsonReply(ctx, { plans, charges });
};

function notFound(kind: string, id: string) {
  return new ApiError(
    404,
    'DOCUMENT_NOT_FOUND',
    `${kind} ${id} was not found, has expired or was issued to another API client`,
    kind === 'plan' ? 'planId' : 'documentId',
  );
}

async function download(ctx: RequestContext, kind: 'document' | 'plan', id: string) {
  const titleNumber = requireTitleNumber(ctx.params.titleNumber);
  const file = ctx.env.store.findFile(id, kind, ctx.caller.clientId, titleNumber, ctx.now);
  const title = file && findTitle(titleNumber);
  if (!file || !title) throw notFound(kind, id);
  let body: PdfBody;
  if (kind === 'document') {
    body = await ctx.env.store.pdf(file.id, async () => ({
      bytes: await (await import('../pdf')).renderTitleDocument(title, file.parts!, file.issuedAt, file.reference),
    }));
  } else {
    const index = file.planIndex!;
    const plan = title.plans[index]!;
    body = await ctx.env.store.pdf(`plan:${titleNumber}:${index}`, async () => {
      // pdf-lib is loaded on the first download only, to keep start-up (and test imports) light.
      const { padPdf, renderPlan } = await import('../pdf-plan');
      const bytes = await renderPlan(titleNumber, index, plan);
      return plan.large ? padPdf(bytes, ctx.env.options.largePlanBytes) : { bytes };
    });
  }
  return { status: 200, pdf: body, filename: file.filename };
}

export const downloadDocument: Handler = (ctx) => download(ctx, 'document', ctx.params.documentId ?? '');
export const downloadPlan: Handler = (ctx) => download(ctx, 'plan', ctx.params.planId ?? '');
