/**
 * The register's input rules (service-spec sections 1, 2.1 and 8), as plain data and
 * predicates. Shared by the wire schemas, the emulator, the REST client and the GraphQL
 * layer, so that every layer refuses exactly the same inputs.
 */

/** Title number: 3 uppercase letters then 1 to 8 digits (length 4 to 11 follows). */
export const TITLE_NUMBER_PATTERN = /^[A-Z]{3}[0-9]{1,8}$/;
/** FAS charging account: 4 to 6 digits, kept as a string. */
export const FAS_PATTERN = /^[0-9]{4,6}$/;
/** Case id as currently issued: RLP, 2 digits, 8 uppercase letters (may change, spec 9). */
export const CASE_ID_PATTERN = /^RLP[0-9]{2}[A-Z]{8}$/;
/** List paths: lowercase letters and '-', segments joined with '/'. */
export const LIST_PATH_PATTERN = /^[a-z-]+(\/[a-z-]+)*$/;

/**
 * ISO-8859-1 printable text (spec 1): U+0020–U+007E, U+00A1–U+00AC, U+00AE–U+00FF, zero or
 * more times. The pipe (U+007C) is inside the first range. U+00A0 (no-break space) and
 * U+00AD (soft hyphen) are deliberately outside.
 */
export const LATIN1_TEXT_PATTERN = /^[\u0020-\u007E\u00A1-\u00AC\u00AE-\u00FF]*$/;

export const LATIN1_RULE = 'must contain only ISO-8859-1 printable characters (U+0020-U+007E, U+00A1-U+00AC, U+00AE-U+00FF)';

export const LIMITS = {
  titleNumber: { min: 4, max: 11 },
  fas: { min: 4, max: 6 },
  chargeReference: { max: 75 },
  creditorQuery: { min: 3, max: 20 },
  creditorResults: { max: 15 },
  caseReference: { max: 50 },
  securityId: { min: 1, max: 20 },
  mortgageNumbers: { maxItems: 25, min: 1, max: 50 },
  notificationEmails: { maxItems: 4, max: 255 },
  titlesPerRequest: { max: 100 },
} as const;

export function isLatin1Text(value: string): boolean {
  return LATIN1_TEXT_PATTERN.test(value);
}

/** What to type instead of the characters word processors put in text (curly quotes, dashes, …). */
const LATIN1_STAND_INS: Record<string, string> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201A': "'",
  '\u201C': '"',
  '\u201D': '"',
  '\u201E': '"',
  '\u2013': '-',
  '\u2014': '-',
  '\u2026': '...',
  '\u00A0': 'a plain space',
  '\u00AD': 'nothing (a soft hyphen)',
  '\t': 'a space',
};

/**
 * The first character of `value` that breaks the ISO-8859-1 printable rule, said so a person can
 * fix it: `character 9 ’ (U+2019) is not allowed; use ' instead`. Undefined when there is none.
 */
export function latin1Problem(value: string): string | undefined {
  let position = 0;
  for (const char of value) {
    position += 1;
    if (LATIN1_TEXT_PATTERN.test(char)) continue;
    const code = `U+${char.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
    const shown = /[\p{L}\p{N}\p{P}\p{S}]/u.test(char) ? `${char} ` : '';
    const standIn = LATIN1_STAND_INS[char];
    return `character ${position} ${shown}(${code}) is not allowed; ${standIn ? `use ${standIn} instead` : 'use ISO-8859-1 printable characters only'}`;
  }
  return undefined;
}

export function isTitleNumber(value: string): boolean {
  return TITLE_NUMBER_PATTERN.test(value);
}

export function isFas(value: string): boolean {
  return FAS_PATTERN.test(value);
}

export function isCaseId(value: string): boolean {
  return CASE_ID_PATTERN.test(value);
}
