/** The charge journal: what a finance user reconciles with the register's invoice. */
import { builder } from '../builder';
import type { JournalRecord } from '../../storage/idempotency/store';
import { ownRows } from '../../storage/idempotency/callers';
import { ChargeType } from './charge';
import { needsScope } from '../field-scopes';

const ChargeRecordStatusEnum = builder.enumType('ChargeRecordStatus', {
  description: 'Whether the register reported the charge, the call is still at the register, or it may have charged without an answer.',
  values: {
    CHARGED: { description: 'The register reported this charge.' },
    PENDING: {
      description:
        'The call is at the register; its outcome is not known yet (the charge is null). It counts as spent until it settles where it is, in a statement too, as CHARGED or OUTCOME_UNKNOWN, or goes when nothing was charged.',
    },
    OUTCOME_UNKNOWN: {
      description:
        'The call may have reached the register and no answer came back: it may or may not have charged. Check the invoice; it is never re-sent.',
    },
  } as const,
});

export const ChargeRecordType = builder.objectRef<JournalRecord>('ChargeRecord').implement({
  description: 'One entry of the charge journal.',
  fields: (t) => ({
    status: t.field({
      type: ChargeRecordStatusEnum,
      description: 'Charged, still at the register (pending), or outcome unknown.',
      resolve: (r) => r.status,
    }),
    operation: t.exposeString('operation', { description: 'The mutation that made the call, e.g. purchaseTitleDetails.' }),
    idempotencyKey: t.exposeString('idempotencyKey', { description: 'The idempotency key of that mutation.' }),
    fas: t.expose('fas', { type: 'FasNumber', description: 'The charging account billed (or asked to be billed).' }),
    titleNumber: t.expose('titleNumber', { type: 'TitleNumber', description: 'The title the call was about.' }),
    charge: t.field({
      type: ChargeType,
      nullable: true,
      description: "The register's charge; null when the outcome is unknown.",
      resolve: (r) => r.charge,
    }),
    product: t.string({
      nullable: true,
      description:
        "The product this record is for: the charge's productType, or the product the call asked for\nwhile it is pending or its outcome is unknown (one record per product); null for records written\nbefore products were kept.",
      resolve: (r) => r.charge?.productType ?? r.product ?? null,
    }),
    recordedAt: t.field({ type: 'DateTime', description: 'When this service recorded the entry.', resolve: (r) => new Date(r.recordedAt) }),
    apiClient: t.exposeString('apiClient', { description: 'The register API client that made the call.' }),
    reference: t.exposeString('reference', {
      nullable: true,
      description: "The caller's search reference sent with the call (the matter), if any.",
    }),
    caller: t.exposeString('caller', {
      description: "Who made the call: the signed-in person's subject (the token's `sub`), or the API key's name.",
    }),
    callerName: t.exposeString('callerName', {
      nullable: true,
      description: "The signed-in person's name or e-mail as the token gives it; null for an API key.",
    }),
    callerId: t.exposeString('callerId', {
      nullable: true,
      description:
        'Who made the call, unambiguously: `key:<name>`, or `person:<provider>:<sub>` for a person of the\nidentity provider the tenants file names so (`viewer.id`); null for records written before callers\nwere principals that no caller could be found for.',
    }),
  }),
});

/** The Date scalar parses to a Date at UTC midnight; the journal is keyed by the YYYY-MM-DD text. */
export const dayOf = (day: string | Date): string => (day instanceof Date ? day.toISOString().slice(0, 10) : day);

builder.queryFields((t) => ({
  chargeRecords: t.field({
    ...needsScope('charges:read'),
    type: [ChargeRecordType],
    description:
      "The caller's journal of chargeable calls for one register day (Europe/London), oldest\nfirst: every charge the register reported, and every chargeable call whose outcome is\nunknown. Free: makes no register call. Records are kept at least 90 days.",
    args: { day: t.arg({ type: 'Date', required: true, description: 'The register day (Europe/London), YYYY-MM-DD.' }) },
    resolve: (_, { day }, ctx) =>
      ctx.services.idempotency.chargeRecords(ctx.caller.clientId, dayOf(day as string | Date), ownRows(ctx.caller)),
  }),
}));
