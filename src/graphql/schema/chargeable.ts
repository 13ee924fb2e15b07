/** The fields every chargeable payload shares: the charges the call made, and its userErrors. */
import type { BuilderTypes } from '../builder';
import type { ChargeableResult } from '../mutations/run-chargeable';
import { ChargeType } from './charge';
import { UserErrorType } from './user-error';

export function chargeableFields<T>(
  t: PothosSchemaTypes.ObjectFieldBuilder<PothosSchemaTypes.ExtendDefaultTypes<BuilderTypes>, ChargeableResult<T>>,
  chargesDescription = 'Charges made by this call.',
) {
  return {
    charges: t.field({ type: [ChargeType], description: chargesDescription, resolve: (p) => p.charges }),
    userErrors: t.field({ type: [UserErrorType], description: 'Business failures; empty on success.', resolve: (p) => p.userErrors }),
  };
}
