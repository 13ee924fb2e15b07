/**
 * Allow-list mode: the service accepts only the operations that `npm run codegen` emitted into
 * test/gql/persisted-documents.json, named by the id the client preset stamps on each typed
 * document (`__meta__.hash`).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { GraphQLFormattedError } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/server/app';
import { ConfigError, loadConfig } from '../../src/config';
import { loadPersistedOperations } from '../../src/config';
import type { PersistedOperations } from '../../src/server/settings';
import { newKey, startService } from '../support/harness';
import { OrderTitleDocumentMutation, TitleQuery } from '../support/documents';
import { postRaw } from '../support/post-raw';

const MANIFEST = 'test/gql/persisted-documents.json';

/** The id the client preset puts on a typed document. */
function idOf(document: unknown): string {
  const hash = (document as { __meta__?: { hash?: string } }).__meta__?.hash;
  if (!hash) throw new Error('typed document without __meta__.hash: run npm run codegen');
  return hash;
}

interface Body {
  data?: Record<string, any> | null;
  errors?: GraphQLFormattedError[];
}

let svc: Awaited<ReturnType<typeof startService>>;
beforeAll(async () => {
  svc = await startService();
});
afterAll(async () => {
  await svc?.stop();
});

function appWith(persistedOperations?: PersistedOperations) {
  const yoga = createApp(svc.services, persistedOperations ? { persistedOperations } : {});
  return async (body: Record<string, unknown>): Promise<{ status: number } & Body> => {
    const answer = await postRaw(yoga, body);
    return { status: answer.status, ...(answer.body as Body) };
  };
}

const ARBITRARY = '{ title(titleNumber: "MID15313") { titleNumber status } }';

