/**
 * Every register route in ONE module (docs/emulator.md), relative to the base address
 * that ends in /v1. The emulator matches requests against these definitions, the REST client
 * builds its URLs from them, and the OpenAPI document is generated from them, so swapping in
 * the real register's paths is a change to this file only.
 */
import { z } from 'zod';
import * as wire from './wire';

export type HttpMethod = 'GET' | 'POST';
export type RouteEffect = 'charges' | 'creates' | 'none';

export interface RouteDef {
  /** Stable name, used for logs, metrics, fault injection and the OpenAPI operationId. */
  readonly name: string;
  readonly method: HttpMethod;
  /** Template: `{param}` is one segment, `{param+}` keeps its slashes (reference-list paths). */
  readonly path: string;
  readonly summary: string;
  readonly auth: 'basic' | 'bearer';
  /**
   * What the call does at the register besides answering. It, not the HTTP method, decides
   * whether a failed call may be sent again (see `shouldRetry` in retry.ts): `charges` bills
   * the caller's FAS account (such routes take `fas` and `reference`; GETs among them),
   * `creates` makes a case or deed, `none` only reads.
   */
  readonly effect: RouteEffect;
  readonly query?: z.ZodType;
  readonly body?: z.ZodType;
  /** `pdf` for binary downloads. */
  readonly response: z.ZodType | 'pdf';
  readonly successStatus: number;
}

const define = <const R extends RouteDef>(r: R) => r;

export const ROUTES = {
  token: define({
    name: 'token',
    method: 'POST',
    path: '/oauth/token',
    summary: 'OAuth 2.0 client credentials token (HTTP Basic clientId:clientSecret, no body)',
    auth: 'basic',
    effect: 'none',
    query: z.object({ grant_type: z.literal('client_credentials') }),
    response: wire.TokenResponse,
    successStatus: 200,
  }),
  titleSummary: define({
    name: 'titleSummary',
    method: 'GET',
    path: '/titles/{titleNumber}/summary',
    summary: 'Title summary (free, any status; reduced content unless registered)',
    auth: 'bearer',
    effect: 'none',
    response: wire.TitleSummaryResponse,
    successStatus: 200,
  }),
  titleDetails: define({
    name: 'titleDetails',
    method: 'GET',
    path: '/titles/{titleNumber}/details',
    summary: 'Title details (chargeable: title data and plans; registered titles only)',
    auth: 'bearer',
    effect: 'charges',
    query: wire.ChargeQuery,
    response: wire.TitleDetailsResponse,
    successStatus: 200,
  }),
  pendingApplications: define({
    name: 'pendingApplications',
    method: 'GET',
    path: '/titles/{titleNumber}/pending-applications',
    summary: 'Advance notices and pending applications (chargeable; registered and draft titles)',
    auth: 'bearer',
    effect: 'charges',
    query: wire.ChargeQuery,
    response: wire.PendingApplicationsResponse,
    successStatus: 200,
  }),
  orderDocument: define({
    name: 'orderDocument',
    method: 'POST',
    path: '/titles/{titleNumber}/documents',
    summary: 'Order a title document PDF (chargeable for the parts requested)',
    auth: 'bearer',
    effect: 'charges',
    query: wire.ChargeQuery,
    body: wire.OrderDocumentRequest,
    response: wire.OrderDocumentResponse,
    successStatus: 201,
  }),
  downloadDocument: define({
    name: 'downloadDocument',
    method: 'GET',
    path: '/titles/{titleNumber}/documents/{documentId}',
    summary: 'Download an ordered title document (free; issuing client only, until end of day)',
    auth: 'bearer',
    effect: 'none',
    response: 'pdf',
    successStatus: 200,
  }),
  purchasePlans: define({
    name: 'purchasePlans',
    method: 'POST',
    path: '/titles/{titleNumber}/plans',
    summary: 'Purchase all plans of a title (chargeable; 200 with empty plans and no charge when none)',
    auth: 'bearer',
    effect: 'charges',
    query: wire.ChargeQuery,
    response: wire.PurchasePlansResponse,
    successStatus: 200,
  }),
  downloadPlan: define({
    name: 'downloadPlan',
    method: 'GET',
    path: '/titles/{titleNumber}/plans/{planId}',
    summary: 'Download a purchased plan (free; issuing client only, until end of day)',
    auth: 'bearer',
    effect: 'none',
    response: 'pdf',
    successStatus: 200,
  }),
  securities: define({
    name: 'securities',
    method: 'GET',
    path: '/titles/{titleNumber}/securities',
    summary: 'Registered securities of a title',
    auth: 'bearer',
    effect: 'none',
    response: wire.SecuritiesResponse,
    successStatus: 200,
  }),
  creditors: define({
    name: 'creditors',
    method: 'GET',
    path: '/creditors',
    summary: 'Search known creditors (at most 15 results)',
    auth: 'bearer',
    effect: 'none',
    query: wire.CreditorQuery,
    response: wire.CreditorsResponse,
    successStatus: 200,
  }),
  createCase: define({
    name: 'createCase',
    method: 'POST',
    path: '/cases',
    summary: 'Create a case over one registered title',
    auth: 'bearer',
    effect: 'creates',
    body: wire.CreateCaseRequest,
    response: wire.CreateCaseResponse,
    successStatus: 201,
  }),
  addDeed: define({
    name: 'addDeed',
    method: 'POST',
    path: '/cases/{caseId}/deeds',
    summary: 'Add a deed (types 1, 11, 20) to a case of the caller organisation',
    auth: 'bearer',
    effect: 'creates',
    body: wire.AddDeedRequest,
    response: wire.AddDeedResponse,
    successStatus: 201,
  }),
  listPaths: define({
    name: 'listPaths',
    method: 'GET',
    path: '/ref',
    summary: 'Discover every reference-list path',
    auth: 'bearer',
    effect: 'none',
    response: wire.ListPathsResponse,
    successStatus: 200,
  }),
  referenceList: define({
    name: 'referenceList',
    method: 'GET',
    path: '/ref/{path+}',
    summary: 'One reference list: basic (default), detailed or ordered view; ETag and If-None-Match',
    auth: 'bearer',
    effect: 'none',
    query: z.object({ view: wire.ListView.optional() }),
    response: z.union([wire.BasicList, wire.DetailedList, wire.OrderedList]),
    successStatus: 200,
  }),
  openapi: define({
    name: 'openapi',
    method: 'GET',
    path: '/openapi.json',
    summary: 'This OpenAPI 3.1 description',
    auth: 'basic',
    effect: 'none',
    response: z.record(z.string(), z.unknown()),
    successStatus: 200,
  }),
} as const;

