/** The claim protocol both backends share: take the key (reserving its fee), or answer its record or the spending refusal. */
import type { ClaimResult, IdempotencyRecord } from './store';
import { SpendRefused } from './spending-decision';

/**
 * A claim as both backends make it. `take` runs the claim's transaction: it takes the key (or
 * answers undefined when the key is held) and, for a chargeable call, reserves its fee. A spending
 * refusal thrown inside it is the answer; a held key answers its record, and a key purged in
 * between is claimed again (a purge only removes old records).
 */
export async function claimWith(
  take: () => Promise<{ reservedPence: number } | undefined>,
  existing: () => Promise<IdempotencyRecord | undefined>,
): Promise<ClaimResult> {
  for (let attempt = 0; ; attempt++) {
    try {
      const taken = await take();
      if (taken) return { claimed: true, reservedPence: taken.reservedPence };
    } catch (error) {
      if (error instanceof SpendRefused) return { claimed: false, refused: error.refusal };
      throw error;
    }
    const record = await existing();
    if (record) return { claimed: false, record };
    if (attempt >= 3) throw new Error('idempotency claim: record vanished repeatedly');
  }
}
