/** Seeded, reproducible randomness for generated seed data. */

/** FNV-1a 32-bit hash of a string. */
export function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Integer in [min, max] inclusive. */
  int(min: number, max: number): number;
  pick<T>(items: readonly T[]): T;
  chance(p: number): boolean;
  digits(n: number): string;
  letters(n: number): string;
}

/** mulberry32 over a string seed. */
export function createRng(seed: string): Rng {
  let a = hash32(seed);
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    pick: <T>(items: readonly T[]) => items[int(0, items.length - 1)]!,
    chance: (p: number) => next() < p,
    digits: (n: number) => Array.from({ length: n }, () => String(int(0, 9))).join(''),
    letters: (n: number) => Array.from({ length: n }, () => String.fromCharCode(65 + int(0, 25))).join(''),
  };
}

const ID_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

/** A deterministic opaque identifier (e.g. a security id) derived from a seed string. */
export function opaqueId(seed: string, length = 12): string {
  const rng = createRng(`id:${seed}`);
  return Array.from({ length }, () => ID_ALPHABET[rng.int(0, ID_ALPHABET.length - 1)]).join('');
}

/** ISO date `days` days after `from` (YYYY-MM-DD). */
export function addDays(from: string, days: number): string {
  const d = new Date(`${from}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
