/**
 * The OpenAPI 3.1 description, generated from ROUTES and the wire schemas (z.toJSONSchema),
 * never written by hand: every route, its parameters, request body, responses and errors.
 */
import { z } from 'zod';
import { ROUTE_LIST, type RouteDef, type RouteName } from '../register/contract/routes';
import { ErrorBody } from '../register/contract/wire';

type Json = Record<string, unknown>;

const ERRORS: Record<number, { description: string; codes: string[] }> = {
  400: { description: 'Invalid input (a limit or character rule; the field is named)', codes: ['INVALID_REQUEST', 'INVALID_TITLE_NUMBER'] },
  401: { description: 'Missing, unknown or expired credentials', codes: ['UNAUTHORISED'] },
  402: { description: 'The FAS account is at its credit limit', codes: ['CREDIT_LIMIT_EXCEEDED'] },
  403: { description: 'The FAS account is not one of the caller organisation, or of the wrong kind', codes: ['FAS_NOT_AUTHORISED'] },
  404: {
    description: 'Not found',
    codes: ['TITLE_NOT_FOUND', 'DOCUMENT_NOT_FOUND', 'CASE_NOT_FOUND', 'SECURITY_NOT_FOUND', 'LIST_NOT_FOUND'],
  },
  422: { description: 'Not possible for this title or case', codes: ['TITLE_STATUS_NOT_SUPPORTED', 'DEED_RULE_VIOLATION'] },
  429: { description: 'Daily quota of the organisation used up', codes: ['TOO_MANY_REQUESTS'] },
};

const ROUTE_ERRORS: Record<RouteName, { statuses: number[]; notFound?: string[]; unprocessable?: string[] }> = {
  token: { statuses: [400, 401] },
  titleSummary: { statuses: [400, 401, 404, 429], notFound: ['TITLE_NOT_FOUND'] },
  titleDetails: {
    statuses: [400, 401, 402, 403, 404, 422, 429],
    notFound: ['TITLE_NOT_FOUND'],
    unprocessable: ['TITLE_STATUS_NOT_SUPPORTED'],
  },
  pendingApplications: {
    statuses: [400, 401, 402, 403, 404, 422, 429],
    notFound: ['TITLE_NOT_FOUND'],
    unprocessable: ['TITLE_STATUS_NOT_SUPPORTED'],
  },
  orderDocument: {
    statuses: [400, 401, 402, 403, 404, 422, 429],
    notFound: ['TITLE_NOT_FOUND'],
    unprocessable: ['TITLE_STATUS_NOT_SUPPORTED'],
  },
  downloadDocument: { statuses: [400, 401, 404, 429], notFound: ['DOCUMENT_NOT_FOUND'] },
  purchasePlans: {
    statuses: [400, 401, 402, 403, 404, 422, 429],
    notFound: ['TITLE_NOT_FOUND'],
    unprocessable: ['TITLE_STATUS_NOT_SUPPORTED'],
  },
  downloadPlan: { statuses: [400, 401, 404, 429], notFound: ['DOCUMENT_NOT_FOUND'] },
  securities: { statuses: [400, 401, 404, 429], notFound: ['TITLE_NOT_FOUND'] },
  creditors: { statuses: [400, 401, 429] },
  createCase: { statuses: [400, 401, 403, 404, 422, 429], notFound: ['TITLE_NOT_FOUND'], unprocessable: ['TITLE_STATUS_NOT_SUPPORTED'] },
  addDeed: {
    statuses: [400, 401, 404, 422, 429],
    notFound: ['CASE_NOT_FOUND', 'SECURITY_NOT_FOUND'],
    unprocessable: ['DEED_RULE_VIOLATION'],
  },
  listPaths: { statuses: [401, 429] },
  referenceList: { statuses: [400, 401, 404, 429], notFound: ['LIST_NOT_FOUND'] },
  openapi: { statuses: [] },
};

class SchemaSet {
  readonly components: Record<string, Json> = {};

  /** JSON Schema of a zod schema; named sub-schemas move to components and are referenced. */
  convert(schema: z.ZodType, io: 'input' | 'output'): Json {
    const raw = z.toJSONSchema(schema, { target: 'draft-2020-12', io, unrepresentable: 'any' }) as Json;
    const text = JSON.stringify(raw).replaceAll('"#/$defs/', '"#/components/schemas/');
    const out = JSON.parse(text) as Json & { $defs?: Record<string, Json> };
    for (const [id, def] of Object.entries(out.$defs ?? {})) this.components[id] ??= def;
    delete out.$defs;
    delete out.$schema;
    return out;
  }
}

