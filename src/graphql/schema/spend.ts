/**
 * Spend control, read side: the price before a purchase (`chargeQuote`), today's spending
 * against the limits (`spending`) and the statement an accounts team bills from
 * (`chargeStatement`). All free: they read the charge journal, never the register.
 */
import { topLevelError } from '../error-codes';
import { builder } from '../builder';
import { CHARGEABLE_PRODUCTS, type ChargeableProduct, formatPence } from '../../register/contract/money';
import type { JournalRecord, StatementSummary } from '../../storage/idempotency/store';
import type { Quote, QuoteLine, SpendingAccountFigures } from '../../services/spend';
import type { RegisterDayCertainty } from '../../register/client';
import {
  DEFAULT_STATEMENT_PAGE,
  decodeStatementCursor,
  encodeStatementCursor,
  MAX_STATEMENT_PAGE,
  statementRangeProblem,
  statementRetentionWarning,
} from '../../services/statements';
import { badUserInput } from '../mutations/user-errors';
import { ChargeRecordType, dayOf } from './charge-records';
import { needsScope } from '../field-scopes';
import { RegisterDayCertaintyEnum, registerDayForAnswer } from './register-day';

const PRODUCT_DESCRIPTIONS: Record<ChargeableProduct, string> = {
  TITLE_DATA_AND_PLANS: 'Title data, the title sheet PDF and all plans of a title: one charge.',
  PENDING_APPLICATIONS: 'Advance notices and pending applications of a title.',
};

const ChargeableProductEnum = builder.enumType('ChargeableProduct', {
  description: 'What the register charges for: once per product, title, charging account and register day.',
  values: Object.fromEntries(CHARGEABLE_PRODUCTS.map((p) => [p, { description: PRODUCT_DESCRIPTIONS[p] }])) as Record<
    ChargeableProduct,
    { description: string }
  >,
});

const ChargeQuoteLineType = builder.objectRef<QuoteLine>('ChargeQuoteLine').implement({
  description: 'One product of a quote.',
  fields: (t) => ({
    product: t.expose('product', { type: ChargeableProductEnum, description: 'The product.' }),
    listFee: t.exposeString('listFee', { description: "The product's list fee." }),
    alreadyChargedToday: t.exposeBoolean('alreadyChargedToday', {
      description:
        'Already charged today on this account for this title through this service (by any API\nclient of the organisation): the register does not charge it again.',
    }),
    expectedFee: t.exposeString('expectedFee', { description: 'listFee, or "0.00" when already charged today.' }),
  }),
});

const ChargeQuoteType = builder.objectRef<Quote>('ChargeQuote').implement({
  description: 'What a purchase would charge now, before VAT, and whether the spending limits leave room for it.',
  fields: (t) => ({
    lines: t.expose('lines', { type: [ChargeQuoteLineType], description: 'One line per product asked about.' }),
    expectedTotal: t.exposeString('expectedTotal', {
      description: 'What the call is expected to charge in all, e.g. "3.00", or "0.00" when nothing is new.',
    }),
    withinLimits: t.exposeBoolean('withinLimits', {
      description: "True when the caller's API client and organisation limits leave room for expectedTotal.",
    }),
    day: t.expose('day', {
      type: 'Date',
      description:
        'The register day the quote is for. Near London midnight (dayCertainty NEAR_MIDNIGHT) the later of the two days the register may be on: a purchase may be charged on it, and a title bought the day before is charged again there.',
    }),
    dayCertainty: t.expose('dayCertainty', {
      type: RegisterDayCertaintyEnum,
      description:
        'Whether the register day a purchase sent now is charged on is known. From the call deadline (REGISTER_CALL_DEADLINE_MS, 30 s) plus a second before London midnight to a second after it, it is not (NEAR_MIDNIGHT): every product not already charged on the later day is quoted at its list fee, and a purchase is held to maxFee the same way.',
    }),
  }),
});

