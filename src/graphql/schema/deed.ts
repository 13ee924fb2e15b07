/** Deeds (service-spec 4.11): addDeedToCase — discharge, disposition or standard security. */
import { callsRegister } from '../register-calls';
import { builder } from '../builder';
import { createdPayload } from '../mutations/payloads';
import { runIdempotent } from '../mutations/run-idempotent';
import { AddDeedRequest, type DeedParty } from '../../register/contract/wire';
import { check, dottedFieldMapper, emailErrors, userErrorsOf, type FieldMapper } from '../mutations/input-rules';
import { createdPayloadType } from './payloads';
import { invalidInput, type UserError } from '../../services/user-errors';
import { needsScope } from '../field-scopes';
import type { Answered } from '../../register/client';

const WIRE_DEED_TYPE = { DISCHARGE_OF_STANDARD_SECURITY: '1', DISPOSITION: '11', STANDARD_SECURITY: '20' } as const;
type DeedTypeName = keyof typeof WIRE_DEED_TYPE;

const DeedTypeEnum = builder.enumType('DeedType', {
  description: 'The deed types a case accepts through the API.',
  values: {
    DISCHARGE_OF_STANDARD_SECURITY: { description: 'Discharge of a standard security (register deed type 1).' },
    DISPOSITION: { description: 'Disposition (register deed type 11).' },
    STANDARD_SECURITY: { description: 'Standard security (register deed type 20).' },
  } as const,
});
const SubjectExtentEnum = builder.enumType('SubjectExtent', {
  description: 'How much of the case title the deed covers.',
  values: { REGISTERED_WHOLE: { description: 'The whole of a single registered or draft title.' } } as const,
});

interface CreatedDeed {
  id: string;
  caseId: string;
  deedType: DeedTypeName;
}
const DeedType = builder.objectRef<CreatedDeed>('Deed').implement({
  description: 'A deed application added to a case.',
  fields: (t) => ({
    id: t.exposeString('id', { description: 'Id of the deed application.' }),
    caseId: t.expose('caseId', { type: 'CaseId', description: 'The case it belongs to.' }),
    deedType: t.expose('deedType', { type: DeedTypeEnum, description: 'Kind of deed.' }),
  }),
});

const DeedPartyAddressInput = builder.inputType('DeedPartyAddressInput', {
  description: 'Address of a deed party (ISO-8859-1 strings).',
  fields: (t) => ({
    name: t.string({ description: 'Building name.' }),
    number: t.int({ description: 'Street number.' }),
    street: t.string({ description: 'Street.' }),
    town: t.string({ description: 'Town or city.' }),
    postcode: t.string({ description: 'Postcode.' }),
    country: t.string({ description: 'Country.' }),
  }),
});
const DeedPartyInput = builder.inputType('DeedPartyInput', {
  description: 'A granter or applicant (a person or an organisation); ISO-8859-1 strings.',
  fields: (t) => ({
    type: t.string({ required: true, description: 'Party type, e.g. NATURAL.' }),
    prefix: t.string({ description: 'Title, e.g. Mrs.' }),
    firstName: t.string({ description: 'Forenames.' }),
    lastName: t.string({ description: 'Surname.' }),
    organisationName: t.string({ description: 'Organisation name.' }),
    organisationNumber: t.string({ description: 'Organisation (company) number.' }),
    address: t.field({ type: DeedPartyAddressInput, description: 'Address.' }),
  }),
});
const CreditorApplicantInput = builder.inputType('CreditorApplicantInput', {
  description: 'The creditor of a standard security, by its creditor code.',
  fields: (t) => ({
    creditorCode: t.string({ required: true, description: 'Creditor code from the `creditors` query, e.g. SANT4.' }),
  }),
});

const AddDeedToCaseInput = builder.inputType('AddDeedToCaseInput', {
  description: "The deed to add: one of the three deed types, over the whole of the case's single registered or draft title.",
  fields: (t) => ({
    caseId: t.field({ type: 'CaseId', required: true, description: "A case of the caller's organisation." }),
    deedType: t.field({ type: DeedTypeEnum, required: true, description: 'Kind of deed.' }),
    subjectExtent: t.field({ type: SubjectExtentEnum, required: true, description: 'Only REGISTERED_WHOLE.' }),
    securityId: t.string({ description: 'Discharges over registered titles only: the Security.id to discharge (1 to 20 characters).' }),
    mortgageNumbers: t.stringList({ description: 'Discharges over registered titles only: at most 25, each 1 to 50 characters.' }),
    notificationEmails: t.stringList({ description: 'Who is notified: at most 4 addresses, each at most 255 characters.' }),
    applicants: t.field({ type: [DeedPartyInput], description: 'Applicants (e.g. buyers of a disposition); none for a discharge.' }),
    creditorApplicant: t.field({
      type: CreditorApplicantInput,
      description: 'Standard security only: the creditor applicant, by creditor code from `creditors`.',
    }),
    granters: t.field({ type: [DeedPartyInput], description: 'Granters (e.g. sellers of a disposition).' }),
    idempotencyKey: t.string({ required: true, description: 'Client-chosen key: the same key and input never create twice.' }),
  }),
});

