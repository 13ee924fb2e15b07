import { describe, expect, it } from 'vitest';
import { endOfLondonDay, londonDate, secondsUntilLondonMidnight } from '../../src/register/contract/london-day';

describe('London calendar day', () => {
  it('gives the Europe/London date, not the UTC date', () => {
    expect(londonDate(new Date('2025-06-10T23:30:00Z'))).toBe('2025-06-11'); // BST: 00:30 next day
    expect(londonDate(new Date('2025-12-10T23:30:00Z'))).toBe('2025-12-10'); // GMT
    expect(londonDate(new Date('2025-06-10T22:59:59.999Z'))).toBe('2025-06-10');
  });

  it('ends the day at London midnight in summer (23:00 UTC) and winter (00:00 UTC)', () => {
    expect(endOfLondonDay(new Date('2025-06-10T09:00:00Z')).toISOString()).toBe('2025-06-10T23:00:00.000Z');
    expect(endOfLondonDay(new Date('2025-12-10T09:00:00Z')).toISOString()).toBe('2025-12-11T00:00:00.000Z');
    // The instant of midnight itself belongs to the new day.
    expect(endOfLondonDay(new Date('2025-06-10T23:00:00Z')).toISOString()).toBe('2025-06-11T23:00:00.000Z');
  });

  it('is DST-correct on the days the clocks change', () => {
    // Clocks go forward at 01:00 UTC on 30 March 2025: that day ends at 23:00 UTC.
    expect(endOfLondonDay(new Date('2025-03-30T00:30:00Z')).toISOString()).toBe('2025-03-30T23:00:00.000Z');
    // The day before still ends at 00:00 UTC.
    expect(endOfLondonDay(new Date('2025-03-29T12:00:00Z')).toISOString()).toBe('2025-03-30T00:00:00.000Z');
    // Clocks go back at 01:00 UTC on 26 October 2025: that day ends at 00:00 UTC on the 27th.
    expect(endOfLondonDay(new Date('2025-10-26T00:30:00Z')).toISOString()).toBe('2025-10-27T00:00:00.000Z');
    expect(endOfLondonDay(new Date('2025-10-25T22:59:00Z')).toISOString()).toBe('2025-10-25T23:00:00.000Z');
  });

  it('counts whole seconds to the next midnight, across year ends', () => {
    expect(secondsUntilLondonMidnight(new Date('2025-06-10T21:00:00Z'))).toBe(7200);
    expect(endOfLondonDay(new Date('2025-12-31T23:59:59Z')).toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(secondsUntilLondonMidnight(new Date('2025-12-31T23:59:59.500Z'))).toBe(1);
  });
});

describe("the register day of an answer's Date header", () => {
  // A Date header drops the fraction of its second, and London midnight falls on a whole second:
  // the header's own day is the day the register answered on, with nothing added to it.
  it('is the day of its whole second, summer and winter, to the last second before midnight', () => {
    const day = (header: string) => londonDate(new Date(Date.parse(header)));
    expect(day('Tue, 10 Jun 2025 22:59:59 GMT')).toBe('2025-06-10'); // BST: 23:59:59
    expect(day('Tue, 10 Jun 2025 23:00:00 GMT')).toBe('2025-06-11');
    expect(day('Wed, 10 Dec 2025 23:59:59 GMT')).toBe('2025-12-10');
    expect(day('Thu, 11 Dec 2025 00:00:00 GMT')).toBe('2025-12-11');
    // The night the clocks go back, both 01:xx hours are on the same day.
    expect(day('Sun, 26 Oct 2025 00:30:00 GMT')).toBe('2025-10-26');
    expect(day('Sun, 26 Oct 2025 23:59:59 GMT')).toBe('2025-10-26');
  });
});
