/**
 * The register's calendar day is the Europe/London day (docs/emulator.md). Document and
 * plan IDs expire at the end of the London day of issue, charges are counted once per London
 * day and the daily quota resets at London midnight. Shared by the emulator and the service.
 */

const formatter = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Europe/London',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

const HOUR_MS = 3_600_000;

function formatLondonDate(instant: Date): string {
  const parts = formatter.formatToParts(instant);
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${get('year')}-${get('month')}-${get('day')}`;
}

/**
 * The last answer, by UTC hour. Since 1970 London's offset is a whole number of hours and
 * changes at whole UTC hours, so its date can only change at a whole UTC hour: every instant
 * of one UTC hour has the same London date. (Intl formatting costs ~25 µs; this is called on
 * every register call by the quota guard.)
 */
let lastHour = Number.NaN;
let lastDate = '';

/** The Europe/London calendar date of an instant, as YYYY-MM-DD. */
export function londonDate(instant: Date): string {
  const t = instant.getTime();
  if (!(t >= 0)) return formatLondonDate(instant);
  const hour = Math.floor(t / HOUR_MS);
  if (hour !== lastHour) {
    lastDate = formatLondonDate(instant);
    lastHour = hour;
  }
  return lastDate;
}

/** The calendar date after `date` (YYYY-MM-DD), by plain calendar arithmetic. */
function nextDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

/**
 * The instant of the next London midnight after `instant` (the end of its London day).
 * DST-correct: London is UTC+0 or UTC+1 at midnight (clocks change at 01:00 UTC, never at
 * midnight), so the midnight is one of two candidate instants; the one that really is the first
 * instant of the next London date wins.
 */
export function endOfLondonDay(instant: Date): Date {
  const today = londonDate(instant);
  // Checking the candidates formats other instants, which the one-hour memo above cannot keep:
  // the answer is kept per London day instead (the quota guard asks on every register call).
  if (today === lastEndDay) return new Date(lastEndMs);
  const end = findEndOfLondonDay(today);
  lastEndDay = today;
  lastEndMs = end.getTime();
  return end;
}

let lastEndDay = '';
let lastEndMs = 0;

function findEndOfLondonDay(today: string): Date {
  const tomorrow = nextDate(today);
  const [y, m, d] = tomorrow.split('-').map(Number) as [number, number, number];
  const utcMidnight = Date.UTC(y, m - 1, d);
  for (const offsetHours of [1, 0]) {
    const candidate = new Date(utcMidnight - offsetHours * HOUR_MS);
    if (londonDate(candidate) === tomorrow && londonDate(new Date(candidate.getTime() - 1)) === today) {
      return candidate;
    }
  }
  /* c8 ignore next */
  throw new Error(`no London midnight found after ${today}`);
}

/**
 * True when every instant from `from` up to (not including) `until` is on one London day: an
 * estimate of a clock that says "somewhere in there" then knows the day, and otherwise a
 * London midnight falls inside it. London midnight falls on a whole second, never between two
 * instants of one millisecond.
 */
export function oneLondonDay(from: Date, until: Date): boolean {
  return until.getTime() - 1 <= from.getTime() || londonDate(from) === londonDate(new Date(until.getTime() - 1));
}

/** Whole seconds from `instant` to the next London midnight (at least 1). */
export function secondsUntilLondonMidnight(instant: Date): number {
  return Math.max(1, Math.ceil((endOfLondonDay(instant).getTime() - instant.getTime()) / 1000));
}
