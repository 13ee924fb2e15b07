/** Titles: the summary (free, any status) as the `Title` entity, and the `title`/`titles` queries. */
import type { FieldNode, GraphQLResolveInfo } from 'graphql';
import { builder, type BuilderTypes } from '../builder';
import { callsRegister } from '../register-calls';
import { fieldsOf, fragmentsIn } from '../selections';
import { LIMITS } from '../../register/contract/rules';
import type { Context } from '../context';
import { badUserInput } from '../mutations/user-errors';
import type { TitleSummary } from '../../register/contract/wire';
import { AddressType, CodeLabelType, ConsiderationEntryType } from './common';
import { NodeInterface, titleGlobalId, titleNumberOfGlobalId } from './node';
import { needsScope } from '../field-scopes';

export const TitleStatusEnum = builder.enumType('TitleStatus', {
  description: 'Status of a title in the register.',
  values: {
    REGISTERED: { description: 'A registered title: full information available.' },
    DRAFT: { description: 'A draft title: reduced summary, pending applications, no securities.' },
    CLOSED: { description: 'A closed title: reduced summary only.' },
    CANCELLED: { description: 'A cancelled title: reduced summary only.' },
    AMALGAMATED: { description: 'A title amalgamated into another: reduced summary only.' },
    ABSORBED: { description: 'A title absorbed into another: reduced summary only.' },
  } as const,
});

/** What the summary and the title sheet both say of the right registered (section A). */
export function rightFields<T extends { type?: string; description?: string }>(
  t: PothosSchemaTypes.ObjectFieldBuilder<PothosSchemaTypes.ExtendDefaultTypes<BuilderTypes>, T>,
) {
  return {
    type: t.string({ nullable: true, description: 'Kind of right, e.g. OWNERSHIP.', resolve: (r) => r.type }),
    description: t.string({ nullable: true, description: 'Description of the subjects.', resolve: (r) => r.description }),
  };
}

type WireRight = NonNullable<TitleSummary['right']>;
const TitleRightType = builder.objectRef<WireRight>('TitleRight').implement({
  description: 'The right registered (section A of the title sheet), as summarised.',
  fields: (t) => ({
    ...rightFields(t),
    addresses: t.field({
      type: [AddressType],
      description: 'Postal addresses of the subjects.',
      resolve: (right) => right.addresses ?? [],
    }),
  }),
});

const ProprietorshipType = builder.objectRef<NonNullable<TitleSummary['proprietorships']>[number]>('Proprietorship').implement({
  description: 'A proprietorship entry (section B), as summarised.',
  fields: (t) => ({
    considerationEntries: t.field({
      type: [ConsiderationEntryType],
      description: 'Consideration paid, with dates of entry and registration.',
      resolve: (p) => p.considerationEntries,
    }),
  }),
});

const PlanSummaryType = builder.objectRef<NonNullable<TitleSummary['plans']>[number]>('PlanSummary').implement({
  description: 'A plan held for the title (buy plans with purchaseTitlePlans to download them).',
  fields: (t) => ({
    type: t.exposeString('type', { nullable: true, description: 'Plan kind, e.g. PLAN.' }),
    paperSize: t.exposeInt('paperSize', { nullable: true, description: 'Paper size (A-series number, e.g. 4 for A4).' }),
    description: t.exposeString('description', { nullable: true, description: 'What the plan shows.' }),
    lastUpdated: t.expose('lastUpdated', { type: 'Date', nullable: true, description: 'When the plan last changed.' }),
  }),
});

const ApplicationSummaryType = builder.objectRef<NonNullable<TitleSummary['applications']>[number]>('ApplicationSummary').implement({
  description: 'An application or advance notice on the title, as summarised.',
  fields: (t) => ({
    applicationNumber: t.exposeString('applicationNumber', { description: 'Application number.' }),
    applicationDate: t.expose('applicationDate', { type: 'Date', nullable: true, description: 'Date lodged.' }),
    type: t.expose('type', { type: CodeLabelType, nullable: true, description: 'Application type, e.g. AN.' }),
  }),
});

/** What the summary and the details of a title both start with. */
interface TitleHeading {
  titleNumber: string;
  status: TitleSummary['status'];
  titleType?: string;
  searchSheet?: string;
  date?: { titleSheetUpdatedTo?: string };
}

/** The heading fields shared by `Title` and `TitleDetails`. */
export function titleHeadingFields<T extends TitleHeading>(
  t: PothosSchemaTypes.ObjectFieldBuilder<PothosSchemaTypes.ExtendDefaultTypes<BuilderTypes>, T>,
) {
  return {
    titleNumber: t.field({ type: 'TitleNumber', description: 'The title number, e.g. MID15313.', resolve: (h) => h.titleNumber }),
    status: t.field({ type: TitleStatusEnum, description: 'Status of the title.', resolve: (h) => h.status }),
    titleType: t.string({ nullable: true, description: 'Kind of title.', resolve: (h) => h.titleType }),
    searchSheet: t.string({ nullable: true, description: 'Search sheet reference.', resolve: (h) => h.searchSheet }),
    titleSheetUpdatedTo: t.field({
      type: 'Date',
      nullable: true,
      description: 'The date the title sheet is updated to.',
      resolve: (h) => h.date?.titleSheetUpdatedTo,
    }),
  };
}

