/** Title summary (4.1), details (4.2), pending applications (4.3) and securities (4.8). */
import { ApiError } from '../errors';
import { jsonReply, type Handler } from '../context';
import { summaryOf } from '../seed/build';
import { requireTitleNumber } from '../validate';
import { chargeableInput, chargeCaller, existingTitle, requireStatus, titleFas } from './common';

export const titleSummary: Handler = (ctx) => {
  const titleNumber = requireTitleNumber(ctx.params.titleNumber);
  const title = existingTitle(titleNumber);
  return jsonReply(ctx, { data: summaryOf(title) });
};

export const titleDetails: Handler = (ctx) => {
  const { titleNumber, query } = chargeableInput(ctx);
  const account = titleFas(ctx, query.fas);
  const title = existingTitle(titleNumber);
  requireStatus(title, ['REGISTERED'], 'title details');
  const charges = chargeCaller(ctx, account, titleNumber, ['TITLE_DATA_AND_PLANS'], query.reference);
  return jsonReply(ctx, { data: title.details, charges });
};

export const pendingApplications: Handler = (ctx) => {
  const { titleNumber, query } = chargeableInput(ctx);
  const account = titleFas(ctx, query.fas);
  const title = existingTitle(titleNumber);
  requireStatus(title, ['REGISTERED', 'DRAFT'], 'pending applications');
  const charges = chargeCaller(ctx, account, titleNumber, ['PENDING_APPLICATIONS'], query.reference);
  return jsonReply(ctx, { list: { results: title.pending.length, items: title.pending }, charges });
};

/** Closed, cancelled and amalgamated titles are "not returned" (404); drafts have no securities. */
export const securities: Handler = (ctx) => {
  const titleNumber = requireTitleNumber(ctx.params.titleNumber);
  const title = existingTitle(titleNumber);
  if (title.status === 'CLOSED' || title.status === 'CANCELLED' || title.status === 'AMALGAMATED') {
    throw new ApiError(404, 'TITLE_NOT_FOUND', `title ${titleNumber} is ${title.status}: its securities are not returned`, 'titleNumber');
  }
  return jsonReply(ctx, {
    titleNumber,
    titleType: title.titleType,
    status: title.status,
    securities: title.status === 'DRAFT' ? [] : title.securities,
  });
};
