/**
 * What an idempotency key may be, and what binds it to its input: a key sent again with other
 * input is another request, refused rather than answered with the first one's outcome.
 */
import { createHash } from 'node:crypto';
import { stringify as stableJson } from 'safe-stable-stringify';
import { invalidInput, type UserError } from '../user-errors';

const KEY_RULE = /^[\x21-\x7E]{1,255}$/;

export function idempotencyKeyErrors(key: string): UserError[] {
  return KEY_RULE.test(key)
    ? []
    : [invalidInput(['input', 'idempotencyKey'], 'must be 1 to 255 printable ASCII characters without spaces.')];
}

/**
 * What binds an idempotency key to its input: the SHA-256 of the input as stable JSON (object keys
 * sorted, undefined left out), so the hash does not depend on argument order. safe-stable-stringify
 * (pino's own) writes it; RFC 8785 (JCS) would also fix how numbers are written, which GraphQL's
 * coerced input never leaves open, and would change the hash of every key already stored.
 * test/money/input-hash.test.ts holds hashes of the hand-written form this replaced: unchanged.
 */
export function inputHash(operation: string, input: unknown): string {
  // An object always stringifies: undefined is only ever the answer for a bare undefined.
  return createHash('sha256').update(stableJson({ operation, input })!).digest('hex');
}
