/**
 * A mutation run at most once per idempotency key, from GraphQL: the idempotency service
 * (src/services/idempotency/runner.ts) gets the request's caller, register client and signal,
 * the charges it reports go into the answer, and a call it proves was not carried out becomes
 * the top-level error that says so, with the same key to send again.
 */
import { type IdempotentRun, NotCarriedOut, type Outcome, type RunRequest } from '../../services/idempotency/runner';
import type { Context } from '../context';
import { graphQLErrorFromRegister } from '../errors';

/** Runs `run` at most once per (tenant, idempotencyKey) and reports what happened. */
export async function runIdempotent<T>(ctx: Context, run: IdempotentRun<T>): Promise<Outcome<T>> {
  const request: RunRequest = {
    caller: ctx.caller,
    register: ctx.register,
    signal: ctx.callOptions.signal,
    charged: (charges) => ctx.chargesMade.push({ operation: run.operation, idempotencyKey: run.idempotencyKey, charges }),
  };
  try {
    return await ctx.services.idempotentRunner.run(request, run);
  } catch (error) {
    if (error instanceof NotCarriedOut) throw graphQLErrorFromRegister(error.registerError, { notCarriedOut: true });
    throw error;
  }
}
