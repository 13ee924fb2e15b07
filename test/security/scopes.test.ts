/**
 * Each field's scope is declared once, on the field, as the federation directives routers read
 * (`@requiresScopes`, `@authenticated`); the service enforces them from the same directives. The
 * table below is the issue's; every root field declares something, so a new field cannot be added
 * without deciding who may call it. Refusals are judged on the emulator's call log.
 */
import { describe, expect, test } from 'vitest';
import { buildSchema } from '../../src/graphql/schema';
import { requirementOf } from '../../src/graphql/field-scopes';
import { ALL_SCOPES, SCOPES } from '../../src/services/scopes';
import { DEV_API_KEYS, sha256Hex } from '../../src/services/callers';
import type { ApiKeyConfig } from '../../src/services/settings';
import { BuyTitleMutation, CreateCaseMutation, TitleQuery, ViewerQuery } from '../support/documents';
import { authHeader, newKey, serviceForTest } from '../support/harness';
import { postRaw } from '../support/post-raw';
import { docPage } from '../support/docs';

/** Who may call what: the table, field by field. */
const EXPECTED: Record<string, string[]> = {
  'titles:read': [
    'Query.chargeQuote',
    'Query.creditors',
    'Query.node',
    'Query.referenceList',
    'Query.referenceListPaths',
    'Query.title',
    'Query.titles',
  ],
  'titles:buy': [
    'Mutation.orderTitleDocument',
    'Mutation.purchasePendingApplications',
    'Mutation.purchaseTitleDetails',
    'Mutation.purchaseTitlePlans',
  ],
  'cases:write': ['Mutation.addDeedToCase', 'Mutation.createCase'],
  'charges:read': ['Query.chargeRecords', 'Query.chargeStatement', 'Query.spending'],
  // statementView decides what charges:organisation adds: no field needs it to be called.
  'charges:organisation': [],
};

describe('the directives on the schema', () => {
  test("every root field's scope is the issue's; viewer and registerUsage need a caller only; routers' fields nothing", () => {
    const schema = buildSchema();
    const byScope: Record<string, string[]> = Object.fromEntries(ALL_SCOPES.map((s) => [s, []]));
    const callerOnly: string[] = [];
    const undeclared: string[] = [];
    for (const root of [schema.getQueryType()!, schema.getMutationType()!]) {
      for (const field of Object.values(root.getFields())) {
        const coordinate = `${root.name}.${field.name}`;
        const requirement = requirementOf(field);
        if (!requirement) undeclared.push(coordinate);
        else if (requirement.anyOf.length === 0) callerOnly.push(coordinate);
        else for (const [scope] of requirement.anyOf) byScope[scope!]!.push(coordinate);
      }
    }
    for (const list of Object.values(byScope)) list.sort();
    expect(byScope).toEqual(EXPECTED);
    expect(callerOnly.sort()).toEqual(['Query.registerUsage', 'Query.viewer']);
    // Federation's own: a router reads `_service`; `_entities` resolves Titles, which need titles:read (below).
    expect(undeclared.sort()).toEqual(['Query._entities', 'Query._service']);
  });

  test("the README's scope table is services/scopes.ts's list, in its words, naming each scope's fields", () => {
    const readme = docPage('authentication');
    const section = readme.slice(
      readme.indexOf('## Sign-in and scopes'),
      readme.indexOf('\n## ', readme.indexOf('## Sign-in and scopes') + 5),
    );
    const rows = [...section.matchAll(/^\| `([a-z]+:[a-z]+)` \| (.*) \|$/gm)].map(([, scope, text]) => [scope!, text!] as const);
    expect(rows.map(([scope]) => scope)).toEqual(ALL_SCOPES);
    for (const [scope, text] of rows) {
      expect(text.startsWith(SCOPES[scope as keyof typeof SCOPES]), scope).toBe(true);
      for (const coordinate of EXPECTED[scope]!) expect(text, scope).toMatch(new RegExp(`\\b${coordinate.split('.')[1]}\\b`));
    }
  });

  test('Title itself needs titles:read, so a router asks it of every path to a Title, another subgraph’s references included', () => {
    expect(requirementOf(buildSchema().getType('Title') as never)).toEqual({ authenticated: true, anyOf: [['titles:read']] });
  });
});

