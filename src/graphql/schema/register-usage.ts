/** The caller's use of the register's daily quota, as counted by this service. */
import { builder } from '../builder';
import type { QuotaUsage } from '../../services/quota';
import { forAnyCaller } from '../field-scopes';
import type { RegisterDayCertainty } from '../../register/client';
import { RegisterDayCertaintyEnum, registerDayForAnswer } from './register-day';

const RegisterUsageType = builder.objectRef<QuotaUsage & { dayCertainty: RegisterDayCertainty }>('RegisterUsage').implement({
  description:
    "Register calls made today (register day, Europe/London) for the caller's organisation, all its API clients and all replicas together, as counted by this service. The register allows 2,000 calls per organisation per day.",
  fields: (t) => ({
    day: t.field({ type: 'Date', description: 'The register day counted.', resolve: (u) => u.day }),
    dayCertainty: t.expose('dayCertainty', {
      type: RegisterDayCertaintyEnum,
      description: "Whether `day` is known to be the register's day now (see RegisterDayCertainty).",
    }),
    calls: t.exposeInt('calls', { description: "Register calls of the caller's organisation that day (token fetches excluded)." }),
    leased: t.int({
      resolve: (u) => u.leased ?? 0,
      description:
        "Of `calls`, those counted ahead in leases other replicas hold now (a replica takes a block of free reads from the shared count in one write and gives back what it does not use; this replica's own are given back before it answers): at most this many of `calls` are not made yet.",
    }),
    blockedUntil: t.field({
      type: 'DateTime',
      nullable: true,
      description:
        "Set while every register call of the organisation is refused here with RATE_LIMITED, without reaching the register: after the register answered 429 (until its Retry-After), or once the day's calls are used up (until midnight, London time). Null while calls are admitted.",
      resolve: (u) => u.blockedUntil,
    }),
    freeReadsBlockedUntil: t.field({
      type: 'DateTime',
      nullable: true,
      description:
        "Set while free reads (register calls that charge and create nothing) are refused here with RATE_LIMITED: once they have used their share of the day's calls (REGISTER_FREE_SHARE; the rest is kept for purchases, orders, cases and deeds), until midnight, London time; and whenever blockedUntil is set. Null while free reads are admitted.",
      resolve: (u) => u.freeReadsBlockedUntil,
    }),
  }),
});

builder.queryFields((t) => ({
  registerUsage: t.field({
    ...forAnyCaller(),
    type: RegisterUsageType,
    description:
      "The register quota use of the caller's organisation today (free: counts no register call; a process that has not heard the register yet asks its clock first, with an uncounted sign-in).",
    resolve: async (_, __, ctx) => {
      const registerDay = await registerDayForAnswer(ctx);
      const usage = await ctx.services.quota.usage(ctx.caller.organisation, registerDay.at);
      return { ...usage, dayCertainty: registerDay.certainty };
    },
  }),
}));
