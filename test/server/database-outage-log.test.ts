/**
 * A PostgreSQL outage is told to the operator as one: one error line when it starts and one info
 * line when it ends, naming the database (never its credentials), and nothing at error level per
 * request it refuses (those are answered 503 SERVICE_UNAVAILABLE, nothing sent to the register).
 */
import { print } from 'graphql';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { logServiceEvents } from '../../src/observability/logging';
import { PgIdempotencyStore } from '../../src/storage/idempotency/pg-store';
import { postgresOutages } from '../../src/storage/pg-database';
import { PurchaseTitleDetailsMutation, TitleQuery } from '../support/documents';
import { newKey, serviceForTest, type Service } from '../support/harness';
import { createTestDatabase, postgresSuite, setDatabaseReachable, type TestDatabase } from '../support/pg';

const pgSuite = await postgresSuite();

function recordingLogger() {
  const lines: { level: number; msg?: string; database?: string; yoga?: unknown; reason?: string }[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => lines.push(JSON.parse(line)) });
  return { logger, lines };
}

async function title(svc: Service, titleNumber: string) {
  const response = await svc.yoga.fetch('http://titlegraph.test/graphql', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/graphql-response+json', authorization: 'Bearer dev-key-a' },
    body: JSON.stringify({ query: print(TitleQuery), variables: { titleNumber } }),
  });
  return { status: response.status, body: (await response.json()) as { errors?: { extensions?: { code?: string } }[] } };
}

describe.skipIf(!pgSuite.run)(pgSuite.title('a PostgreSQL outage in the log'), () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('outage_log');
  }, 60_000);
  afterAll(async () => {
    await setDatabaseReachable(database.name, true).catch(() => undefined);
    await database?.drop();
  });

  test('one line when it starts, one when it ends; none at error level per refused request', async () => {
    const { logger, lines } = recordingLogger();
    const svc = await serviceForTest({
      services: { idempotency: new PgIdempotencyStore({ connectionString: database.url }), databaseUrl: database.url },
      app: { logger, observability: { readiness: { cacheMs: 0 } } },
    });
    logServiceEvents(svc.services.events, logger);
    // The episode ends with the first answer after it (its quiet period is the SQLite one's, 10 s shipped).
    postgresOutages(database.url).quietMs = 0;
    expect((await title(svc, 'MID15313')).body.errors).toBeUndefined();
    const ours = () => lines.filter((l) => l.database?.endsWith(`/${database.name}`));

    await setDatabaseReachable(database.name, false);
    try {
      for (let i = 0; i < 3; i++) {
        const refused = await title(svc, `BLK${i}`);
        expect(refused.status).toBe(503);
        expect(refused.body.errors?.[0]?.extensions?.code).toBe('SERVICE_UNAVAILABLE');
        const purchase = await svc.gql(PurchaseTitleDetailsMutation, {
          fas: '0877',
          input: { titleNumber: `BLK${i}`, idempotencyKey: newKey('pg-outage') },
        });
        expect(purchase.status).toBe(503);
        expect(purchase.errors?.[0]?.extensions?.code).toBe('SERVICE_UNAVAILABLE');
      }
      expect(svc.emulator.calls.count({ route: 'titleDetails' })).toBe(0);
      expect((await svc.get('/ready', null)).status).toBe(503);
    } finally {
      await setDatabaseReachable(database.name, true);
    }
    expect(ours()).toEqual([
      expect.objectContaining({
        level: 50,
        event: 'storage',
        reason: 'unreachable',
        msg: expect.stringContaining('the database is unreachable'),
      }),
    ]);
    // none with a stack per refused request
    expect(lines.filter((l) => l.level >= 50)).toHaveLength(1);
    expect(JSON.stringify(lines)).not.toContain('postgres://');

    await vi.waitFor(async () => expect((await title(svc, 'MID15313')).body.errors).toBeUndefined(), { timeout: 30_000, interval: 200 });
    expect(ours()).toEqual([
      expect.objectContaining({ level: 50, reason: 'unreachable' }),
      expect.objectContaining({ level: 30, event: 'storage', msg: expect.stringMatching(/answers again, after \d+ s$/) }),
    ]);
    expect(lines.filter((l) => l.level >= 50)).toHaveLength(1);
  }, 90_000);
});
