/** What every mutation payload carries besides its own object: `userErrors`, and `charges` where the call charges. */
import type { Charge } from '../../register/contract/wire';
import type { Outcome } from './run-idempotent';
import type { UserError } from './user-errors';

/** The charges and userErrors every chargeable payload carries. */
export function chargeablePayload<T>(outcome: Outcome<T>, charges: (value: T) => Charge[]) {
  return outcome.ok
    ? { value: outcome.value, charges: charges(outcome.value), userErrors: [] as UserError[] }
    : { value: null, charges: [] as Charge[], userErrors: outcome.userErrors };
}

/** The created object, or null with the userErrors: the shape of createCase's and addDeedToCase's payloads. */
export function createdPayload<T>(outcome: Outcome<T>): { value: T | null; userErrors: UserError[] } {
  return outcome.ok ? { value: outcome.value, userErrors: [] } : { value: null, userErrors: outcome.userErrors };
}
