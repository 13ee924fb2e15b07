/** Controlled reference lists (service-spec 2.14), served from the process-wide revalidating cache. */
import { callsRegister } from '../register-calls';
import { builder } from '../builder';
import type { DetailedList, DetailedListItem } from '../../register/contract/wire';
import { needsScope } from '../field-scopes';

interface ReferenceListModel {
  path: string;
  list: DetailedList;
}

const ReferenceListItemType = builder.objectRef<DetailedListItem>('ReferenceListItem').implement({
  description: 'One value of a reference list.',
  fields: (t) => ({
    label: t.exposeString('label', { description: 'Human label.' }),
    value: t.expose('value', { type: 'ReferenceValue', description: 'The value, a string or a number as the register gives it.' }),
    description: t.exposeString('description', { nullable: true, description: 'Longer explanation, when given.' }),
    active: t.boolean({
      description: 'False for retired values, which the basic and ordered representations leave out.',
      resolve: (item) => item.active ?? true,
    }),
    metadata: t.field({
      type: 'JSONObject',
      nullable: true,
      description: 'List-specific metadata, never constrained by the register.',
      resolve: (item) => item.metadata,
    }),
  }),
});

const ReferenceListType = builder.objectRef<ReferenceListModel>('ReferenceList').implement({
  description: 'A controlled list of values, e.g. the deed types a case accepts.',
  fields: (t) => ({
    path: t.exposeString('path', { description: 'List path, e.g. lr/application/deed/type.' }),
    name: t.string({ description: 'Name of the list.', resolve: (m) => m.list.metadata.name }),
    description: t.string({ description: 'What the list holds.', resolve: (m) => m.list.metadata.description }),
    items: t.field({
      type: [ReferenceListItemType],
      description: "Detailed representation, in the maintainer's order. Inactive items only when asked.",
      args: {
        includeInactive: t.arg.boolean({
          defaultValue: false,
          required: false,
          description: 'Also return retired (inactive) items.',
        }),
      },
      resolve: (m, { includeInactive }) => (includeInactive ? m.list.items : m.list.items.filter((item) => item.active !== false)),
    }),
  }),
});

builder.queryFields((t) => ({
  referenceListPaths: t.stringList({
    ...callsRegister(),
    ...needsScope('titles:read'),
    description: 'Every reference-list path that the register offers, e.g. lr/application/deed/type.',
    resolve: (_, __, ctx) => ctx.services.referenceLists.paths(ctx.register, ctx.callOptions),
  }),
  referenceList: t.field({
    ...callsRegister(),
    ...needsScope('titles:read'),
    type: ReferenceListType,
    nullable: true,
    description: 'One reference list; null for a path that discovery did not return.',
    args: { path: t.arg.string({ required: true, description: 'List path, e.g. lr/application/deed/type.' }) },
    resolve: async (_, { path }, ctx) => {
      const list = await ctx.services.referenceLists.detailed(ctx.register, path, ctx.callOptions);
      return list ? { path, list } : null;
    },
  }),
}));
