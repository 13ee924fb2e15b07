/** Creditor search (4.9): case-insensitive substring over designations, at most 15 results. */
import { LIMITS } from '../../register/contract/rules';
import { CreditorQuery } from '../../register/contract/wire';
import { jsonReply, type Handler } from '../context';
import { searchCreditors } from '../seed/creditors';
import { parseAll, queryObject } from '../validate';

export const creditors: Handler = (ctx) => {
  const [{ query }] = parseAll([{ schema: CreditorQuery, value: queryObject(ctx.query) }] as const);
  return jsonReply(ctx, searchCreditors(query, LIMITS.creditorResults.max));
};
