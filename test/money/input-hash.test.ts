/**
 * The hash that binds an idempotency key to its input is the one keys already stored were made
 * with: these digests are the hand-written stable JSON's that safe-stable-stringify replaced, for
 * inputs with keys out of order, nested objects, arrays, unicode, undefined and odd numbers. A
 * change here would make every stored key look reused with different input.
 */
import { expect, test } from 'vitest';
import { inputHash } from '../../src/services/idempotency/key';

test.each([
  [
    'purchaseTitleDetails',
    { titleNumber: 'MID15313', reference: 'Smith purchase', idempotencyKey: 'k-1', maxFee: '3.00' },
    '01307c27274763f30993f27501d12370bfefe32e26c5adf1f781d5073bf1f0c6',
  ],
  [
    'orderTitleDocument',
    { idempotencyKey: 'k-2', titleNumber: 'MID15313', titleSheet: { preambles: 'INLINE', include: true }, applications: { include: true } },
    '2ebbb76680a3fc19981fcf3ac308955ab18adfa437dd36203c61f347dc48123e',
  ],
  [
    'createCase',
    {
      idempotencyKey: 'k-3',
      reference: 'ünïcødé “quotes” \u2028',
      parties: [{ name: 'A', role: 'BUYER' }, { name: 'B' }],
      note: undefined,
    },
    '3ea77ef651ca7e860e8ee4637807091a976513143fde4f91c78ce1a0c8297929',
  ],
  [
    'addDeedToCase',
    { idempotencyKey: 'k-4', caseId: 'C-1', deed: { type: 'DISPOSITION', amounts: [1, 2.5, -0, 1e21], flags: [true, false, null] } },
    '5c938a0ba9cb4f4c69080b75b29eb80789e4721f84488041dc41a223cf115fc2',
  ],
])('%s: the digest keys already stored were made with', (operation, input, digest) => {
  expect(inputHash(operation, input)).toBe(digest);
});
