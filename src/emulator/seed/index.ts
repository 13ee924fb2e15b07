/** Title lookup over the named fixtures and the lazily generated BLK titles. */
import { FIXTURE_TITLES } from './fixtures';
import { generateTitle } from './generated';
import type { TitleRecord } from './model';

const generated = new Map<string, TitleRecord>();

/** The title record, or undefined when the register has no such title (e.g. ZZZ999). */
export function findTitle(titleNumber: string): TitleRecord | undefined {
  const fixture = FIXTURE_TITLES.get(titleNumber);
  if (fixture) return fixture;
  let t = generated.get(titleNumber);
  if (!t) {
    t = generateTitle(titleNumber);
    if (t) generated.set(titleNumber, t);
  }
  return t;
}

export type { TitleRecord } from './model';
