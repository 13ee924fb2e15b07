/**
 * Random interleavings of faults, duplicate requests, replays, register days passing and
 * service restarts (fast-check), against a real emulator. Whatever happens, two invariants
 * hold on the emulator's own ledger: no key is ever charged twice, and every charge the
 * register made appears in the service's journal, as CHARGED or as OUTCOME_UNKNOWN for its key.
 * Also: once a key has a final answer, every later request with it gets the same answer.
 */
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import type { Fault } from '../../src/emulator';
import { londonDate } from '../../src/register/contract/london-day';
import { ChargeRecordsQuery, PurchaseTitleDetailsMutation } from '../support/documents';
import { startService, type Service } from '../support/harness';
import { FAULT_TEST_TRANSPORT } from '../support/fault-transport';

const KEYS = 4;

type Step =
  | { kind: 'send'; key: number; fault: Fault | null }
  | { kind: 'duplicates'; key: number }
  | { kind: 'nextDay' }
  | { kind: 'restart' };

const faults: fc.Arbitrary<Fault | null> = fc.constantFrom<Fault | null>(
  null,
  null,
  { kind: 'status', status: 500 },
  { kind: 'status', status: 503, phase: 'after' },
  { kind: 'reset' },
  { kind: 'reset', phase: 'after' },
  { kind: 'malformed', phase: 'after' },
  { kind: 'hang', phase: 'after' },
  { kind: 'status', status: 401 },
  { kind: 'status', status: 429 },
);

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('send' as const), key: fc.nat(KEYS - 1), fault: faults }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('duplicates' as const), key: fc.nat(KEYS - 1) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'nextDay' as const }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'restart' as const }) },
);

let run = 0;

async function play(steps: Step[]) {
  const svc = await startService({
    services: { transport: { ...FAULT_TEST_TRANSPORT, timeouts: { ...FAULT_TEST_TRANSPORT.timeouts, deadlineMs: 400 } } },
  });
  let current: Service = svc;
  run++;
  // Each key buys its own title, so the ledger's charges for that title are the key's charges.
  const variables = Array.from({ length: KEYS }, (_, i) => ({
    fas: '0877',
    input: { titleNumber: `BLK${100 + i}`, reference: 'property', idempotencyKey: `prop-${process.pid}-${run}-${i}` },
  }));
  const days = new Set<string>([londonDate(svc.emulator.clock.now())]);
  const finalAnswers = new Map<number, unknown>();
  const send = async (key: number) => {
    const result = await current.gql(PurchaseTitleDetailsMutation, variables[key]!);
    const payload = result.data?.purchaseTitleDetails;
    const codes = payload?.userErrors.map((e) => e.code) ?? [];
    // Top-level errors, RATE_LIMITED and IN_USE are not the key's answer: the key stays open.
    const final = payload && !codes.includes('RATE_LIMITED') && !codes.includes('IDEMPOTENCY_KEY_IN_USE');
    if (final) {
      if (finalAnswers.has(key)) expect(payload).toEqual(finalAnswers.get(key));
      else finalAnswers.set(key, payload);
    }
  };
  try {
    for (const s of steps) {
      if (s.kind === 'send') {
        svc.emulator.faults.clear();
        if (s.fault) svc.emulator.faults.inject('titleDetails', s.fault, 1);
        await send(s.key);
      } else if (s.kind === 'duplicates') {
        svc.emulator.faults.clear();
        await Promise.all([send(s.key), send(s.key), send(s.key)]);
      } else if (s.kind === 'nextDay') {
        svc.emulator.clock.advance(24 * 60 * 60 * 1000);
        days.add(londonDate(svc.emulator.clock.now()));
      } else {
        current = await svc.restart();
      }
    }

    const journal = (
      await Promise.all([...days].map(async (day) => (await current.gql(ChargeRecordsQuery, { day })).data!.chargeRecords))
    ).flat();
    for (const [i, v] of variables.entries()) {
      const ledger = svc.emulator.ledger.charges.filter((c) => c.titleNumber === v.input.titleNumber);
      // 1. never two charges for one key
      expect(ledger.length, `key ${i}`).toBeLessThanOrEqual(1);
      // 2. every charge the register made is in the journal, for its key
      for (const entry of ledger) {
        const forKey = journal.filter((r) => r.idempotencyKey === v.input.idempotencyKey);
        const charged = forKey.some((r) => r.status === 'CHARGED' && r.charge?.transactionNumber === entry.charge.transactionNumber);
        const unknown = forKey.some((r) => r.status === 'OUTCOME_UNKNOWN');
        expect(charged || unknown, `charge ${entry.charge.transactionNumber} of key ${i} is journalled`).toBe(true);
      }
    }
  } finally {
    await svc.stop();
  }
}

describe('money invariants under random faults, duplicates, replays, days and restarts', () => {
  test('no key is charged twice; every register charge is in the journal; final answers never change', async () => {
    await fc.assert(fc.asyncProperty(fc.array(step, { minLength: 3, maxLength: 10 }), play), { numRuns: 25 });
  }, 240_000);
});
