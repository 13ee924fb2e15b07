/** What a route handler receives and returns. */
import type { IncomingHttpHeaders } from 'node:http';
import type { RouteDef } from '../register/contract/routes';
import type { Ledger } from './ledger';
import type { Caller, PdfBody, Store } from './store';

export interface ResolvedOptions {
  host: string;
  port: number;
  latencyMs: number;
  dailyQuota: number;
  tokenTtlSeconds: number;
  largePlanBytes: number;
}

export interface Env {
  store: Store;
  ledger: Ledger;
  options: ResolvedOptions;
  now(): Date;
}

export interface RequestContext {
  env: Env;
  route: RouteDef;
  params: Record<string, string>;
  query: URLSearchParams;
  /** Parsed JSON body; undefined when the request had none. */
  body: unknown;
  headers: IncomingHttpHeaders;
  /** The authenticated API client (bearer routes). */
  caller: Caller;
  /** The emulator time at which the request arrived. */
  now: Date;
}

export interface Reply {
  status: number;
  headers?: Record<string, string>;
  /** JSON body (already checked against the route's wire schema). */
  json?: unknown;
  /** JSON body already serialised (and checked), sent byte for byte. */
  jsonText?: string;
  pdf?: PdfBody;
  filename?: string;
}

export type Handler = (ctx: RequestContext) => Reply | Promise<Reply>;

/** A JSON reply built with the route's wire schema (the one contract). */
export function jsonReply(ctx: RequestContext, value: unknown, status = ctx.route.successStatus): Reply {
  const schema = ctx.route.response;
  return { status, json: schema === 'pdf' ? value : schema.parse(value) };
}
