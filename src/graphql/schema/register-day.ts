/**
 * The register day a free answer (chargeQuote, spending, registerUsage) is for, and how sure of
 * it this service is. Its day is the register's, read from the `Date` of its answers, never this
 * machine's: a process that has not heard the register yet asks it first, with the sign-in its
 * calls need anyway, which the register neither charges nor counts against the quota (once per
 * process). A quote for the machine's day is the very mistake a quote is there to prevent, and
 * one uncounted call is cheap beside it. When the register cannot be asked (unreachable, its
 * 429 holding) the answer is still given, on this machine's clock, and says so (MACHINE_CLOCK):
 * spending must stay readable during an outage.
 */
import { RegisterError, type RegisterDay, type RegisterDayCertainty } from '../../register/client';
import { builder } from '../builder';
import type { Context } from '../context';

const CERTAINTY_DESCRIPTIONS: Record<RegisterDayCertainty, string> = {
  EXACT: "Known: every instant this service's estimate of the register's clock allows is on this day.",
  NEAR_MIDNIGHT:
    "London midnight is within the uncertainty of this service's estimate of the register's clock (the second its Date header drops, plus the round trip of its latest answer), or, for a purchase, before the latest moment a call sent now reaches the register: the register may already be, or still be, on the other day, and a title bought on the day before is charged again on the new one.",
  MACHINE_CLOCK:
    "The register could not be asked for its clock: the day is this machine's clock, which may not be the register's. Nothing bought is taken to be free.",
};

export const RegisterDayCertaintyEnum = builder.enumType('RegisterDayCertainty', {
  description: "How sure this service is of the register's day (Europe/London) an answer is for.",
  values: Object.fromEntries(Object.entries(CERTAINTY_DESCRIPTIONS).map(([value, description]) => [value, { description }])) as Record<
    RegisterDayCertainty,
    { description: string }
  >,
});

/**
 * The register's day now, by its clock: asked first when this process has not heard it yet.
 * `forPurchase`: the day a purchase sent now would be charged on (a quote).
 */
export async function registerDayForAnswer(ctx: Context, forPurchase = false): Promise<RegisterDay> {
  try {
    await ctx.register.registerNow(ctx.callOptions.signal);
  } catch (error) {
    if (!(error instanceof RegisterError)) throw error;
  }
  return ctx.services.registerDay(forPurchase);
}