const SpendingAccountType = builder.objectRef<SpendingAccountFigures>('SpendingAccount').implement({
  description: "One account's spending for the day, against its limit. Amounts before VAT.",
  fields: (t) => ({
    charged: t.exposeString('charged', { description: 'Charged today, as the register reported it.' }),
    pending: t.exposeString('pending', {
      description: 'List fees of calls in flight or with an unknown outcome: they count against the limit.',
    }),
    limit: t.exposeString('limit', { nullable: true, description: "The day's limit; null when there is none." }),
    remaining: t.exposeString('remaining', {
      nullable: true,
      description: 'limit minus charged minus pending, never below "0.00"; null when there is no limit.',
    }),
  }),
});

const SpendingType = builder
  .objectRef<{
    day: string;
    dayCertainty: RegisterDayCertainty;
    caller: SpendingAccountFigures;
    client: SpendingAccountFigures;
    organisation: SpendingAccountFigures;
  }>('Spending')
  .implement({
    description: "Today's spending of the caller, of its API client and of its organisation.",
    fields: (t) => ({
      day: t.expose('day', { type: 'Date', description: 'The register day of these figures.' }),
      dayCertainty: t.expose('dayCertainty', {
        type: RegisterDayCertaintyEnum,
        description: "Whether `day` is known to be the register's day now (see RegisterDayCertainty).",
      }),
      client: t.expose('client', { type: SpendingAccountType, description: "The caller's API client." }),
      organisation: t.expose('organisation', {
        type: SpendingAccountType,
        description: "The caller's organisation, all its API clients together.",
      }),
      caller: t.expose('caller', {
        type: SpendingAccountType,
        description: "The calling person's or API key's own spending, against its own daily limit.",
      }),
    }),
  });

interface Statement {
  from: string;
  to: string;
  records: JournalRecord[];
  nextCursor: string | null;
  /** Read over the whole range only when `total` or `unknownCount` is asked for, once for both. */
  summary: () => Promise<StatementSummary>;
}

const ChargeStatementType = builder.objectRef<Statement>('ChargeStatement').implement({
  description: 'Charges of a range of register days, for billing client matters and checking the invoice.',
  fields: (t) => ({
    from: t.expose('from', { type: 'Date', description: 'First register day covered.' }),
    to: t.expose('to', { type: 'Date', description: 'Last register day covered.' }),
    records: t.expose('records', {
      type: [ChargeRecordType],
      description:
        'Oldest first; records with an unknown outcome have a null charge. One page: at most `first`\nrecords (a bounded default), after the `after` cursor.',
    }),
    nextCursor: t.exposeString('nextCursor', {
      nullable: true,
      description: 'Pass as `after` for the next page; null on the last page.',
    }),
    total: t.string({
      description: 'Sum of the charged fees over the whole range (every page), not this page alone.',
      resolve: async (s) => formatPence((await s.summary()).chargedPence),
    }),
    unknownCount: t.int({
      description: "Records of the whole range whose outcome is unknown: check them against the register's invoice.",
      resolve: async (s) => (await s.summary()).unknownCount,
    }),
  }),
});

