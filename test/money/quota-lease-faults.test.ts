/**
 * Free reads admitted from leases, against a register that misbehaves: whatever the fault
 * (a status, a hang, a reset, a drip, a malformed body; before or after the register ran the
 * call), every attempt that reached the register is counted in the ledger, the unused rest of the
 * lease is given back when the lease ends, and the count is never below the register's own. The
 * emulator's call log and its quota count are the witnesses, not the answers.
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse } from 'graphql';
import { afterEach, describe, expect, test } from 'vitest';
import { TitleQuery } from '../support/documents';
import { FAULT_TEST_TRANSPORT } from '../support/fault-transport';
import { startService } from '../support/harness';

type Svc = Awaited<ReturnType<typeof startService>>;
let svc: Svc | undefined;
afterEach(async () => {
  await svc?.stop();
  svc = undefined;
});

const Usage = parse('query LeasedUsage { registerUsage { calls leased } }') as TypedDocumentNode<{
  registerUsage: { calls: number; leased: number | null };
}>;

const FAULTS = [
  ['a 503 before the register runs the call', { kind: 'status', status: 503 }],
  ['a hang', { kind: 'hang' }],
  ['a reset before', { kind: 'reset' }],
  ['a reset after the register ran the call', { kind: 'reset', phase: 'after' }],
  ['a malformed body', { kind: 'malformed' }],
  ['a malformed body after the register ran the call', { kind: 'malformed', phase: 'after' }],
  // slower than the body timeout below, so the read fails after the register counted it
  ['a drip', { kind: 'drip', chunkBytes: 1, intervalMs: 1_200 }],
] as const;

describe('leased free reads under faults', () => {
  test.for(FAULTS)(
    '%s: the ledger counts each attempt the register saw, gives back the unused, and is never below the register',
    async ([, fault]) => {
      svc = await startService({
        services: {
          transport: FAULT_TEST_TRANSPORT,
          // One lease outlives the test: every read is admitted from it, and the usage query ends it.
          quota: { leaseMs: 60_000, leaseCalls: 20 },
        },
      });
      svc.emulator.faults.inject('titleSummary', fault, 2);
      for (const titleNumber of ['MID15313', 'MID1234', 'GLA5001', 'EDN42']) await svc.gql(TitleQuery, { titleNumber });
      const reached = svc.emulator.calls.count({ route: 'titleSummary', clientId: 'client-a' });
      expect(reached).toBeGreaterThanOrEqual(4); // each title at least once (a broken contract is not retried)
      expect(reached).toBeLessThan(20); // all from the one lease

      const { data, errors } = await svc.gql(Usage);
      expect(errors).toBeUndefined();
      // This replica's lease ended for the answer: its unused calls went back, nothing is still leased.
      expect(data!.registerUsage.leased ?? 0).toBe(0);
      expect(data!.registerUsage.calls).toBe(reached);
      expect(data!.registerUsage.calls).toBeGreaterThanOrEqual(svc.emulator.state.quotaUsed('ORG-A'));
    },
  );
});