function operation(route: RouteDef, schemas: SchemaSet): Json {
  const parameters: Json[] = [];
  for (const m of route.path.matchAll(/\{(\w+)(\+?)\}/g)) {
    parameters.push({
      name: m[1],
      in: 'path',
      required: true,
      schema: { type: 'string' },
      ...(m[2] ? { description: 'List path; keeps its slashes in the URL (never URL-encoded), e.g. lr/application/deed/type' } : {}),
    });
  }
  if (route.query instanceof z.ZodObject) {
    for (const [name, field] of Object.entries(route.query.shape as Record<string, z.ZodType>)) {
      const optional = field.safeParse(undefined).success;
      parameters.push({ name, in: 'query', required: !optional, schema: schemas.convert(field, 'input') });
    }
  }
  const errors = ROUTE_ERRORS[route.name as RouteName] ?? { statuses: [] };
  const responses: Json = {};
  const success: Json =
    route.response === 'pdf'
      ? {
          description: 'The PDF (Content-Disposition: attachment)',
          content: { 'application/pdf': { schema: { type: 'string', contentMediaType: 'application/pdf' } } },
        }
      : { description: route.summary, content: { 'application/json': { schema: schemas.convert(route.response, 'output') } } };
  if (route.name === 'referenceList')
    success.headers = { ETag: { description: 'Strong ETag of this representation', schema: { type: 'string' } } };
  responses[String(route.successStatus)] = success;
  if (route.name === 'referenceList') responses['304'] = { description: 'Not modified (If-None-Match matched the ETag); no body' };
  for (const status of errors.statuses) {
    const e = ERRORS[status]!;
    const codes =
      status === 404
        ? (errors.notFound ?? e.codes)
        : status === 422
          ? (errors.unprocessable ?? e.codes)
          : status === 400 && !route.path.includes('{titleNumber}')
            ? ['INVALID_REQUEST']
            : e.codes;
    const headers: Json = {};
    if (status === 429) headers['Retry-After'] = { description: 'Seconds until the next London midnight', schema: { type: 'integer' } };
    if (status === 401) headers['WWW-Authenticate'] = { schema: { type: 'string' } };
    responses[String(status)] = {
      description: `${e.description}: ${codes.join(', ')}`,
      ...(Object.keys(headers).length ? { headers } : {}),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  return {
    operationId: route.name,
    summary: route.summary,
    tags: [route.path.split('/')[1] ?? 'register'],
    security: route.name === 'openapi' ? [] : route.auth === 'basic' ? [{ basicAuth: [] }] : [{ bearerAuth: [] }],
    ...(parameters.length ? { parameters } : {}),
    ...(route.body
      ? { requestBody: { required: true, content: { 'application/json': { schema: schemas.convert(route.body, 'input') } } } }
      : {}),
    responses,
    'x-effect': route.effect,
  };
}

let cached: Json | undefined;

/** The OpenAPI document (built once); `serverUrl` is the base address ending in /v1. */
export function openApiDocument(serverUrl: string): Json {
  if (!cached) {
    const schemas = new SchemaSet();
    const paths: Record<string, Json> = {};
    for (const route of ROUTE_LIST) {
      const path = route.path.replace(/\{(\w+)\+\}/g, '{$1}');
      paths[path] = { ...(paths[path] ?? {}), [route.method.toLowerCase()]: operation(route, schemas) };
    }
    schemas.convert(ErrorBody, 'output'); // registers components.Error (the schema carries id "Error")
    cached = {
      openapi: '3.1.0',
      info: {
        title: 'Land register REST API (titlegraph emulator)',
        version: '1.0.0',
        description:
          'Title information, documents and plans, securities, creditors, cases and deeds, reference lists. Errors are JSON {code, message, field?}.',
      },
      jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
      paths,
      components: {
        schemas: schemas.components,
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'Access token from POST /oauth/token (lives 5 minutes)' },
          basicAuth: { type: 'http', scheme: 'basic', description: 'clientId:clientSecret, token route only' },
        },
      },
    };
  }
  return { ...cached, servers: [{ url: serverUrl }] };
}
