/**
 * A federation router's key (`router: true` in the tenants file) reads the schema and nothing
 * else: `_service { sdl }`, `__typename` (the gateway's health check) and nothing that would
 * need a register client. Anything else is refused before any resolver runs, saying to forward
 * each caller's own key: a gateway that sends its router key on every subgraph request would
 * otherwise act for every caller under one identity.
 */
import { topLevelError } from '../graphql/error-codes';
import type { DocumentNode, SelectionSetNode } from 'graphql';
import { operationToRun } from '../observability/request-record';
import type { Plugin } from 'graphql-yoga';
import type { Context } from '../graphql/context';
import { ROUTER_KEY_MESSAGE } from '../services/callers';
import { fieldsOf, fragmentsOf } from '../graphql/selections';

const ALLOWED_ROOT_FIELDS = new Set(['_service', '__typename']);

/** 403 under application/graphql-response+json; 200 under application/json, where gateways read the error itself. */
export const routerKeyRefusal = () => topLevelError('ROUTER_KEY_NOT_A_CLIENT', ROUTER_KEY_MESSAGE, { http: { status: 403, spec: true } });

/** True when every root field of the operation (through fragments) is one a router may read. */
function onlySchema(set: SelectionSetNode, document: DocumentNode): boolean {
  for (const { field } of fieldsOf(set, fragmentsOf(document))) if (!ALLOWED_ROOT_FIELDS.has(field.name.value)) return false;
  return true;
}

export function useRouterKeyScope(): Plugin {
  return {
    onExecute({ args, setResultAndStopExecution }) {
      if (!(args.contextValue as Partial<Context>).caller?.router) return;
      const document = args.document as DocumentNode;
      const operation = operationToRun(document, args.operationName);
      if (operation?.operation === 'query' && onlySchema(operation.selectionSet, document)) return;
      setResultAndStopExecution({ errors: [routerKeyRefusal()] });
    },
  };
}
