/**
 * The idempotency runner's own words to a caller: a call whose answer was lost (OUTCOME_UNKNOWN)
 * and a chargeable call that spend control refused before it was sent.
 */
import { formatPence } from '../../register/contract/money';
import type { SpendRefusal } from '../../storage/idempotency/store';
import type { UserError } from '../user-errors';

/**
 * What a caller is told when the answer to their call was lost, so that they can act: a title
 * product can safely be bought again on the same register day (never charged twice), a case or
 * deed must be looked for first. The day is named: the register charges again once it has
 * ended, so "buy again" is only safe until then (`sentDay`: the register day the call went out;
 * `today`: the register's day as the answer is given).
 */
export function outcomeUnknownError(
  effect: { charges: unknown } | { creates: 'case' | 'deed' },
  sentDay?: string,
  today: string = sentDay ?? '',
): UserError {
  if (!('charges' in effect)) {
    return {
      code: 'OUTCOME_UNKNOWN',
      message:
        `The request may have reached the register, but its answer was lost, so the ${effect.creates} may have been created. It is never sent ` +
        `again with this idempotencyKey: check the register for the ${effect.creates} before creating it again with a new idempotencyKey.`,
    };
  }
  const lost =
    'The request may have reached the register, but its answer was lost, so it may have been charged. It is never sent again with this ' +
    'idempotencyKey, and chargeRecords lists it for the day.';
  if (!sentDay) return { code: 'OUTCOME_UNKNOWN', message: lost };
  const advice =
    today > sentDay
      ? ` It went out on register day ${sentDay} (London time), which has ended: buying again now, with a new idempotencyKey, is charged again.`
      : ` The register never charges twice for the same title and product on the same FAS on the same register day, so buying again with a new idempotencyKey is safe until the end of ${sentDay} (London time).`;
  return { code: 'OUTCOME_UNKNOWN', message: lost + advice };
}

/**
 * A chargeable call refused by spend control: what was expected, against which limit, that
 * nothing was sent, and how much of the limit calls whose outcome is unknown hold (`heldPence`:
 * they count as spent until someone checks them against the register's invoice) and where to see them.
 */
export function spendRefusalError(refusal: SpendRefusal, day: string, heldPence = 0, nearMidnight = false): UserError {
  const expected = formatPence(refusal.expectedPence);
  if (refusal.reason === 'maxFee') {
    return {
      code: 'CHARGE_ABOVE_MAXIMUM',
      message: `This call is expected to charge ${expected} (before VAT), which is above input.maxFee ${formatPence(refusal.maxFeePence)}.${nearMidnight ? NEAR_MIDNIGHT_WORDS : ''} Nothing was sent to the register.`,
      field: ['input', 'maxFee'],
    };
  }
  const whose = { caller: 'your own', client: "your API client's", organisation: "your organisation's" }[refusal.reason];
  const where =
    refusal.reason === 'organisation'
      ? `chargeStatement(from: "${day}", to: "${day}") with an accounts key lists them for every API client of your organisation`
      : `chargeRecords(day: "${day}") lists them`;
  const held =
    heldPence > 0
      ? ` ${formatPence(heldPence)} of the limit is held by calls whose outcome is not known (their answer was lost, or they are still ` +
        `at the register): they count as spent. ${where} (status OUTCOME_UNKNOWN), to check against the register's invoice.`
      : '';
  return {
    code: 'SPEND_LIMIT_REACHED',
    message:
      `This call is expected to charge ${expected} (before VAT), but ${whose} daily spending limit of ${formatPence(refusal.limitPence)} ` +
      `has ${formatPence(refusal.remainingPence)} left for ${day}. Nothing was sent to the register.${held} The limit resets at midnight, London time.`,
  };
}

/** Why a product bought today is expected to be charged again, near the register's midnight. */
const NEAR_MIDNIGHT_WORDS =
  " The register's day is about to change or has just changed (London midnight is within the uncertainty of this service's " +
  "knowledge of the register's clock), and on the new day what was bought today is charged again.";
