/**
 * When Yoga cannot tell which operation to run, it says "Could not determine what operation to
 * execute." This plugin says why, naming the document's operations: operationName missing with
 * several operations, an operationName the document does not have, or no operation at all.
 * The document is parsed again only on that error path.
 */
import type { TopLevelErrorCode } from '../graphql/error-codes';
import { GraphQLError, Kind, parse } from 'graphql';
import type { Plugin } from 'graphql-yoga';

const RESOLUTION_FAILURE: TopLevelErrorCode = 'OPERATION_RESOLUTION_FAILURE';

export function operationNameHelp(query: unknown, operationName: unknown): string | undefined {
  if (typeof query !== 'string') return undefined;
  let names: (string | undefined)[];
  try {
    names = parse(query)
      .definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION)
      .map((d) => (d as { name?: { value: string } }).name?.value);
  } catch {
    return undefined;
  }
  const listed = names.map((n) => n ?? '(anonymous)').join(', ');
  if (names.length === 0) return 'The document has no operation to run, only fragments: add a query or a mutation.';
  if (typeof operationName === 'string' && operationName !== '') {
    return `The document has no operation named "${operationName}"; it has ${listed}.`;
  }
  return `operationName is required: the document has ${names.length} operations (${listed}); send the name of the one to run as operationName.`;
}

export function useOperationNameHelp(): Plugin {
  const paramsOf = new WeakMap<Request, { query?: unknown; operationName?: unknown }>();
  return {
    onParams({ params, request }) {
      paramsOf.set(request, params);
    },
    onResultProcess({ request, result, setResult }) {
      if (Array.isArray(result) || !result || typeof result !== 'object' || !('errors' in result) || !result.errors) return;
      const errors = result.errors as readonly GraphQLError[];
      const failure = errors.findIndex((e) => e.extensions?.code === RESOLUTION_FAILURE);
      if (failure < 0) return;
      const params = paramsOf.get(request);
      const help = params && operationNameHelp(params.query, params.operationName);
      if (!help) return;
      // A new error in place of Yoga's: an error is never written to by anyone but its maker.
      const helped = new GraphQLError(help, { extensions: errors[failure]!.extensions });
      setResult({ ...result, errors: errors.map((e, i) => (i === failure ? helped : e)) });
    },
  };
}