/** A key of client-a with only these scopes. */
const keyWith = (scopes: ApiKeyConfig['scopes']): ApiKeyConfig => ({
  name: 'limited',
  apiKeySha256: sha256Hex('limited-key'),
  clientId: 'client-a',
  clientSecret: 'secret-a',
  organisation: 'ORG-A',
  scopes,
});

describe('the service enforces them', () => {
  test('each field lacking its scope is refused FORBIDDEN by name, the whole operation before any resolver: nothing is sent', async () => {
    const svc = await serviceForTest({ services: { apiKeys: [...DEV_API_KEYS, keyWith(['charges:read'])] } });
    const response = await postRaw(
      svc.yoga,
      { query: '{ spending { day } title(titleNumber: "MID15313") { status } creditors(query: "bank") { designation } }' },
      authHeader('limited-key'),
    );
    expect(response.status).toBe(403);
    const body = response.body as { data?: unknown; errors: { message: string; extensions: Record<string, unknown> }[] };
    expect(body.data ?? null).toBeNull();
    expect(body.errors.map((e) => [e.extensions.field, e.extensions.missingScopes, e.extensions.code])).toEqual([
      ['Query.title', ['titles:read'], 'FORBIDDEN'],
      ['Query.creditors', ['titles:read'], 'FORBIDDEN'],
    ]);
    expect(body.errors[0]!.message).toMatch(/^title needs the titles:read scope/);
    expect(svc.emulator.calls.count()).toBe(0);
  });

  test('a Title reached through _entities (another subgraph’s reference) needs titles:read too', async () => {
    const svc = await serviceForTest({ services: { apiKeys: [...DEV_API_KEYS, keyWith(['charges:read'])] } });
    const response = await postRaw(
      svc.yoga,
      { query: '{ _entities(representations: [{ __typename: "Title", titleNumber: "MID15313" }]) { ... on Title { status } } }' },
      { ...authHeader('limited-key'), accept: null },
    );
    const body = response.body as { errors: { extensions: Record<string, unknown> }[] };
    expect(body.errors[0]!.extensions).toMatchObject({ code: 'FORBIDDEN', field: 'Query._entities', missingScopes: ['titles:read'] });
    expect(svc.emulator.calls.count()).toBe(0);
  });

  test('createCase needs cases:write; a key without it sends nothing, and reads what it may', async () => {
    const svc = await serviceForTest({ services: { apiKeys: [...DEV_API_KEYS, keyWith(['titles:read', 'titles:buy'])] } });
    const refused = await svc.gql(
      CreateCaseMutation,
      {
        fas: '1877',
        input: {
          reference: 'R',
          contactEmail: 'a@b.example',
          contactTelephone: '0131',
          titleNumbers: ['MID15313'],
          idempotencyKey: newKey(),
        },
      },
      'limited-key',
    );
    expect(refused.errors?.[0]).toMatchObject({ extensions: { code: 'FORBIDDEN', missingScopes: ['cases:write'] } });
    expect(svc.emulator.calls.count()).toBe(0);
    expect((await svc.gql(TitleQuery, { titleNumber: 'MID15313' }, 'limited-key')).data!.title!.titleNumber).toBe('MID15313');
    expect((await svc.gql(ViewerQuery, {}, 'limited-key')).data!.viewer.scopes).toEqual(['titles:read', 'titles:buy']);
  });

  test('a download by bare path needs titles:read: refused 403 FORBIDDEN, nothing sent', async () => {
    const svc = await serviceForTest({ services: { apiKeys: [...DEV_API_KEYS, keyWith(['charges:read'])] } });
    const response = await svc.get('/downloads/titles/MID15313/documents/some-id', 'limited-key');
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ error: { code: 'FORBIDDEN', message: expect.stringContaining('titles:read') } });
    expect(svc.emulator.calls.count()).toBe(0);
  });

  test('a key without scopes has every scope but charges:organisation, as before scopes existed', async () => {
    const svc = await serviceForTest();
    const bought = await svc.gql(
      BuyTitleMutation,
      { fas: '0877', input: { titleNumber: 'MID15313', idempotencyKey: newKey() } },
      'dev-key-a2',
    );
    expect(bought.data!.purchaseTitleDetails.charges).toHaveLength(1);
  });
});
