/** A controllable clock over a base time source: set, advance and reset shift an offset. */
import type { ControllableClock } from './types';

export function createClock(base: () => Date = () => new Date()): ControllableClock {
  let offsetMs = 0;
  return {
    now: () => new Date(base().getTime() + offsetMs),
    set(d: Date) {
      if (Number.isNaN(d.getTime())) throw new TypeError('clock.set needs a valid Date');
      offsetMs = d.getTime() - base().getTime();
    },
    advance(ms: number) {
      if (!Number.isFinite(ms)) throw new TypeError('clock.advance needs a finite number of milliseconds');
      offsetMs += ms;
    },
    reset() {
      offsetMs = 0;
    },
  };
}
