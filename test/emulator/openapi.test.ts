import { ROUTE_LIST } from '../../src/register/contract/routes';
import { describe, expect, test } from '../support/emulator-fixtures';

describe('GET /openapi.json', () => {
  test('OpenAPI 3.1 with every route, its parameters, bodies, responses and errors', async ({ api, emu }) => {
    const r = await api.get('/openapi.json', { client: null });
    const doc = r.json;
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.servers).toEqual([{ url: emu.url }]);
    expect(doc.components.securitySchemes).toMatchObject({
      bearerAuth: { type: 'http', scheme: 'bearer' },
      basicAuth: { type: 'http', scheme: 'basic' },
    });
    const ops = Object.values(doc.paths as Record<string, Record<string, { operationId: string }>>).flatMap((p) =>
      Object.values(p).map((o) => o.operationId),
    );
    expect(ops.sort()).toEqual(ROUTE_LIST.map((r) => r.name).sort());
    for (const route of ROUTE_LIST) {
      const op = doc.paths[route.path.replace('{path+}', '{path}')][route.method.toLowerCase()];
      expect(op.responses[String(route.successStatus)], route.name).toBeDefined();
      if (route.body) expect(op.requestBody.content['application/json'].schema, route.name).toBeDefined();
      const pathParams = [...route.path.matchAll(/\{(\w+)\+?\}/g)].map((m) => m[1]);
      expect(op.parameters?.filter((p: { in: string }) => p.in === 'path').map((p: { name: string }) => p.name) ?? [], route.name).toEqual(
        pathParams,
      );
      if (route.auth === 'bearer') {
        expect(op.security).toEqual([{ bearerAuth: [] }]);
        expect(op.responses['401'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/Error' });
        expect(op.responses['429'].headers['Retry-After']).toBeDefined();
      }
      expect(op['x-effect'], route.name).toBe(route.effect);
      if (route.effect === 'charges') {
        expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['400', '402', '403', '404', '422']));
        expect(op.parameters.find((p: { name: string }) => p.name === 'fas')).toMatchObject({ in: 'query', required: true });
        expect(op.parameters.find((p: { name: string }) => p.name === 'reference')).toMatchObject({ in: 'query', required: false });
      }
    }
    expect(doc.paths['/openapi.json'].get.security).toEqual([]);
    expect(doc.paths['/oauth/token'].post.security).toEqual([{ basicAuth: [] }]);
    expect(doc.paths['/titles/{titleNumber}/documents/{documentId}'].get.responses['200'].content['application/pdf']).toBeDefined();
    expect(doc.paths['/ref/{path}'].get.responses['304']).toBeDefined();
  });

  test('schemas come from the wire contract (generated, with named components)', async ({ api }) => {
    const doc = (await api.get('/openapi.json', { client: null })).json;
    const schemas = doc.components.schemas;
    for (const name of [
      'Error',
      'TitleSummary',
      'TitleDetails',
      'Charge',
      'CreateCaseRequest',
      'AddDeedRequest',
      'DeedParty',
      'CreditorApplicant',
    ])
      expect(schemas[name], name).toBeDefined();
    expect(schemas.CreateCaseRequest.properties.reference.maxLength).toBe(50);
    expect(schemas.AddDeedRequest.properties.deedType.enum).toEqual(['1', '11', '20']);
    expect(schemas.Error.required).toEqual(['code', 'message']);
    expect(JSON.stringify(doc)).not.toContain('#/$defs/');
    // Every $ref resolves.
    for (const m of JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)) expect(schemas[m[1]!], m[1]).toBeDefined();
  });
});
