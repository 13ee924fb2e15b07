/** The spending decision both backends make inside a claim's transaction: what a call is expected to charge, and whether the limits let it through. */
import type { ChargeableProduct } from '../../register/contract/money';
import type { SpendCheck, SpendRefusal } from './store';

/** What buying these products is expected to charge: list fees, less what was already charged today (never charged twice). */
export function expectedFeePence(
  products: readonly ChargeableProduct[],
  alreadyCharged: ReadonlySet<string>,
  feesPence: Readonly<Record<ChargeableProduct, number>>,
): number {
  return [...new Set(products)].filter((p) => !alreadyCharged.has(p)).reduce((sum, p) => sum + feesPence[p], 0);
}

/** Thrown inside a claim's transaction when spending refuses the call: the claim is rolled back and answers the refusal. */
export class SpendRefused extends Error {
  constructor(readonly refusal: SpendRefusal) {
    super(`spending refused the call (${refusal.reason})`);
  }
}

/**
 * The spending decision, the same for both backends, from what the claim's transaction read: the
 * products already charged and the day's totals so far (charged plus reserved). Answers what the
 * claim reserves (its expected fee); a refusal is thrown, to roll the claim back (see claimWith).
 */
export function spendReservation(
  check: SpendCheck,
  alreadyCharged: ReadonlySet<string>,
  clientSoFarPence: number,
  organisationSoFarPence: number,
  callerSoFarPence = 0,
): number {
  const expectedPence = expectedFeePence(check.products, alreadyCharged, check.feesPence);
  if (check.maxFeePence !== undefined && expectedPence > check.maxFeePence) {
    throw new SpendRefused({ reason: 'maxFee', expectedPence, maxFeePence: check.maxFeePence });
  }
  if (expectedPence === 0) return 0;
  const limits = [
    ['caller', check.callerLimitPence, callerSoFarPence],
    ['client', check.clientLimitPence, clientSoFarPence],
    ['organisation', check.organisationLimitPence, organisationSoFarPence],
  ] as const;
  for (const [reason, limitPence, soFar] of limits) {
    if (limitPence !== undefined && soFar + expectedPence > limitPence) {
      throw new SpendRefused({ reason, expectedPence, limitPence, remainingPence: Math.max(0, limitPence - soFar) });
    }
  }
  return expectedPence;
}
