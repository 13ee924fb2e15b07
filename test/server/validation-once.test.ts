/**
 * Validation runs once per schema and document (src/server/validation-once.ts): the hooks of the
 * plugins run for a document the first time it comes, and its verdict, reworded by their
 * after-hooks, answers every later request with the same document. A different document, or
 * the same text under another schema, is validated on its own.
 */
import { createSchema, createYoga, type Plugin } from 'graphql-yoga';
import { GraphQLError, type ValidationRule } from 'graphql';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DEFAULT_LIMITS } from '../../src/security/settings';
import { validatedOncePerDocument } from '../../src/server/validation-once';
import { startService, type Service } from '../support/harness';
import { postRaw } from '../support/post-raw';

function counted() {
  const seen: string[] = [];
  const plugin: Plugin = {
    onValidate({ params, addValidationRule }) {
      seen.push(params.documentAST.loc?.source.body ?? '');
      const refuseForbidden: ValidationRule = (context) => ({
        Field(node) {
          if (node.name.value === 'forbidden') context.reportError(new GraphQLError('forbidden is refused', { nodes: [node] }));
        },
      });
      addValidationRule(refuseForbidden);
      return ({ valid, result, setResult }) => {
        if (!valid) setResult(result.map((error) => new GraphQLError(`reworded: ${error.message}`)));
      };
    },
  };
  return { seen, plugin };
}

const schema = () =>
  createSchema({ typeDefs: 'type Query { allowed: Int, forbidden: Int }', resolvers: { Query: { allowed: () => 1, forbidden: () => 2 } } });

async function ask(yoga: { fetch(url: string, init: RequestInit): Response | Promise<Response> }, query: string) {
  const answer = await postRaw(yoga, { query }, { authorization: null, accept: 'application/json' });
  return answer.body;
}

describe('a document validated once', () => {
  test('the hooks run for the first request of a document, and later ones get the same verdict', async () => {
    const { seen, plugin } = counted();
    const yoga = createYoga({
      schema: schema(),
      parserAndValidationCache: { validationCache: false },
      plugins: validatedOncePerDocument([plugin]),
    });
    for (let i = 0; i < 3; i++) expect(await ask(yoga, '{ allowed }')).toEqual({ data: { allowed: 1 } });
    for (let i = 0; i < 3; i++) {
      const body = await ask(yoga, '{ forbidden }');
      expect(body.data).toBeUndefined();
      expect(body.errors?.map((e) => e.message)).toEqual(['reworded: forbidden is refused']);
    }
    expect(seen).toEqual(['{ allowed }', '{ forbidden }']);
  });

  test('another schema validates the same text again', async () => {
    const { seen, plugin } = counted();
    const plugins = validatedOncePerDocument([plugin]);
    for (const yoga of [createYoga({ schema: schema(), plugins }), createYoga({ schema: schema(), plugins })]) {
      expect((await ask(yoga, '{ forbidden }')).errors?.[0]?.message).toBe('reworded: forbidden is refused');
    }
    expect(seen).toEqual(['{ forbidden }', '{ forbidden }']);
  });

  test('a plugin without an onValidate hook keeps its other hooks', () => {
    const onExecute = () => undefined;
    const [kept, gathered] = validatedOncePerDocument<Plugin>([{ onExecute, onValidate: () => undefined }]);
    expect(kept).toEqual({ onExecute });
    expect(Object.keys(gathered!)).toEqual(['onValidate']);
  });
});

describe('the service: refusals made in validation hold on every request of a document', () => {
  let svc: Service & { stop(): Promise<void> };
  beforeAll(async () => {
    // Production's hardening: introspection refused in validation, like the limits.
    svc = await startService({ app: { hardening: { limits: DEFAULT_LIMITS, introspection: false, fieldSuggestions: false } } });
  });
  afterAll(() => svc?.stop());

  test('too many aliases, and introspection, each refused every time', async () => {
    const aliases = `{ ${Array.from({ length: DEFAULT_LIMITS.maxAliases + 1 }, (_, i) => `a${i}: __typename`).join(' ')} }`;
    const introspection = '{ __schema { queryType { name } } }';
    for (const [query, code] of [
      [aliases, 'ALIAS_LIMIT_EXCEEDED'],
      [introspection, 'GRAPHQL_VALIDATION_FAILED'],
    ] as const) {
      for (let i = 0; i < 3; i++) {
        const answer = await postRaw(svc.yoga, { query });
        expect(answer.body.data).toBeUndefined();
        expect(answer.body.errors?.[0]?.extensions?.code).toBe(code);
      }
    }
  });
});
