/**
 * When the register answered a call that charges, by its own clock: the `Date` header at the
 * start of its answer, read with the status and headers, before the body. The register charges
 * as it answers, so that is the register day of the charge. The body may end after the
 * register's midnight, and this machine's clock may say another day: neither may move the charge.
 *
 * The charge journal (graphql/mutations/run-idempotent.ts) runs its register call inside
 * `watchChargeAnswers` and reads the time there after the call, whether it succeeded, failed or
 * its answer was lost. Carried in the call's async context rather than through every method's
 * options: the mutations call the client with the request's own options, shared by all its calls.
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface ChargeAnswers {
  /** The register's `Date` at the start of the latest answer to a charging call; unset while none has begun. */
  answeredAt?: Date;
}

const watched = new AsyncLocalStorage<ChargeAnswers>();

/** Runs `call`, noting when the register began to answer each charging call it makes. */
export function watchChargeAnswers<T>(call: () => Promise<T>): { answers: ChargeAnswers; result: Promise<T> } {
  const answers: ChargeAnswers = {};
  return { answers, result: watched.run(answers, call) };
}

/** @internal The exchange: the register began to answer a charging call at `at`, by its clock. */
export function noteChargeAnswer(at: Date): void {
  const answers = watched.getStore();
  if (answers) answers.answeredAt = at;
}
