/**
 * Merging the parts of a statement page (one per API client, and per caller): the journal's
 * order is day, then the moment it was recorded, then its id, whatever the order within the
 * parts or between days and moments; and a page never holds more than its limit.
 */
import { describe, expect, test } from 'vitest';
import { mergeStatementParts } from '../../src/storage/idempotency/statement-pages';
import type { JournalRow } from '../../src/storage/idempotency/rows';

type Row = JournalRow & { id: number };
const row = (key: string, day: string, recordedAt: number, id: number, scope = 'c1'): Row => ({
  id,
  scope,
  reference: null,
  status: 'CHARGED',
  operation: 'purchaseTitleDetails',
  key,
  fas: '0877',
  title_number: 'BLK1',
  charge: null,
  day,
  recorded_at: recordedAt,
  caller: null,
  caller_id: null,
  caller_name: null,
});
const keys = (rows: Row[]) => rows.map((r) => r.key);

describe('mergeStatementParts', () => {
  test('day first, even where a later day was recorded earlier (a charge filed on the register day it was made)', () => {
    const c1 = [row('c1-10th', '2026-03-10', 5_000, 1), row('c1-11th', '2026-03-11', 1_000, 2)];
    const c2 = [row('c2-10th', '2026-03-10', 9_000, 3, 'c2'), row('c2-12th', '2026-03-12', 500, 4, 'c2')];
    expect(keys(mergeStatementParts([c2, c1], 10))).toEqual(['c1-10th', 'c2-10th', 'c1-11th', 'c2-12th']);
  });

  test('within a day the moment recorded, and the id when two share a moment', () => {
    const c1 = [row('a', '2026-03-10', 2_000, 7), row('b', '2026-03-10', 3_000, 2)];
    const c2 = [row('c', '2026-03-10', 2_000, 5, 'c2'), row('d', '2026-03-10', 2_500, 9, 'c2')];
    expect(keys(mergeStatementParts([c1, c2], 10))).toEqual(['c', 'a', 'd', 'b']);
  });

  test('the first `limit` rows of all the parts, and of a single part too', () => {
    const c1 = [row('a', '2026-03-10', 1_000, 1), row('c', '2026-03-10', 3_000, 3)];
    const c2 = [row('b', '2026-03-10', 2_000, 2, 'c2'), row('d', '2026-03-10', 4_000, 4, 'c2')];
    expect(keys(mergeStatementParts([c1, c2], 3))).toEqual(['a', 'b', 'c']);
    expect(keys(mergeStatementParts([[...c1, ...c2].sort((x, y) => x.id - y.id)], 2))).toEqual(['a', 'b']);
  });
});
