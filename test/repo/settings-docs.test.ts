/**
 * The configuration table (docs/configuration.md) and the settings schema are one list: every setting the
 * service reads has a row, every row is a setting it reads, and the default a row states is the
 * one the schema really gives (read back through the same schema, so "3.00" means 300 pence).
 */
import { describe, expect, test } from 'vitest';
import type { ZodType } from 'zod';
import { Env } from '../../src/config';
import { docPage } from '../support/docs';

const README = docPage('configuration');

/** The rows of the table under "| setting | default | meaning |", each with its settings and its default cell. */
function configurationRows(): { settings: string[]; defaults: string }[] {
  const lines = README.split('\n');
  const start = lines.findIndex((line) => line.startsWith('| setting | default | meaning |'));
  expect(start, 'the README has a configuration table').toBeGreaterThan(-1);
  const rows: { settings: string[]; defaults: string }[] = [];
  for (const line of lines.slice(start + 2)) {
    if (!line.startsWith('|')) break;
    const [settings, defaults] = line.split(' | ').map((cell) => cell.replace(/^\| /, ''));
    rows.push({ settings: [...settings!.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((m) => m[1]!), defaults: defaults ?? '' });
  }
  return rows;
}

/** Defaults worked out from another setting, which the row says in words. */
const DERIVED_DEFAULTS = new Set(['HTTP_HEADERS_TIMEOUT_MS']);

describe('README configuration table', () => {
  const rows = configurationRows();
  const documented = rows.flatMap((row) => row.settings);
  const shape = Env.shape as Record<string, ZodType>;

  test('every setting the service reads has a row, and every row is a setting it reads', () => {
    expect(Object.keys(shape).filter((setting) => !documented.includes(setting))).toEqual([]);
    expect(documented.filter((setting) => !(setting in shape))).toEqual([]);
  });

  test('the default each row states is the one loadConfig gives', () => {
    const wrong: string[] = [];
    for (const row of rows) {
      const stated = [...row.defaults.matchAll(/`([^`]*)`/g)].map((m) => m[1]!);
      row.settings.forEach((setting, i) => {
        const schema = shape[setting]!;
        const real = schema.parse(undefined) as unknown;
        const unset = real === undefined || (Array.isArray(real) && real.length === 0);
        if (DERIVED_DEFAULTS.has(setting)) return;
        if (unset) {
          // A setting without a default says what happens without it, in words, not as a value.
          if (!/^(unset|all interfaces|on unless production)/.test(row.defaults))
            wrong.push(`${setting}: no default, row says ${row.defaults}`);
          return;
        }
        const value = stated[i];
        const read = value === undefined ? undefined : schema.safeParse(value);
        if (!read?.success || JSON.stringify(read.data) !== JSON.stringify(real)) {
          wrong.push(`${setting}: row says ${JSON.stringify(value)}, the schema gives ${JSON.stringify(real)}`);
        }
      });
    }
    expect(wrong).toEqual([]);
  });
});
