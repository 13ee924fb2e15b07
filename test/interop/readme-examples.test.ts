/**
 * The README's first query and first purchase run as written against the service on the embedded
 * emulator, with no credentials as its text says (development), and answer without errors: the
 * purchase charges once, and sent again with its idempotency key, charges nothing more.
 */
import { expect, test } from 'vitest';
import { docPage } from '../support/docs';
import { serviceForTest } from '../support/harness';
import { postRaw } from '../support/post-raw';

const blocks = [...docPage('README').matchAll(/```graphql\n([\s\S]*?)```/g)].map((m) => m[1]!);

test('the README shows a first query and a first purchase, and both run as written', async () => {
  expect(blocks).toHaveLength(2);
  const svc = await serviceForTest();
  const run = async (query: string) => (await postRaw<Record<string, unknown>>(svc.yoga, { query }, { authorization: null })).body;
  const [query, purchase] = blocks as [string, string];
  expect(await run(query)).toMatchObject({ data: { title: { titleNumber: 'MID15313' } } });
  expect((await run(query)).errors).toBeUndefined();
  const bought = await run(purchase);
  expect(bought.errors).toBeUndefined();
  expect(bought).toMatchObject({ data: { purchaseTitleDetails: { userErrors: [], charges: [{ fas: '0877' }] } } });
  expect(await run(purchase)).toEqual(bought);
  expect(svc.emulator.ledger.charges).toHaveLength(1);
});
