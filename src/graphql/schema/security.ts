/** Registered securities of a title (free listing, service-spec 4.8), loaded only when selected. */
import { callsRegister } from '../register-calls';
import { builder } from '../builder';
import type { TitleSecurity } from '../../register/contract/wire';
import { TitleType } from './title';

export const SecurityType = builder.objectRef<TitleSecurity>('Security').implement({
  description: 'A registered security as listed for a title; `id` is what a discharge names.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'Opaque security id; pass it as securityId to discharge it.' }),
    applicationType: t.exposeString('applicationType', { nullable: true, description: 'How it was applied for, e.g. PAPER.' }),
    specification: t.exposeString('specification', { nullable: true, description: 'Specification of the security.' }),
    dateOfRegistration: t.expose('dateOfRegistration', {
      type: 'Date',
      nullable: true,
      description: 'Date of registration.',
    }),
    source: t.exposeString('source', { nullable: true, description: 'Where it is recorded, e.g. TITLE.' }),
  }),
});

/** The register does not list securities of these titles: answer null without spending a call. */
const NOT_LISTED = new Set(['CLOSED', 'CANCELLED', 'AMALGAMATED']);

builder.objectField(TitleType, 'securities', (t) =>
  t.field({
    ...callsRegister(),
    type: [SecurityType],
    nullable: true,
    description:
      'Registered securities (a free listing). Null for closed, cancelled and\namalgamated titles; an empty list for drafts. Loaded only when selected, batched per request.',
    resolve: async (title, _, ctx) => {
      if (NOT_LISTED.has(title.status)) return null;
      if (title.status === 'DRAFT') return [];
      const listing = await ctx.loaders.securities.load(title.titleNumber);
      return listing?.securities ?? null;
    },
  }),
);
