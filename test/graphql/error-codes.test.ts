/**
 * The top-level error codes keep themselves in step: every GraphQL error with a code is made by
 * `topLevelError` (so its code is in the one list, or it does not compile), every code in the
 * list is one the code really gives, and the README's table is the list.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { TOP_LEVEL_ERROR_CODES, topLevelError } from '../../src/graphql/error-codes';
import { docPage } from '../support/docs';

const ROOT = join(import.meta.dirname, '../..');
const CODES = Object.keys(TOP_LEVEL_ERROR_CODES);

/** Every TypeScript file of the service (the emulator speaks the register's codes, not ours). */
function serviceSources(): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'emulator') walk(path);
      } else if (entry.name.endsWith('.ts')) {
        files.set(relative(ROOT, path), readFileSync(path, 'utf8'));
      }
    }
  };
  walk(join(ROOT, 'src'));
  return files;
}

/**
 * Where a GraphQLError is made other than by topLevelError: each rebuilds an error someone else
 * made, keeping its code, or makes one without a code (a scalar's rule, which the edge words as
 * BAD_USER_INPUT; a body that is not JSON, which Yoga answers itself).
 */
const OTHER_CONSTRUCTIONS: Record<string, number> = {
  'src/graphql/error-codes.ts': 1, // topLevelError itself
  'src/graphql/schema/scalars.ts': 2, // no code: input-errors.ts words them
  'src/server/media-types.ts': 1, // no code: Yoga's 400 for a body that is not JSON
  'src/server/app.ts': 1, // inPlaceOf: masking keeps the code it was given
  'src/server/jit.ts': 1, // the same error, with its field's node
  'src/server/operation-name.ts': 1, // the same extensions, clearer words
  'src/security/refusals.ts': 1, // reworded: the same error in our words
  // The money rules gateways import (titlegraph/gateway-rules): graphql alone, no titlegraph module;
  // the codes titlegraph itself gives through it are in the list (test below).
  'src/security/gateway-rules.ts': 1,
};

describe('top-level error codes', () => {
  const sources = serviceSources();

  test('every GraphQL error with a code is made by topLevelError', () => {
    const found: Record<string, number> = {};
    for (const [file, text] of sources) {
      const count = (text.match(/\bnew GraphQLError\(|\bcreateGraphQLError\(/g) ?? []).length;
      if (count > 0) found[file] = count;
    }
    expect(found).toEqual(OTHER_CONSTRUCTIONS);
    // Errors written as plain JSON, outside GraphQLError, carry no code of their own either.
    for (const [file, text] of sources) expect(text, file).not.toMatch(/extensions:\s*\{\s*code:\s*'/);
  });

  test('every code compared or set by hand in the service is in the list', () => {
    const used = new Set<string>();
    for (const text of sources.values()) {
      for (const m of text.matchAll(/extensions\?*\.code === '([A-Z_]+)'|code: '([A-Z_]+)' satisfies TopLevelErrorCode/g)) {
        used.add(m[1] ?? m[2]!);
      }
    }
    expect(used.size).toBeGreaterThan(0);
    expect([...used].filter((code) => !CODES.includes(code))).toEqual([]);
  });

  test('every code in the list is given by the service, or by Yoga', () => {
    const byYoga = ['GRAPHQL_PARSE_FAILED', 'INTERNAL_SERVER_ERROR'];
    const text = [...sources]
      .filter(([file]) => file !== 'src/graphql/error-codes.ts')
      .map(([, t]) => t)
      .join('\n');
    const unused = CODES.filter((code) => !byYoga.includes(code) && !text.includes(`'${code}'`));
    expect(unused).toEqual([]);
  });

  test("the README's table lists exactly the codes of the list, each with its description", () => {
    const readme = docPage('errors');
    const section = readme.split('### Every top-level error code')[1]!.split(/\n## /)[0]!;
    const rows = [...section.matchAll(/^\| `([A-Z_]+)` \| (.*) \|$/gm)].map((m) => [m[1]!, m[2]!.replaceAll('\\|', '|')]);
    expect(rows).toEqual(Object.entries(TOP_LEVEL_ERROR_CODES));
  });

  test('topLevelError puts its code first, and the one given wins over a rebuilt error’s', () => {
    const error = topLevelError('BAD_USER_INPUT', 'no', { code: 'OTHER', field: 'fas' }, { path: ['title'] });
    expect(Object.keys(error.extensions)).toEqual(['code', 'field']);
    expect(error.toJSON()).toEqual({ message: 'no', path: ['title'], extensions: { code: 'BAD_USER_INPUT', field: 'fas' } });
  });
});
