/** The shape of the creating mutations' payloads (chargeable ones: run-chargeable.ts). */
import type { Outcome } from '../../services/idempotency/runner';
import type { UserError } from '../../services/user-errors';

/** The created object, or null with the userErrors: the shape of createCase's and addDeedToCase's payloads. */
export interface Created<T> {
  value: T | null;
  userErrors: UserError[];
}

export function createdPayload<T>(outcome: Outcome<T>): Created<T> {
  return outcome.ok ? { value: outcome.value, userErrors: [] } : { value: null, userErrors: outcome.userErrors };
}
