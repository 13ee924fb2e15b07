/**
 * The ISO-8859-1 rule, as a caller meets it: the refusal names the character, its position and
 * code point and what to type instead, on the field the caller sent; a value that breaks two
 * rules is told both, once. Nothing is sent.
 */
import { expect, test } from 'vitest';
import { latin1Problem } from '../../src/register/contract/rules';
import { CreateCaseMutation, PurchaseTitleDetailsMutation } from '../support/documents';
import { newKey, serviceForTest } from '../support/harness';

test('a curly apostrophe in a purchase reference: its position, its code point and the fix', async () => {
  const svc = await serviceForTest();
  const { data } = await svc.gql(PurchaseTitleDetailsMutation, {
    fas: '0877',
    input: { titleNumber: 'MID1234', reference: 'Smith’s purchase', idempotencyKey: newKey() },
  });
  expect(data!.purchaseTitleDetails.userErrors).toEqual([
    {
      code: 'INVALID_INPUT',
      message: "input.reference character 6 ’ (U+2019) is not allowed; use ' instead.",
      field: ['input', 'reference'],
    },
  ]);
  expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(0);
});

test('a case reference that is too long and has a curly quote is told both, in one error', async () => {
  const svc = await serviceForTest();
  const reference = `“${'x'.repeat(60)}`;
  const { data } = await svc.gql(CreateCaseMutation, {
    fas: '1877',
    input: { reference, contactEmail: 'a@b.example', contactTelephone: '0131', titleNumbers: ['MID15313'], idempotencyKey: newKey() },
  });
  const errors = data!.createCase.userErrors.filter((e) => e.field?.join('.') === 'input.reference');
  expect(errors).toEqual([
    {
      code: 'INVALID_INPUT',
      message: 'input.reference character 1 “ (U+201C) is not allowed; use " instead; must be at most 50 characters.',
      field: ['input', 'reference'],
    },
  ]);
  expect(svc.emulator.calls.count({ route: 'createCase' })).toBe(0);
});

test('the wording for characters with no stand-in, and for invisible ones', () => {
  expect(latin1Problem('ok text')).toBeUndefined();
  expect(latin1Problem('a€b')).toBe('character 2 € (U+20AC) is not allowed; use ISO-8859-1 printable characters only');
  expect(latin1Problem('a\u00a0b')).toBe('character 2 (U+00A0) is not allowed; use a plain space instead');
  expect(latin1Problem('😀')).toBe('character 1 😀 (U+1F600) is not allowed; use ISO-8859-1 printable characters only');
});
