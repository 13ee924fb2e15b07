/** Purchased plans (service-spec 2.9, 4.6, 4.7): purchaseTitlePlans and the Plan type. */
import { builder } from '../builder';
import type { Charge, Plan as WirePlan } from '../../register/contract/wire';
import { ChargeType, PurchaseTitleInput } from './charge';
import { chargeablePayload } from '../mutations/payloads';
import { runChargeable } from '../mutations/run-chargeable';
import { downloadUrlOf, expiredOnReplay, expiryOfIssue } from './download-links';
import { UserErrorType } from './user-error';
import type { UserError } from '../mutations/user-errors';

interface PurchasedPlan extends WirePlan {
  titleNumber: string;
  expiresAt: string;
}

const PlanType = builder.objectRef<PurchasedPlan>('Plan').implement({
  description: 'A purchased title plan, supplementary plan or plan image, downloadable until the end of the day of issue.',
  fields: (t) => ({
    planId: t.exposeString('planId', { description: "The register's opaque plan id." }),
    type: t.exposeString('type', { nullable: true, description: 'Plan kind, e.g. PLAN.' }),
    paperSize: t.exposeInt('paperSize', { nullable: true, description: 'Paper size (A-series number).' }),
    description: t.exposeString('description', { nullable: true, description: 'What the plan shows.' }),
    lastUpdated: t.expose('lastUpdated', { type: 'Date', nullable: true, description: 'When the plan last changed.' }),
    expiresAt: t.field({
      type: 'DateTime',
      description: 'End of the register day of issue; downloads fail after it.',
      resolve: (p) => p.expiresAt,
    }),
    downloadUrl: t.string({
      description:
        'Absolute link that streams the PDF with a plain GET (no Authorization header): signed for the API client that bought the plan, valid for 15 minutes and never past expiresAt. Replay the purchase for a fresh one; after expiresAt the plans must be bought again with a new idempotency key.',
      // Made now, for every answer (replays too): a signed link lives 15 minutes.
      resolve: (p, _, ctx) => downloadUrlOf(ctx, 'plans', p.titleNumber, p.planId, p.expiresAt),
    }),
  }),
});

const PurchaseTitlePlansPayload = builder
  .objectRef<{ plans: PurchasedPlan[]; charges: Charge[]; userErrors: UserError[] }>('PurchaseTitlePlansPayload')
  .implement({
    description: 'Result of purchaseTitlePlans.',
    fields: (t) => ({
      plans: t.expose('plans', { type: [PlanType], description: 'The plans bought; empty when the title has none.' }),
      charges: t.expose('charges', { type: [ChargeType], description: 'Charges made; none when the title has no plans.' }),
      userErrors: t.expose('userErrors', { type: [UserErrorType], description: 'Business failures; empty on success.' }),
    }),
  });

builder.mutationFields((t) => ({
  purchaseTitlePlans: t.field({
    extensions: { chargeable: true },
    type: PurchaseTitlePlansPayload,
    description: 'Buy all plans of a registered title (chargeable; no charge when it has none).',
    args: {
      fas: t.arg({ type: 'FasNumber', required: true, description: 'Charging account to bill.' }),
      input: t.arg({ type: PurchaseTitleInput, required: true, description: 'The title and idempotency key.' }),
    },
    resolve: async (_, { fas, input }, ctx) => {
      const outcome = await runChargeable(ctx, 'purchaseTitlePlans', fas, input, async (q) => {
        const bought = await ctx.register.purchasePlans(input.titleNumber, q, ctx.callOptions);
        // the register's day of issue, not ours: near midnight the two differ
        const expiresAt = expiryOfIssue(ctx.services.registerNow());
        return {
          plans: bought.plans.map((p) => ({ ...p, titleNumber: input.titleNumber, expiresAt })),
          charges: bought.charges,
        };
      });
      const { value, charges, userErrors } = chargeablePayload(outcome, (v) => v.charges);
      const expired = value?.plans[0] && expiredOnReplay(ctx, 'plans', value.plans[0].expiresAt);
      if (expired) return { plans: [], charges, userErrors: [expired] };
      return { plans: value?.plans ?? [], charges, userErrors };
    },
  }),
}));
