/**
 * What every chargeable mutation shares: the field (billed to `fas`, one register call, marked
 * chargeable), run through runChargeable, and its payload (what the call returned, its charges and
 * userErrors).
 */
import type { InputObjectRef, ObjectFieldsShape } from '@pothos/core';
import { DirectiveLocation, GraphQLDirective } from 'graphql';
import type { Charge } from '../../register/contract/wire';
import type { FileKind } from '../../services/downloads/links';
import type { Context } from '../context';
import { type BuilderTypes, builder } from '../builder';
import { type ChargeableCall, type ChargeableResult, type PurchaseTitleInputShape, runChargeable } from '../mutations/run-chargeable';
import { callsRegister } from '../register-calls';
import { ChargeType, PurchaseTitleInput } from './charge';
import { withoutExpiredFiles } from './download-links';
import { mutationPayload } from './payloads';
import { needsScope } from '../field-scopes';

type Types = PothosSchemaTypes.ExtendDefaultTypes<BuilderTypes>;

/**
 * `@chargeable` on every chargeable mutation field. A gateway splits a mutation into one
 * subgraph request per root field, so titlegraph never sees a purchase's siblings: the marker is
 * linked as its own spec and named in `@composeDirective`, so composition carries it into the
 * supergraph, where a gateway's rule (src/security/gateway-rules.ts) finds it.
 */
export const CHARGEABLE_DIRECTIVE = new GraphQLDirective({
  name: 'chargeable',
  description: 'This mutation charges a register account: send it alone in its operation, and never under @defer.',
  locations: [DirectiveLocation.FIELD_DEFINITION],
});
/** The spec `@chargeable` is imported from; composition wants a name and a version in the URL. */
export const CHARGEABLE_SPEC_URL = 'https://specs.titlegraph.example/chargeable/v1.0';

/** One chargeable mutation, as its domain file declares it. */
interface ChargeableMutation<I extends PurchaseTitleInputShape, T> {
  description: string;
  /** The `input` argument; PurchaseTitleInput (a title to buy) when absent. */
  input?: { type: InputObjectRef<Types, I>; description: string };
  /** What the call may charge and how it is made, from the caller's input. */
  charge: (input: I, ctx: Context) => Omit<ChargeableCall<T>, 'operation' | 'fas' | 'input'>;
  /**
   * For a call that yields files valid until the end of their day: a replay after that answers
   * DOCUMENT_EXPIRED instead of a dead link, the charges still shown.
   */
  files?: { kind: FileKind; expiresAt: (value: T) => string | undefined };
  /** The payload's fields for what the call returned (null or empty on userErrors); its charges and userErrors follow. */
  answer: ObjectFieldsShape<Types, ChargeableResult<T>>;
  /** How the payload describes its charges, when there is more to say than that the call made them. */
  charges?: string;
}

/** The `input` of a mutation that names no other: a title to buy. */
const TITLE_PURCHASE = { type: PurchaseTitleInput, description: 'The title and idempotency key.' };

/** Adds the chargeable mutation `operation` (the field and the journal's operation share the name). */
export function chargeableMutation<T extends { charges: readonly Charge[] }, I extends PurchaseTitleInputShape = PurchaseTitleInputShape>(
  operation: string,
  mutation: ChargeableMutation<I, T>,
): void {
  // Absent only where I is its default, the shape of PurchaseTitleInput.
  const inputArg = mutation.input ?? (TITLE_PURCHASE as unknown as NonNullable<ChargeableMutation<I, T>['input']>);
  const payload = mutationPayload<ChargeableResult<T>>(operation, (t) => ({
    ...mutation.answer(t),
    charges: t.field({ type: [ChargeType], description: mutation.charges ?? 'Charges made by this call.', resolve: (p) => p.charges }),
  }));
  builder.mutationField(operation, (t) =>
    t.field({
      ...callsRegister(),
      ...needsScope('titles:buy'),
      extensions: { chargeable: true },
      directives: { chargeable: {} },
      type: payload,
      description: mutation.description,
      args: {
        fas: t.arg({ type: 'FasNumber', required: true, description: 'Charging account to bill.' }),
        input: t.arg({ type: inputArg.type, required: true, description: inputArg.description }),
      },
      resolve: async (_, args, ctx) => {
        // Pothos cannot work out the arguments' type for an input type that is itself a parameter.
        const { fas, input } = args as unknown as { fas: string; input: I };
        const result = await runChargeable(ctx, { operation, fas, input, ...mutation.charge(input, ctx) });
        const { files } = mutation;
        return files && result.value ? withoutExpiredFiles(ctx, files.kind, result, files.expiresAt(result.value)) : result;
      },
    }),
  );
}
