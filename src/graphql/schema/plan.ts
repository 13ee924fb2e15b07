/** Purchased plans (service-spec 2.9, 4.6, 4.7): purchaseTitlePlans and the Plan type. */
import { builder } from '../builder';
import type { Charge, Plan as WirePlan } from '../../register/contract/wire';
import { chargeableMutation } from './chargeable';
import { downloadFields, expiryOfIssue } from './download-links';
import type { Answered } from '../../register/client';

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
    ...downloadFields(t, {
      kind: 'plans',
      idOf: (p) => p.planId,
      linkDescription:
        'Absolute link that streams the PDF with a plain GET (no Authorization header): signed for the API client that bought the plan, valid for 15 minutes and never past expiresAt. Replay the purchase for a fresh one; after expiresAt the plans must be bought again with a new idempotency key.',
    }),
  }),
});

interface BoughtPlans {
  plans: PurchasedPlan[];
  charges: Charge[];
}

chargeableMutation('purchaseTitlePlans', {
  description: 'Buy all plans of a registered title (chargeable; no charge when it has none).',
  charge: (input, ctx) => ({
    products: ['TITLE_DATA_AND_PLANS'],
    call: async (q): Promise<Answered<BoughtPlans>> => {
      const answered = await ctx.register.purchasePlans(input.titleNumber, q, ctx.callOptions);
      const bought = answered.body;
      // the register's day of issue, not ours: near midnight the two differ
      const expiresAt = expiryOfIssue(ctx.services.registerNow());
      const plans = bought.plans.map((p) => ({ ...p, titleNumber: input.titleNumber, expiresAt }));
      return { ...answered, body: { plans, charges: bought.charges } };
    },
  }),
  files: { kind: 'plans', expiresAt: (bought) => bought.plans[0]?.expiresAt },
  answer: (t) => ({
    plans: t.field({
      type: [PlanType],
      description: 'The plans bought; empty when the title has none.',
      resolve: (p) => p.value?.plans ?? [],
    }),
  }),
  charges: 'Charges made; none when the title has no plans.',
});