const AddDeedToCasePayload = createdPayloadType('addDeedToCase', 'deed', DeedType, 'The new deed; null on userErrors.');

type Nullable<T> = { [K in keyof T]?: T[K] | null };
type PartyIn = Omit<Nullable<DeedParty>, 'address'> & { address?: Nullable<NonNullable<DeedParty['address']>> | null };
const clean = <T extends object>(o: T) => Object.fromEntries(Object.entries(o).filter(([, v]) => v != null)) as T;
const party = (p: PartyIn): DeedParty => clean({ ...p, address: p.address ? clean(p.address) : undefined }) as DeedParty;

/** Rules of 4.11 that need no register state, checked here so they cost nothing upstream. */
function deedRuleErrors(input: {
  deedType: DeedTypeName;
  securityId?: string | null;
  mortgageNumbers?: readonly string[] | null;
  applicants?: readonly unknown[] | null;
  creditorApplicant?: unknown;
}): UserError[] {
  const errors: UserError[] = [];
  const fail = (field: string, message: string) => errors.push(invalidInput(['input', field], message));
  const discharge = input.deedType === 'DISCHARGE_OF_STANDARD_SECURITY';
  if (!discharge && input.securityId != null) fail('securityId', 'is only for DISCHARGE_OF_STANDARD_SECURITY.');
  if (!discharge && input.mortgageNumbers != null) fail('mortgageNumbers', 'are only for DISCHARGE_OF_STANDARD_SECURITY.');
  if (discharge && input.applicants?.length) fail('applicants', 'are not supported for a discharge.');
  if (input.deedType === 'STANDARD_SECURITY') {
    if (input.creditorApplicant == null)
      fail('creditorApplicant', 'is required: a standard security needs exactly one creditor applicant.');
    if (input.applicants?.length) fail('applicants', 'must be empty for a standard security: its one applicant is the creditorApplicant.');
  } else if (input.creditorApplicant != null) {
    fail('creditorApplicant', 'is only for STANDARD_SECURITY.');
  }
  return errors;
}

builder.mutationFields((t) => ({
  addDeedToCase: t.field({
    ...callsRegister(),
    ...needsScope('cases:write'),
    type: AddDeedToCasePayload,
    description:
      "Add a deed (discharge, disposition or standard security) to a case of the caller's organisation.\nNo `fas` here: the register bills a deed through its case, whose agent account was set by createCase.",
    args: { input: t.arg({ type: AddDeedToCaseInput, required: true, description: 'The deed.' }) },
    resolve: async (_, { input }, ctx) => {
      const creditor = input.creditorApplicant ? [{ type: 'CREDITOR' as const, creditorCode: input.creditorApplicant.creditorCode }] : [];
      const applicants = [...creditor, ...(input.applicants ?? []).map(party)];
      const body = clean({
        deedType: WIRE_DEED_TYPE[input.deedType],
        subjectExtent: input.subjectExtent,
        securityId: input.securityId,
        mortgageNumbers: input.mortgageNumbers,
        notificationEmails: input.notificationEmails,
        applicants: applicants.length ? applicants : undefined,
        granters: input.granters?.map(party),
      }) as AddDeedRequest;
      const offset = creditor.length;
      const deedField: FieldMapper = (path) => {
        const [head, index, ...rest] = path.map(String);
        // the case's titles ("subjects" on the wire) are the case's, named by the caseId the caller sent
        if (head === 'subjects') return ['input', 'caseId'];
        // the register speaks of "applicants" when the creditor is unknown: that is the creditorApplicant's code
        if (head === 'applicants' && index === undefined && offset > 0) return ['input', 'creditorApplicant', 'creditorCode'];
        if (head === 'applicants' && index !== undefined) {
          const i = Number(index);
          return i < offset ? ['input', 'creditorApplicant', ...rest] : ['input', 'applicants', String(i - offset), ...rest];
        }
        return ['input', ...(head ? [head] : []), ...(index !== undefined ? [index] : []), ...rest];
      };
      const inputErrors = [
        ...deedRuleErrors(input),
        ...userErrorsOf(check(AddDeedRequest, body), deedField),
        ...(input.notificationEmails ?? []).flatMap((e, i) => emailErrors(e, ['input', 'notificationEmails', String(i)])),
      ];
      const outcome = await runIdempotent(ctx, {
        operation: 'addDeedToCase',
        effect: { creates: 'deed' },
        idempotencyKey: input.idempotencyKey,
        input: { caseId: input.caseId, ...body },
        inputErrors,
        fieldFor: dottedFieldMapper(deedField),
        callerInput: { caseId: input.caseId },
        execute: async (): Promise<Answered<CreatedDeed>> => {
          const created = await ctx.register.addDeed(input.caseId, body, ctx.callOptions);
          return { body: { id: created.id, caseId: input.caseId, deedType: input.deedType } };
        },
      });
      return createdPayload(outcome);
    },
  }),
}));
