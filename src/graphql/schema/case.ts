/** Cases (service-spec 4.10): createCase over one registered title. */
import { callsRegister } from '../register-calls';
import { builder } from '../builder';
import { createdPayload } from '../mutations/payloads';
import { runIdempotent } from '../mutations/run-idempotent';
import { CreateCaseRequest } from '../../register/contract/wire';
import { check, dottedFieldMapper, emailErrors, userErrorsOf, type FieldMapper } from '../mutations/input-rules';
import { createdPayloadType } from './payloads';
import { needsScope } from '../field-scopes';
import type { Answered } from '../../register/client';

interface CreatedCase {
  id: string;
  reference: string;
  titleNumbers: string[];
}

const CaseType = builder.objectRef<CreatedCase>('Case').implement({
  description: 'A case (application record) at the register, to which deeds are added.',
  fields: (t) => ({
    id: t.expose('id', { type: 'CaseId', description: 'Case id issued by the register.' }),
    reference: t.exposeString('reference', { description: "The caller's case reference." }),
    titleNumbers: t.field({ type: ['TitleNumber'], description: 'The titles the case is over.', resolve: (c) => c.titleNumbers }),
  }),
});

const CreateCaseInput = builder.inputType('CreateCaseInput', {
  description: 'A new case: reference, agent contact details and its title.',
  fields: (t) => ({
    reference: t.string({ required: true, description: 'At most 50 characters, ISO-8859-1.' }),
    contactEmail: t.string({ required: true, description: "The agent's contact e-mail, ISO-8859-1." }),
    contactTelephone: t.string({ required: true, description: "The agent's contact telephone, ISO-8859-1." }),
    titleNumbers: t.field({ type: ['TitleNumber'], required: true, description: 'Exactly one registered title at present.' }),
    idempotencyKey: t.string({ required: true, description: 'Client-chosen key: the same key and input never create twice.' }),
  }),
});

const CreateCasePayload = createdPayloadType('createCase', 'case', CaseType, 'The new case; null on userErrors.');

/** Wire body paths → GraphQL argument paths. */
const caseField: FieldMapper = (path) => {
  const [head, sub, ...rest] = path.map(String);
  if (head === 'agent') return sub === 'fas' ? ['fas'] : ['input', ...(sub ? [sub] : []), ...rest];
  if (head === 'subjects') return ['input', 'titleNumbers', ...(sub ? [sub] : [])];
  return ['input', ...(head ? [head] : []), ...(sub ? [sub] : []), ...rest];
};

builder.mutationFields((t) => ({
  createCase: t.field({
    ...callsRegister(),
    ...needsScope('cases:write'),
    type: CreateCasePayload,
    description: "Create a case over one registered title; `fas` becomes the agent's charging account.",
    args: {
      fas: t.arg({ type: 'FasNumber', required: true, description: "The organisation's case (agent) charging account." }),
      input: t.arg({ type: CreateCaseInput, required: true, description: 'The case.' }),
    },
    resolve: async (_, { fas, input }, ctx) => {
      const body = {
        reference: input.reference,
        agent: { fas, contactEmail: input.contactEmail, contactTelephone: input.contactTelephone },
        subjects: input.titleNumbers.map((titleNumber) => ({ type: 'REGISTERED' as const, titleNumber })),
      };
      const inputErrors = [
        ...userErrorsOf(check(CreateCaseRequest, body), caseField),
        ...emailErrors(input.contactEmail, ['input', 'contactEmail']),
      ];
      const outcome = await runIdempotent(ctx, {
        operation: 'createCase',
        effect: { creates: 'case' },
        idempotencyKey: input.idempotencyKey,
        input: body,
        inputErrors,
        fieldFor: dottedFieldMapper(caseField),
        callerInput: {
          fas,
          ...(input.titleNumbers[0] !== undefined ? { titleNumber: input.titleNumbers[0] } : {}),
          // the register names the case's one title without a field
          fieldsByCode: { TITLE_NOT_FOUND: ['input', 'titleNumbers', '0'], TITLE_STATUS_NOT_SUPPORTED: ['input', 'titleNumbers', '0'] },
        },
        execute: async (): Promise<Answered<CreatedCase>> => {
          const created = await ctx.register.createCase(body, ctx.callOptions);
          return { body: { id: created.id, reference: input.reference, titleNumbers: input.titleNumbers } };
        },
      });
      return createdPayload(outcome);
    },
  }),
}));
