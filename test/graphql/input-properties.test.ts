/**
 * Property tests: the ISO-8859-1 rule and the scalars accept exactly the spec's values, and
 * no input, however odd, makes the service answer with a 5xx or an unmasked error.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isCaseId, isFas, isLatin1Text, isTitleNumber } from '../../src/register/contract/rules';
import { CaseIdScalar, FasNumberScalar, TitleNumberScalar } from '../../src/graphql/schema/scalars';
import { CreditorsQuery, TitleQuery } from '../support/documents';
import { startService } from '../support/harness';

/** Independent oracle of spec section 1, by code point. */
const inSpecRanges = (s: string) =>
  [...s].every((ch) => {
    const c = ch.codePointAt(0)!;
    return (c >= 0x20 && c <= 0x7e) || (c >= 0xa1 && c <= 0xac) || (c >= 0xae && c <= 0xff);
  });

const isUpper = (c: string) => c >= 'A' && c <= 'Z';
const isDigit = (c: string) => c >= '0' && c <= '9';
const titleOracle = (s: string) =>
  s.length >= 4 &&
  s.length <= 11 &&
  [...s.slice(0, 3)].every(isUpper) &&
  s.slice(3).length >= 1 &&
  [...s.slice(3)].every(isDigit) &&
  s.length === [...s].length;
const fasOracle = (s: string) => s.length >= 4 && s.length <= 6 && [...s].every(isDigit);
const caseOracle = (s: string) =>
  s.length === 13 && s.startsWith('RLP') && [...s.slice(3, 5)].every(isDigit) && [...s.slice(5)].every(isUpper);

/** Strings near the interesting boundaries, plus anything at all. */
const nearLatin1 = fc.string({
  unit: fc.oneof(
    fc.constantFrom(
      '\u001f',
      '\u0020',
      '\u007e',
      '\u007f',
      '\u00a0',
      '\u00a1',
      '\u00ac',
      '\u00ad',
      '\u00ae',
      '\u00ff',
      '\u0100',
      '|',
      '\u2028',
      '\ud83d\ude00',
    ),
    fc.integer({ min: 0, max: 0x2ff }).map((c) => String.fromCodePoint(c)),
    fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }),
  ),
  maxLength: 25,
});
const nearTitle = fc.string({ unit: fc.constantFrom('A', 'M', 'Z', 'a', '0', '9', ' ', '1', 'É', '٣'), maxLength: 13 });

function parses(scalar: { parseValue(v: unknown): unknown }, value: unknown): boolean {
  try {
    scalar.parseValue(value);
    return true;
  } catch {
    return false;
  }
}

describe('rules, exactly as the spec states them', () => {
  it('ISO-8859-1 printable: exactly U+0020–U+007E, U+00A1–U+00AC, U+00AE–U+00FF', () => {
    fc.assert(
      fc.property(nearLatin1, (s) => isLatin1Text(s) === inSpecRanges(s)),
      { numRuns: 5000 },
    );
  });

  it('TitleNumber: 3 uppercase letters then 1 to 8 digits', () => {
    fc.assert(
      fc.property(nearTitle, (s) => isTitleNumber(s) === titleOracle(s) && parses(TitleNumberScalar, s) === titleOracle(s)),
      { numRuns: 5000 },
    );
  });

  it('FasNumber: 4 to 6 digits, as a string only', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('0', '5', '9', 'a', ' ', '٣'), maxLength: 8 }),
        (s) => isFas(s) === fasOracle(s) && parses(FasNumberScalar, s) === fasOracle(s),
      ),
      { numRuns: 3000 },
    );
    fc.assert(fc.property(fc.anything(), (v) => typeof v === 'string' || !parses(FasNumberScalar, v)));
  });

  it('CaseId: RLP, 2 digits, 8 uppercase letters', () => {
    const unit = fc.constantFrom('R', 'L', 'P', 'A', 'Z', '0', '9', 'a', '-');
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit, minLength: 11, maxLength: 15 }),
          fc.string({ unit, maxLength: 10 }).map((s) => `RLP${s}`),
        ),
        (s) => isCaseId(s) === caseOracle(s) && parses(CaseIdScalar, s) === caseOracle(s),
      ),
      { numRuns: 3000 },
    );
  });
});

describe('through GraphQL: never a 5xx', () => {
  let svc: Awaited<ReturnType<typeof startService>>;
  beforeAll(async () => {
    svc = await startService();
  });
  afterAll(() => svc.stop());

  it('creditors(query:) is answered or refused as BAD_USER_INPUT, exactly by the rule', async () => {
    await fc.assert(
      fc.asyncProperty(nearLatin1, async (query) => {
        const { status, errors } = await svc.gql(CreditorsQuery, { query });
        expect(status).toBeLessThan(500);
        const valid = query.length >= 3 && query.length <= 20 && inSpecRanges(query);
        if (valid) expect(errors).toBeUndefined();
        else expect(errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
      }),
      { numRuns: 60 },
    );
  });

  it('title(titleNumber:) never fails with anything but a parse error', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(nearTitle, fc.string({ maxLength: 30 })), async (titleNumber) => {
        const { status, errors } = await svc.gql(TitleQuery, { titleNumber });
        expect(status).toBeLessThan(500);
        if (!titleOracle(titleNumber)) expect(errors?.[0]?.message).toMatch(/TitleNumber must be/);
        else expect(errors).toBeUndefined();
      }),
      { numRuns: 60 },
    );
  });
});
