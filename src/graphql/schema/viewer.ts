/** Who the service takes the caller to be: a person signed in at their identity provider, an API key, or a router. */
import { builder } from '../builder';
import type { CallerKind, Caller } from '../../services/callers';
import { forAnyCaller } from '../field-scopes';

const CallerKindEnum = builder.enumType('CallerKind', {
  description: 'How the caller proved who it is.',
  values: {
    PERSON: { description: "A person signed in at the organisation's identity provider (an OAuth 2.0 JWT access token)." },
    API_KEY: { description: 'An API key from the tenants file.' },
    ROUTER: { description: "A federation router's key: reads the schema only." },
  } satisfies Record<CallerKind, { description: string }>,
});

const ViewerType = builder.objectRef<Caller>('Viewer').implement({
  description: 'The caller as the service sees it: who, through which register API client, and what it may do.',
  fields: (t) => ({
    kind: t.field({ type: CallerKindEnum, description: 'How the caller proved who it is.', resolve: (v) => v.kind }),
    id: t.exposeString('id', {
      description:
        'The caller, unambiguously: `key:<name>` for an API key, `person:<provider>:<sub>` for a person\n(`sub` is unique only at its provider), `router:<name>` for a router. Journal records, statements\nand spending belong to it.',
    }),
    provider: t.exposeString('provider', {
      description: "Who vouches for the caller: the identity provider's name in the tenants file, or `keys` for an API key.",
    }),
    subject: t.exposeString('subject', { description: "The person's subject (`sub`) at that provider, or the API key's name." }),
    caller: t.exposeString('subject', { description: "The person's subject (`sub`), or the API key's name." }),
    callerName: t.exposeString('name', {
      nullable: true,
      description: "The person's name or e-mail as the token gives it; null for a key.",
    }),
    apiClient: t.string({
      nullable: true,
      description: 'The register API client that calls are made with; null for a router.',
      resolve: (v) => (v.router ? null : v.clientId),
    }),
    organisation: t.string({
      nullable: true,
      description: 'The register organisation; null for a router.',
      resolve: (v) => (v.router ? null : v.organisation),
    }),
    scopes: t.stringList({
      description: 'What the caller may do, e.g. titles:read, titles:buy, cases:write, charges:read,\ncharges:organisation.',
      resolve: (v) => [...v.scopes],
    }),
  }),
});

builder.queryFields((t) => ({
  viewer: t.field({
    ...forAnyCaller(),
    type: ViewerType,
    description: 'Who the service takes the caller to be and what it may do. Free: makes no register call.',
    resolve: (_, __, ctx) => ctx.caller,
  }),
}));
