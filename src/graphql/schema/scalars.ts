/**
 * The contract's custom scalars. Register identifiers are validated at parse time, so a
 * malformed value never reaches a resolver (and never costs a register call). Messages name
 * the rule; the caller's own value is shown back to them by the HTTP edge, never logged.
 */
import { GraphQLError, GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import { DateResolver, DateTimeResolver, JSONObjectResolver } from 'graphql-scalars';
import { isCaseId, isFas, isTitleNumber } from '../../register/contract/rules';

/**
 * A value that breaks a scalar's rule. A plain error, not a GraphQLError: graphql-js then reports
 * it with the value's place in the document (its locations), which the HTTP edge words as
 * `Argument "fas" has invalid value "087": FasNumber must be 4 to 6 digits.` (server/input-errors.ts).
 */
export class ScalarRuleError extends Error {
  override name = 'ScalarRuleError';
}

function stringScalar(options: {
  name: string;
  description: string;
  rule: string;
  test: (value: string) => boolean;
}): GraphQLScalarType<string, string> {
  const valid = (value: unknown): value is string => typeof value === 'string' && options.test(value);
  const broken = () => new ScalarRuleError(`${options.name} ${options.rule}.`);
  return new GraphQLScalarType<string, string>({
    name: options.name,
    description: options.description,
    serialize: (value) => {
      if (valid(value)) return value;
      // Our own output breaking its rule: a fault of ours, never shown with the value.
      throw new GraphQLError(`${options.name} ${options.rule}.`);
    },
    parseValue: (value) => {
      if (!valid(value)) throw broken();
      return value;
    },
    parseLiteral: (ast: ValueNode) => {
      if (ast.kind !== Kind.STRING) throw new ScalarRuleError(`${options.name} must be given as a string.`);
      if (!valid(ast.value)) throw broken();
      return ast.value;
    },
  });
}

export const TitleNumberScalar = stringScalar({
  name: 'TitleNumber',
  description: 'Title number: 3 uppercase letters then 1 to 8 digits (e.g. MID15313).',
  rule: 'must be 3 uppercase letters then 1 to 8 digits, e.g. MID15313',
  test: isTitleNumber,
});

export const FasNumberScalar = stringScalar({
  name: 'FasNumber',
  description: 'Charging account number: 4 to 6 digits, kept as a string (leading zeros matter).',
  rule: 'must be 4 to 6 digits',
  test: isFas,
});

export const CaseIdScalar = stringScalar({
  name: 'CaseId',
  description: 'Case identifier as issued by the register (currently RLP, 2 digits, 8 uppercase letters).',
  rule: 'must be RLP, 2 digits and 8 uppercase letters, e.g. RLP01ABCDEFGH',
  test: isCaseId,
});

/** A reference-list value exactly as the register gives it: strings stay strings, numbers stay numbers. */
export const ReferenceValueScalar = new GraphQLScalarType<string | number, string | number>({
  name: 'ReferenceValue',
  description: 'A reference-list item value: a string or a number, as the register gives it.',
  serialize: (value) => {
    if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) return value;
    throw new GraphQLError('ReferenceValue must be a string or a finite number.');
  },
  parseValue: (value) => {
    if (typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value))) return value;
    throw new ScalarRuleError('ReferenceValue must be a string or a number.');
  },
  parseLiteral: (ast) => {
    if (ast.kind === Kind.STRING) return ast.value;
    if (ast.kind === Kind.INT || ast.kind === Kind.FLOAT) return Number(ast.value);
    throw new ScalarRuleError('ReferenceValue must be a string or a number.');
  },
});

/** graphql-scalars implementations, described in the contract's words. */
export const DateScalar = new GraphQLScalarType({
  ...DateResolver.toConfig(),
  description: 'ISO 8601 calendar date, YYYY-MM-DD (graphql-scalars LocalDate or Date).',
});
export const DateTimeScalar = new GraphQLScalarType({
  ...DateTimeResolver.toConfig(),
  description: 'ISO 8601 date-time with offset.',
});
export const JSONObjectScalar = new GraphQLScalarType({
  ...JSONObjectResolver.toConfig(),
  description: 'Arbitrary JSON object (graphql-scalars JSONObject).',
});