export type RouteName = keyof typeof ROUTES;
export const ROUTE_LIST: readonly RouteDef[] = Object.values(ROUTES);

/** A call that charges or creates: never sent a second time once it may have reached the register. */
export const hasEffect = (route: RouteDef): boolean => route.effect !== 'none';

/** The routes that charge or create, by name: a table keyed by it must handle every one (the money fault matrix does). */
export type EffectfulRouteName = { [R in RouteName]: (typeof ROUTES)[R]['effect'] extends 'none' ? never : R }[RouteName];

/** The same, at run time, straight from the route table. */
export const EFFECTFUL_ROUTES = ROUTE_LIST.filter(hasEffect).map((route) => route.name as EffectfulRouteName);

type PathPart = string | { key: string; greedy: boolean };
const PATH_PARAMETER = /\{(\w+)(\+?)\}/g;
const templates = new Map<string, readonly PathPart[]>();

/** A path template split once into its text and its parameters: every register call fills one. */
function templateOf(path: string): readonly PathPart[] {
  let parts = templates.get(path);
  if (!parts) {
    const split: PathPart[] = [];
    let from = 0;
    for (const m of path.matchAll(PATH_PARAMETER)) {
      if (m.index > from) split.push(path.slice(from, m.index));
      split.push({ key: m[1]!, greedy: m[2] === '+' });
      from = m.index + m[0].length;
    }
    if (from < path.length) split.push(path.slice(from));
    parts = split;
    templates.set(path, parts);
  }
  return parts;
}

/** Fills a path template. Segments are URL-encoded; a `{name+}` parameter keeps its slashes. */
export function buildPath(route: RouteDef, params: Record<string, string> = {}): string {
  let path = '';
  for (const part of templateOf(route.path)) {
    if (typeof part === 'string') {
      path += part;
      continue;
    }
    const value = params[part.key];
    if (value === undefined) throw new Error(`missing path parameter ${part.key} for route ${route.name}`);
    path += part.greedy ? value.split('/').map(encodeURIComponent).join('/') : encodeURIComponent(value);
  }
  return path;
}

interface CompiledRoute {
  route: RouteDef;
  regex: RegExp;
  keys: string[];
}

const compiled: CompiledRoute[] = ROUTE_LIST.map((route) => {
  const keys: string[] = [];
  const source = route.path.replace(/\{(\w+)(\+?)\}/g, (_, key: string, greedy: string) => {
    keys.push(key);
    return greedy ? '(.+)' : '([^/]+)';
  });
  return { route, keys, regex: new RegExp(`^${source}$`) };
});

/** Finds the route for a method and a path relative to the base (no /v1 prefix). */
export function matchRoute(
  method: string,
  relativePath: string,
): { route: RouteDef; params: Record<string, string> } | { route: undefined; pathMatched: boolean } {
  let pathMatched = false;
  for (const c of compiled) {
    const m = c.regex.exec(relativePath);
    if (!m) continue;
    pathMatched = true;
    if (c.route.method !== method) continue;
    const params: Record<string, string> = {};
    c.keys.forEach((k, i) => {
      params[k] = decodeURIComponent(m[i + 1]!);
    });
    return { route: c.route, params };
  }
  return { route: undefined, pathMatched };
}