builder.queryFields((t) => ({
  chargeQuote: t.field({
    ...needsScope('titles:read'),
    type: ChargeQuoteType,
    description:
      "What buying these products of a title on this charging account would charge now, before\nVAT, and whether the caller's spending limits leave room for it. Free: makes no register call.",
    args: {
      fas: t.arg({ type: 'FasNumber', required: true, description: 'The charging account the purchase would bill.' }),
      titleNumber: t.arg({ type: 'TitleNumber', required: true, description: 'The title.' }),
      products: t.arg({ type: [ChargeableProductEnum], required: true, description: 'The products the purchase would buy.' }),
    },
    resolve: async (_, { fas, titleNumber, products }, ctx) => {
      if (!ctx.services.spend.fasAllowed(ctx.caller, fas)) {
        // The words a purchase on this account gets from the register, and nothing more.
        throw topLevelError('FAS_NOT_AUTHORISED', `fas: ${fas} is not a charging account of your organisation.`, { field: 'fas' });
      }
      const registerDay = await registerDayForAnswer(ctx, true);
      return ctx.services.spend.quote(ctx.services.idempotency, ctx.caller, registerDay, fas, titleNumber, products);
    },
  }),
  spending: t.field({
    ...needsScope('charges:read'),
    type: SpendingType,
    description:
      "Today's spending (register day, Europe/London) of the caller's API client and of its\norganisation, against their limits. Free: makes no register call.",
    resolve: async (_, __, ctx) => {
      const registerDay = await registerDayForAnswer(ctx);
      const spending = await ctx.services.spend.spending(ctx.services.idempotency, ctx.caller, registerDay.day);
      return {
        day: spending.day,
        dayCertainty: registerDay.certainty,
        caller: spending.caller.figures,
        client: spending.client.figures,
        organisation: spending.organisation.figures,
      };
    },
  }),
  chargeStatement: t.field({
    ...needsScope('charges:read'),
    type: ChargeStatementType,
    description:
      "Charges of register days `from` to `to` (inclusive, at most 366 days), oldest first,\noptionally for one search reference (a matter) and one caller (a person's subject or a key's\nname). A caller with the charges:organisation scope (an accounts key) sees its whole\norganisation; any other caller sees its own calls only. Free: makes no register call.",
    args: {
      from: t.arg({ type: 'Date', required: true, description: 'First register day (Europe/London), YYYY-MM-DD.' }),
      to: t.arg({ type: 'Date', required: true, description: 'Last register day, inclusive.' }),
      reference: t.arg.string({ description: 'Only charges made with this search reference (the matter).' }),
      caller: t.arg.string({
        description:
          "Only this caller's charges: its id (`viewer.id`: `key:<name>` or `person:<provider>:<sub>`), or a\nbare subject or key name as before, which names every caller with that subject (another caller's\nneed charges:organisation).",
      }),
      first: t.arg.int({
        description: `Records on this page: 1 to ${MAX_STATEMENT_PAGE}, default ${DEFAULT_STATEMENT_PAGE}.`,
      }),
      after: t.arg.string({ description: "The previous page's nextCursor; absent for the first page." }),
    },
    resolve: async (_, args, ctx) => {
      const from = dayOf(args.from as string | Date);
      const to = dayOf(args.to as string | Date);
      const problem = statementRangeProblem(from, to);
      if (problem) throw badUserInput(problem.message, problem.field);
      const retention = statementRetentionWarning(from, ctx.services.journalRetentionDays);
      if (retention) ctx.warnings.push(retention);
      const first = args.first ?? DEFAULT_STATEMENT_PAGE;
      if (first < 1 || first > MAX_STATEMENT_PAGE) {
        throw badUserInput(`first must be from 1 to ${MAX_STATEMENT_PAGE} (got ${first}).`, 'first');
      }
      const after = args.after == null ? undefined : decodeStatementCursor(args.after);
      if (args.after != null && !after) {
        throw badUserInput("after must be a statement's nextCursor, as this service gave it.", 'after');
      }
      const view = ctx.services.spend.statementView(ctx.caller, args.caller);
      if ('refused' in view) throw topLevelError('FORBIDDEN', view.refused);
      const query = { ...view, from, to, reference: args.reference ?? undefined };
      const store = ctx.services.idempotency;
      let summary: Promise<StatementSummary> | undefined;
      const summaryOnce = () => {
        summary ??= store.statementSummary(query);
        return summary;
      };
      const page = await store.statementPage({ ...query, after, limit: first });
      // A full page may be the last: one more record read past it says whether another follows.
      const more = page.records.length === first && page.last && (await store.statementPage({ ...query, after: page.last, limit: 1 }));
      const nextCursor = more && more.records.length > 0 && page.last ? encodeStatementCursor(page.last) : null;
      return { from, to, records: page.records, nextCursor, summary: summaryOnce };
    },
  }),
}));
