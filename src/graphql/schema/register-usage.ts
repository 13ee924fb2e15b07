/** The caller's use of the register's daily quota, as counted by this service. */
import { builder } from '../builder';
import type { QuotaUsage } from '../../services/quota';
import { forAnyCaller } from '../scopes';

const RegisterUsageType = builder.objectRef<QuotaUsage>('RegisterUsage').implement({
  description:
    "Register calls made today (register day, Europe/London) for the caller's organisation, all its API clients and all replicas together, as counted by this service. The register allows 2,000 calls per organisation per day.",
  fields: (t) => ({
    day: t.field({ type: 'Date', description: 'The register day counted.', resolve: (u) => u.day }),
    calls: t.exposeInt('calls', { description: "Register calls of the caller's organisation that day (token fetches excluded)." }),
    blockedUntil: t.field({
      type: 'DateTime',
      nullable: true,
      description:
        'Set after the register answered 429: until then calls are refused here with RATE_LIMITED, without reaching the register.',
      resolve: (u) => u.blockedUntil,
    }),
  }),
});

builder.queryFields((t) => ({
  registerUsage: t.field({
    ...forAnyCaller(),
    type: RegisterUsageType,
    description: "The register quota use of the caller's organisation today (free: makes no register call).",
    resolve: (_, __, ctx) => ctx.services.quota.usage(ctx.tenant.organisation),
  }),
}));