export const TitleType = builder.objectRef<TitleSummary>('Title').implement({
  // Each Title resolved is a summary call, wherever it is reached from (another subgraph's
  // reference included): the router prices the entity path by this.
  ...callsRegister(),
  // Also on the type, so a router asks it of another subgraph's Title references (`_entities`).
  ...needsScope('titles:read'),
  description:
    'A title in the land register, from its free summary. Non-registered titles carry reduced content. A federation entity keyed by titleNumber.',
  interfaces: [NodeInterface],
  isTypeOf: (value) => typeof value === 'object' && value !== null && 'titleNumber' in value,
  fields: (t) => ({
    id: t.id({
      description: 'Global id (Relay); `node(id:)` refetches the title by it. The federation key stays titleNumber.',
      resolve: (s) => titleGlobalId(s.titleNumber),
    }),
    ...titleHeadingFields(t),
    right: t.expose('right', { type: TitleRightType, nullable: true, description: 'The right registered.' }),
    proprietorships: t.field({
      type: [ProprietorshipType],
      description: 'Proprietorships with their consideration entries.',
      resolve: (s) => s.proprietorships ?? [],
    }),
    plans: t.field({
      type: [PlanSummaryType],
      description: 'Plans held for the title.',
      resolve: (s) => s.plans ?? [],
    }),
    applications: t.field({
      type: [ApplicationSummaryType],
      description: 'Applications and advance notices on the title.',
      resolve: (s) => s.applications ?? [],
    }),
  }),
});

builder.asEntity(TitleType, {
  key: builder.selection<{ titleNumber: string }>('titleNumber'),
  resolveReference: (ref, ctx) => ctx.loaders.titleSummary.load(ref.titleNumber),
});

/**
 * Whether each field node selects `securities` on its result (fragments included), worked out
 * once per node: a node belongs to one parsed document (Yoga hands back the same document for
 * the same text), whose fragments never change, so neither does the answer. Walked on every
 * request, it was a few µs of each `title`.
 */
const selectsSecurities = new WeakMap<FieldNode, boolean>();
function securitiesSelected(info: GraphQLResolveInfo): boolean {
  return info.fieldNodes.some((node) => {
    let selected = selectsSecurities.get(node);
    if (selected === undefined) {
      selected = false;
      for (const { field } of fieldsOf(node.selectionSet, fragmentsIn(info.fragments)))
        if (field.name.value === 'securities') selected = true;
      selectsSecurities.set(node, selected);
    }
    return selected;
  });
}

/**
 * When securities are selected, their listing is fetched alongside the summary instead of after
 * it: one round of register calls instead of two. The price is a call for the rare title whose
 * status turns out not to list securities (draft, closed, cancelled, amalgamated).
 */
function prefetchSecurities(ctx: Context, info: GraphQLResolveInfo, titleNumbers: readonly string[]): void {
  if (!ctx.services.prefetchSecurities || !securitiesSelected(info)) return;
  // Awaited (or not) by Title.securities; a failure surfaces there, never as an unhandled rejection.
  for (const n of titleNumbers) ctx.loaders.securities.load(n).catch(() => undefined);
}

builder.queryFields((t) => ({
  node: t.field({
    ...callsRegister(),
    ...needsScope('titles:read'),
    type: NodeInterface,
    nullable: true,
    description:
      'Refetch an object by its global id (Relay object identification). Null when the id is\nmalformed, names an unknown type, or the object does not exist.',
    args: { id: t.arg.id({ required: true, description: 'A global id, as `id` gave it.' }) },
    resolve: (_, { id }, ctx, info) => {
      const titleNumber = titleNumberOfGlobalId(String(id));
      if (!titleNumber) return null;
      prefetchSecurities(ctx, info, [titleNumber]);
      return ctx.loaders.titleSummary.load(titleNumber);
    },
  }),
  title: t.field({
    ...needsScope('titles:read'),
    type: TitleType,
    nullable: true,
    description: 'Title summary (free). Null when the register has no such title.',
    args: { titleNumber: t.arg({ type: 'TitleNumber', required: true, description: 'The title number.' }) },
    resolve: (_, { titleNumber }, ctx, info) => {
      prefetchSecurities(ctx, info, [titleNumber]);
      return ctx.loaders.titleSummary.load(titleNumber);
    },
  }),
  titles: t.field({
    ...needsScope('titles:read'),
    // A router cannot count a list argument's items: it assumes the most a request may ask for.
    listSize: { assumedSize: LIMITS.titlesPerRequest.max, requireOneSlicingArgument: false },
    // The service itself counts the items asked for (security/cost.ts).
    extensions: { pricedPerItemOf: 'titleNumbers' },
    type: [TitleType],
    nullable: { list: false, items: true },
    description:
      'Several title summaries in one request, same order as asked; null for unknown titles.\nUpstream calls are de-duplicated and run concurrently under a bound. At most 100 numbers.',
    args: {
      titleNumbers: t.arg({
        type: ['TitleNumber'],
        required: true,
        description: `Title numbers, at most ${LIMITS.titlesPerRequest.max}.`,
      }),
    },
    resolve: (_, { titleNumbers }, ctx, info) => {
      if (titleNumbers.length > LIMITS.titlesPerRequest.max) {
        throw badUserInput(
          `titleNumbers must have at most ${LIMITS.titlesPerRequest.max} items (got ${titleNumbers.length}).`,
          'titleNumbers',
        );
      }
      prefetchSecurities(ctx, info, titleNumbers);
      // Each item resolves on its own, so one failing title is a null plus an error, not a failed list.
      return titleNumbers.map((n) => ctx.loaders.titleSummary.load(n));
    },
  }),
}));
