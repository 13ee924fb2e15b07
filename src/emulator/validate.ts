/**
 * Input validation with the wire schemas. Every broken field is reported: `field` is the first
 * one (dotted path) and `message` lists them all as `path: rule`, separated by `; `.
 */
import type { z } from 'zod';
import { isTitleNumber } from '../register/contract/rules';
import { ApiError, invalidTitleNumber } from './errors';

type Issue = z.core.$ZodIssue;

const dotted = (path: readonly PropertyKey[]) => path.map(String).join('.');

function describe(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

/** One issue as `[field, rule]` pairs (unrecognised keys give one pair per key). */
function explain(issue: Issue, base: readonly PropertyKey[]): [string, string][] {
  const path = [...base, ...issue.path];
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys.map((k) => [dotted([...path, k]), 'is not an allowed field']);
    case 'invalid_union': {
      // Report the branch that came closest (fewest issues); ties go to the first branch.
      const best = [...issue.errors].sort((a, b) => a.length - b.length)[0];
      if (best?.length) return best.flatMap((i) => explain(i, path));
      return [[dotted(path), issue.message]];
    }
    default:
      return [[dotted(path), issue.message]];
  }
}

/** Default rule texts for issues whose schema carries no message of its own. */
const errorMap: z.core.$ZodErrorMap = (iss) => {
  switch (iss.code) {
    case 'invalid_type':
      return iss.input === undefined
        ? 'is required'
        : `must be ${iss.expected === 'array' ? 'an' : 'a'} ${iss.expected}, not ${describe(iss.input)}`;
    case 'invalid_value':
      return iss.values.length === 1
        ? `must be ${JSON.stringify(iss.values[0])}`
        : `must be one of ${iss.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'too_big':
      return iss.origin === 'array' ? `must have at most ${iss.maximum} items` : `must be at most ${iss.maximum} characters`;
    case 'too_small':
      if (iss.origin === 'array') return `must have at least ${iss.minimum} item${Number(iss.minimum) === 1 ? '' : 's'}`;
      return Number(iss.minimum) === 1 ? 'must not be empty' : `must be at least ${iss.minimum} characters`;
    case 'invalid_format':
      return `must match ${iss.pattern ?? iss.format}`;
    default:
      return undefined;
  }
};

export interface FieldProblem {
  field: string;
  rule: string;
}

/** Validates `value`; returns the parsed value or the list of problems (paths under `base`). */
export function check<S extends z.ZodType>(
  schema: S,
  value: unknown,
  base: readonly PropertyKey[] = [],
): { ok: true; value: z.infer<S> } | { ok: false; problems: FieldProblem[] } {
  const r = schema.safeParse(value, { error: errorMap });
  if (r.success) return { ok: true, value: r.data };
  const problems = r.error.issues.flatMap((i) => explain(i, base)).map(([field, rule]) => ({ field: field || 'body', rule }));
  return { ok: false, problems };
}

/** Throws 400 INVALID_REQUEST naming every problem; `field` is the first. */
export function rejectProblems(problems: FieldProblem[]): never {
  const unique = problems.filter((p, i) => problems.findIndex((q) => q.field === p.field && q.rule === p.rule) === i);
  throw new ApiError(400, 'INVALID_REQUEST', unique.map((p) => `${p.field}: ${p.rule}`).join('; '), unique[0]!.field);
}

/** Validates several inputs together and throws once with all their problems. */
export function parseAll<T extends readonly { schema: z.ZodType; value: unknown; base?: readonly PropertyKey[] }[]>(
  inputs: T,
): { [K in keyof T]: z.infer<T[K]['schema']> } {
  const out: unknown[] = [];
  const problems: FieldProblem[] = [];
  for (const input of inputs) {
    const r = check(input.schema, input.value, input.base ?? []);
    if (r.ok) out.push(r.value);
    else problems.push(...r.problems);
  }
  if (problems.length) rejectProblems(problems);
  return out as { [K in keyof T]: z.infer<T[K]['schema']> };
}

/** Path title numbers: a malformed one is 400 INVALID_TITLE_NUMBER (before every other rule). */
export function requireTitleNumber(value: string | undefined): string {
  if (value === undefined || !isTitleNumber(value)) throw invalidTitleNumber(value ?? '');
  return value;
}

/** The query string as a plain object (first value of each name). */
export function queryObject(query: URLSearchParams): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of query) if (!(k in out)) out[k] = v;
  return out;
}
