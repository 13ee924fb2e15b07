/**
 * The persisted-query store takes only what an authenticated caller sent, once it parsed and
 * validated; a hash is scoped to its organisation; the store is bounded per organisation (the
 * least recently used goes) and in all; registrations per client are rate-limited. Judged on
 * the store's own table (SQLite here; the PostgreSQL store shares the same statements' shape,
 * and apq.test.ts runs it across replicas).
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, test } from 'vitest';
import type { AppOptions } from '../../src/server/app';
import { serviceForTest, type Service as Svc, type ServiceOverrides } from '../support/harness';
import { postRaw } from '../support/post-raw';

const sha = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

function start(more: ServiceOverrides = {}, app: AppOptions = {}) {
  // No keyless caller: an unauthenticated request is refused, as in production.
  return serviceForTest({ services: { anonymousKey: undefined, ...more }, app });
}

async function register(svc: Svc, query: string, key: string | null) {
  const { status, body } = await postRaw(
    svc.yoga,
    { query, extensions: { persistedQuery: { version: 1, sha256Hash: sha(query) } } },
    { accept: null, authorization: key ? `Bearer ${key}` : null },
  );
  return { status, body };
}

async function probe(svc: Svc, query: string, key: string) {
  const { body } = await postRaw(
    svc.yoga,
    { extensions: { persistedQuery: { version: 1, sha256Hash: sha(query) } } },
    { accept: null, authorization: `Bearer ${key}` },
  );
  return body;
}

function rows(svc: Svc): { organisation: string; hash: string }[] {
  const db = new DatabaseSync(join(svc.dataDir, 'idempotency.sqlite'), { readOnly: true });
  try {
    return db.prepare('SELECT organisation, hash FROM persisted_query_by_org').all() as { organisation: string; hash: string }[];
  } finally {
    db.close();
  }
}

describe('what the persisted-query store takes', () => {
  test('3,000 registrations without a key, and text that does not parse or validate, add no row', async () => {
    const svc = await start();
    for (let i = 0; i < 3_000; i++) {
      const answer = await register(svc, `{ title(titleNumber: "BLK${i + 1}") { titleNumber } }`, null);
      if (i === 0) expect(answer.status).toBe(401);
    }
    await register(svc, 'not graphql at all', 'dev-key-a');
    await register(svc, '{ nope }', 'dev-key-a');
    expect(rows(svc)).toEqual([]);
    // an authenticated, valid registration is kept, for its organisation
    await register(svc, '{ __typename }', 'dev-key-a');
    expect(rows(svc)).toEqual([{ organisation: 'ORG-A', hash: sha('{ __typename }') }]);
  });

  test("a hash one organisation registered is PERSISTED_QUERY_NOT_FOUND for another, and a hit for the first's other clients", async () => {
    const svc = await start();
    const query = '{ title(titleNumber: "MID15313") { titleNumber status } }';
    expect((await register(svc, query, 'dev-key-a')).body.errors).toBeUndefined();
    expect((await probe(svc, query, 'dev-key-b')).errors?.[0]?.extensions?.code).toBe('PERSISTED_QUERY_NOT_FOUND');
    expect((await probe(svc, query, 'dev-key-a2')).data).toEqual({ title: { titleNumber: 'MID15313', status: 'REGISTERED' } });
  });

  test('past the per-organisation cap the least recently used entry goes; past the total size nothing new is kept, and the request still runs', async () => {
    const svc = await start({ apq: { maxPerOrganisation: 3, maxTotalBytes: 100 } });
    const queries = ['{ a: __typename }', '{ b: __typename }', '{ c: __typename }', '{ d: __typename }'];
    for (const query of queries) await register(svc, query, 'dev-key-a');
    expect(
      rows(svc)
        .map((r) => r.hash)
        .sort(),
    ).toEqual(queries.slice(1).map(sha).sort());
    // 100 bytes in all (three short entries take 54): a longer document runs, and is not kept
    const long = `{ title(titleNumber: "MID1234") { titleNumber status titleType searchSheet titleSheetUpdatedTo right { type description } } }`;
    const answer = await register(svc, long, 'dev-key-b');
    expect(answer.body.errors).toBeUndefined();
    expect(rows(svc).some((r) => r.hash === sha(long))).toBe(false);
  });

  test('registrations per client are rate-limited: past the budget the request runs and is not kept', async () => {
    const svc = await start({}, { apq: { registrationsPerMinute: 2 } });
    const queries = ['{ a: __typename }', '{ b: __typename }', '{ c: __typename }'];
    for (const query of queries) expect((await register(svc, query, 'dev-key-a')).body.errors).toBeUndefined();
    expect(rows(svc)).toHaveLength(2);
    // another client has its own budget
    await register(svc, '{ d: __typename }', 'dev-key-a2');
    expect(rows(svc)).toHaveLength(3);
  });
});
