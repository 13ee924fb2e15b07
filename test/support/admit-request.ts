/** One admission a quota ledger is asked for: a free read of client-a (ORG-A), no bucket; tests change what they pin. */
import type { AdmitRequest } from '../../src/storage/quota/store';

export const admitRequest = (more: Partial<AdmitRequest> = {}): AdmitRequest => ({
  organisation: 'ORG-A',
  client: 'client-a',
  day: '2026-03-10',
  now: 1_000_000,
  free: true,
  freeLimit: 90,
  dailyLimit: 100,
  burst: 0,
  perMs: 0,
  ...more,
});
