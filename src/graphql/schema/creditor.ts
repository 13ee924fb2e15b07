/** Creditor search: the lenders a standard security can name as its creditor applicant. */
import { callsRegister } from '../register-calls';
import { builder } from '../builder';
import { badUserInput } from '../mutations/user-errors';
import type { Creditor } from '../../register/contract/wire';
import { CreditorQuery } from '../../register/contract/wire';
import { needsScope } from '../field-scopes';

const CreditorType = builder.objectRef<Creditor>('Creditor').implement({
  description: 'A known creditor (lender) of the register: its code is what a standard security names as its creditor applicant.',
  fields: (t) => ({
    designation: t.exposeString('designation', { description: 'Name of the creditor, e.g. Santander UK plc.' }),
    creditorCode: t.exposeString('creditorCode', {
      description: 'Code to name this creditor as a standard security applicant, e.g. SANT4.',
    }),
  }),
});

builder.queryFields((t) => ({
  creditors: t.field({
    ...callsRegister(),
    ...needsScope('titles:read'),
    type: [CreditorType],
    description: 'Known creditors matching the query (3 to 20 characters, ISO-8859-1); at most 15.',
    args: { query: t.arg.string({ required: true, description: 'Part of the creditor name, 3 to 20 characters.' }) },
    resolve: (_, { query }, ctx) => {
      const parsed = CreditorQuery.safeParse({ query });
      if (!parsed.success) {
        // Refused here, so a bad query never spends a register call.
        throw badUserInput(`query ${parsed.error.issues.map((i) => i.message).join('; ')}.`, 'query');
      }
      return ctx.register.creditors(query, ctx.callOptions);
    },
  }),
}));
