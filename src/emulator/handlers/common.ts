/** Checks shared by the title routes: FAS ownership (403), existence (404), status (422). */
import type { z } from 'zod';
import { ChargeQuery } from '../../register/contract/wire';
type ChargeQueryT = z.infer<typeof ChargeQuery>;
import { fasNotAuthorised, titleNotFound, titleStatusNotSupported } from '../errors';
import type { RequestContext } from '../context';
import { findTitle, type TitleRecord } from '../seed';
import { findFas, type FasAccount } from '../seed/organisations';
import type { Charge, TitleStatus } from '../../register/contract/wire';
import type { ProductType } from '../types';
import { parseAll, queryObject, requireTitleNumber } from '../validate';

/** A title-information FAS account of the caller's organisation, else 403 FAS_NOT_AUTHORISED. */
export function titleFas(ctx: RequestContext, fas: string): FasAccount {
  const account = findFas(fas);
  if (!account || account.organisation !== ctx.caller.organisation)
    throw fasNotAuthorised(fas, 'is not a charging account of your organisation');
  if (account.kind !== 'title')
    throw fasNotAuthorised(fas, 'is a case (agent) account; title information needs a title-information account');
  return account;
}

export function existingTitle(titleNumber: string): TitleRecord {
  const t = findTitle(titleNumber);
  if (!t) throw titleNotFound(titleNumber);
  return t;
}

export function requireStatus(t: TitleRecord, allowed: readonly TitleStatus[], what: string): void {
  if (!allowed.includes(t.status))
    throw titleStatusNotSupported(t.titleNumber, t.status, `${what} supports ${allowed.join(' and ').toLowerCase()} titles only`);
}

/**
 * The input of a chargeable title route: title number (400 INVALID_TITLE_NUMBER), then query
 * and optional body together (400 INVALID_REQUEST naming every broken field).
 */
export function chargeableInput<B extends z.ZodType | undefined>(
  ctx: RequestContext,
  bodySchema?: B,
): { titleNumber: string; query: ChargeQueryT; body: B extends z.ZodType ? z.infer<B> : undefined } {
  const titleNumber = requireTitleNumber(ctx.params.titleNumber);
  if (!bodySchema) {
    const [query] = parseAll([{ schema: ChargeQuery, value: queryObject(ctx.query) }] as const);
    return { titleNumber, query, body: undefined as never };
  }
  const [query, body] = parseAll([
    { schema: ChargeQuery, value: queryObject(ctx.query) },
    { schema: bodySchema, value: ctx.body ?? {} },
  ] as const);
  return { titleNumber, query, body: body as never };
}

/** Charges the caller's account for these products of a title (once per FAS, title, product and London day). */
export function chargeCaller(
  ctx: RequestContext,
  account: FasAccount,
  titleNumber: string,
  products: ProductType[],
  reference: string | undefined,
): Charge[] {
  return ctx.env.ledger.charge({
    account,
    titleNumber,
    products,
    reference,
    clientId: ctx.caller.clientId,
    organisation: ctx.caller.organisation,
    now: ctx.now,
  });
}