describe('PERSISTED_OPERATIONS_ONLY=true', () => {
  const post = () => appWith(loadPersistedOperations([MANIFEST], true));

  it('runs a listed query sent by its id (documentId, as the client preset emits it)', async () => {
    const result = await post()({ documentId: idOf(TitleQuery), variables: { titleNumber: 'MID15313' } });
    expect(result.errors).toBeUndefined();
    expect(result.data?.title).toMatchObject({ titleNumber: 'MID15313', status: 'REGISTERED' });
  });

  it("takes Relay's doc_id as well as documentId", async () => {
    const result = await post()({ doc_id: idOf(TitleQuery), variables: { titleNumber: 'MID15313' } } as never);
    expect(result.errors).toBeUndefined();
    expect(result.data?.title).toMatchObject({ titleNumber: 'MID15313', status: 'REGISTERED' });
  });

  it('also takes the id in the APQ extension, with or without the sha256: prefix', async () => {
    const hex = idOf(TitleQuery).replace(/^sha256:/, '');
    for (const sha256Hash of [hex, `sha256:${hex}`]) {
      const result = await post()({
        variables: { titleNumber: 'MID15313' },
        extensions: { persistedQuery: { version: 1, sha256Hash } },
      });
      expect(result.errors).toBeUndefined();
      expect(result.data?.title?.titleNumber).toBe('MID15313');
    }
  });

  it('runs a listed mutation (orderTitleDocument) by its id', async () => {
    const result = await post()({
      documentId: idOf(OrderTitleDocumentMutation),
      variables: {
        fas: '0877',
        input: { titleNumber: 'MID15313', titleSheet: { include: true }, idempotencyKey: newKey('po-doc') },
      },
    });
    expect(result.errors).toBeUndefined();
    expect(result.data?.orderTitleDocument.userErrors).toEqual([]);
    expect(result.data?.orderTitleDocument.document.downloadUrl).toMatch(
      /^https?:\/\/.+\/downloads\/titles\/MID15313\/documents\/.+signature=/,
    );
  });

  it('refuses query text with a clear error', async () => {
    const result = await post()({ query: ARBITRARY });
    expect(result.status).toBe(400);
    expect(result.data ?? undefined).toBeUndefined();
    expect(result.errors).toHaveLength(1);
    expect(result.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_ONLY');
    expect(result.errors?.[0]?.message).toMatch(/only persisted operations/i);
  });

  it('refuses the text of a listed operation too: only the id is accepted', async () => {
    const manifest = loadPersistedOperations([MANIFEST], true);
    const text = manifest.store.get(idOf(TitleQuery));
    expect(text).toBeDefined();
    const result = await post()({ query: text, variables: { titleNumber: 'MID15313' } });
    expect(result.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_ONLY');
  });

  it('refuses an unknown id', async () => {
    const result = await post()({ documentId: `sha256:${'0'.repeat(64)}` });
    expect(result.status).toBe(400);
    expect(result.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_IN_LIST');
    expect(result.errors?.[0]?.message).toMatch(/not in the list/);
  });

  it('refuses a request with neither id nor query', async () => {
    const result = await post()({ variables: {} });
    expect(result.status).toBe(400);
    expect(result.errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_ID_REQUIRED');
  });
});

describe('persisted operations listed, PERSISTED_OPERATIONS_ONLY off', () => {
  it('accepts both listed ids and arbitrary queries', async () => {
    const post = appWith(loadPersistedOperations([MANIFEST], false));
    const byId = await post({ documentId: idOf(TitleQuery), variables: { titleNumber: 'MID15313' } });
    expect(byId.data?.title?.status).toBe('REGISTERED');
    const byRelayId = await post({ doc_id: idOf(TitleQuery), variables: { titleNumber: 'MID15313' } } as never);
    expect(byRelayId.data?.title?.status).toBe('REGISTERED');
    const arbitrary = await post({ query: ARBITRARY });
    expect(arbitrary.errors).toBeUndefined();
    expect(arbitrary.data?.title).toEqual({ titleNumber: 'MID15313', status: 'REGISTERED' });
  });
});

describe('no persisted operations configured (the default)', () => {
  it('accepts arbitrary queries', async () => {
    const result = await appWith()({ query: ARBITRARY });
    expect(result.errors).toBeUndefined();
    expect(result.data?.title).toEqual({ titleNumber: 'MID15313', status: 'REGISTERED' });
  });
});

describe('configuration', () => {
  const dir = mkdtempSync(join(tmpdir(), 'titlegraph-po-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('reads PERSISTED_OPERATIONS_FILE (several files, comma-separated) and PERSISTED_OPERATIONS_ONLY', () => {
    const extra = join(dir, 'extra.json');
    writeFileSync(extra, JSON.stringify({ [`${'a'.repeat(64)}`]: '{ referenceListPaths }' }));
    const config = loadConfig({ PERSISTED_OPERATIONS_FILE: `${MANIFEST}, ${extra}`, PERSISTED_OPERATIONS_ONLY: 'true' });
    const loaded = config.persistedOperations!;
    expect(loaded.only).toBe(true);
    expect(loaded.store.get(idOf(TitleQuery))).toMatch(/^query Title\(/);
    // A bare hex key (older codegen, APQ lists) is the same id with the sha256: prefix.
    expect(loaded.store.get(`sha256:${'a'.repeat(64)}`)).toBe('{ referenceListPaths }');
    expect(loadConfig({}).persistedOperations).toBeUndefined();
  });

  it('stops at start on a bad setting, naming it', () => {
    expect(() => loadConfig({ PERSISTED_OPERATIONS_ONLY: 'true' })).toThrow(/PERSISTED_OPERATIONS_FILE is not set/);
    expect(() => loadConfig({ PERSISTED_OPERATIONS_FILE: MANIFEST, PERSISTED_OPERATIONS_ONLY: 'yes' })).toThrow(
      /PERSISTED_OPERATIONS_ONLY/,
    );
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '{ not json');
    expect(() => loadPersistedOperations([broken], true)).toThrow(ConfigError);
    expect(() => loadPersistedOperations([join(dir, 'missing.json')], true)).toThrow(/PERSISTED_OPERATIONS_FILE/);
    const invalid = join(dir, 'invalid.json');
    writeFileSync(invalid, JSON.stringify({ 'sha256:abc': 'query {' }));
    expect(() => loadPersistedOperations([invalid], true)).toThrow(/not valid GraphQL/);
  });
});
