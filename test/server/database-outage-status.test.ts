/**
 * The database, not the register, is named when the database fails a request, and the request is
 * answered as the README says: 503 SERVICE_UNAVAILABLE with Retry-After, nothing sent to the
 * register. A frozen PostgreSQL (no error, no answer) holds a request for one statement deadline,
 * not for the whole freeze, and is not answered REGISTER_TIMEOUT; a `title` query (a nullable
 * root field, left null) is 503 like a request whose data is null.
 */
import { print } from 'graphql';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { PgIdempotencyStore } from '../../src/storage/idempotency/pg-store';
import { TitleQuery } from '../support/documents';
import { freezableRelay, type FreezableRelay } from '../support/frozen-database';
import { serviceForTest, type Service } from '../support/harness';
import { createTestDatabase, postgresSuite, setDatabaseReachable, type TestDatabase } from '../support/pg';

const pgSuite = await postgresSuite();

async function titleOver(svc: Service, titleNumber: string) {
  const response = await svc.yoga.fetch('http://titlegraph.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', authorization: 'Bearer dev-key-a' },
    body: JSON.stringify({ query: print(TitleQuery), variables: { titleNumber } }),
  });
  const body = (await response.json()) as { data?: unknown; errors?: { message: string; extensions?: Record<string, unknown> }[] };
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body };
}

const REFUSED = [
  expect.objectContaining({
    message: expect.stringContaining('nothing was sent to the register'),
    extensions: expect.objectContaining({ code: 'SERVICE_UNAVAILABLE' }),
  }),
];

describe.skipIf(!pgSuite.run)(pgSuite.title('a title query while PostgreSQL fails'), () => {
  let database: TestDatabase;
  let relay: FreezableRelay;
  beforeAll(async () => {
    database = await createTestDatabase('title_outage');
    relay = await freezableRelay(database.url);
  }, 60_000);
  afterAll(async () => {
    relay?.thaw();
    await setDatabaseReachable(database.name, true).catch(() => undefined);
    await relay?.close();
    await database?.drop();
  });

  test('frozen: answered 503 SERVICE_UNAVAILABLE after one statement deadline, the register untouched; served again after the thaw', async () => {
    const svc = await serviceForTest({
      services: { idempotency: new PgIdempotencyStore({ connectionString: relay.url }), databaseUrl: relay.url },
    });
    try {
      expect((await titleOver(svc, 'MID15313')).body.errors).toBeUndefined(); // token, tables and pools ready
      relay.freeze();
      svc.emulator.calls.reset();
      const frozen = await titleOver(svc, 'BLK1');
      expect(frozen.body.errors).toEqual(REFUSED);
      expect(JSON.stringify(frozen.body)).not.toMatch(/REGISTER_TIMEOUT|The register could not/);
      expect([frozen.status, frozen.retryAfter]).toEqual([503, '5']);
      expect(svc.emulator.calls.count({ route: 'titleSummary' })).toBe(0);
      relay.thaw();
      await vi.waitFor(async () => expect((await titleOver(svc, 'BLK1')).body.errors).toBeUndefined(), { timeout: 30_000, interval: 200 });
    } finally {
      relay.thaw();
    }
  }, 90_000);

  test('unreachable: a title query is 503 with Retry-After, as the README says, not 200 with a null title', async () => {
    const svc = await serviceForTest({
      services: { idempotency: new PgIdempotencyStore({ connectionString: database.url }), databaseUrl: database.url },
    });
    try {
      expect((await titleOver(svc, 'MID15313')).body.errors).toBeUndefined();
      await setDatabaseReachable(database.name, false);
      const refused = await titleOver(svc, 'BLK2');
      expect(refused.body).toMatchObject({ data: { title: null }, errors: REFUSED });
      expect([refused.status, refused.retryAfter]).toEqual([503, '5']);
    } finally {
      await setDatabaseReachable(database.name, true);
    }
  }, 60_000);
});
