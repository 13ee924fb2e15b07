/**
 * Statements keep what they promise: the charge journal is kept longer than the longest
 * statement (JOURNAL_RETENTION_DAYS, 400 days by default, at least 367), and a statement that
 * reaches back before the days it holds says so: `extensions.warnings` in GraphQL, the
 * `Statement-Warning` header on /statements.csv. Old entries are written through the store with
 * its clock set back, then the service starts on that data (its start purges, as every hour).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { print } from 'graphql';
import { describe, expect, onTestFinished, test } from 'vitest';
import { londonDate } from '../../src/register/contract/london-day';
import { SqliteIdempotencyStore } from '../../src/storage/idempotency/sqlite-store';
import { journalKeptFrom } from '../../src/services/statements';
import { STATEMENT_WARNING_HEADER } from '../../src/server/statements-csv';
import { ChargeStatementQuery } from '../support/documents';
import { authHeader, serviceForTest, type Service } from '../support/harness';
import { postRaw } from '../support/post-raw';

const DAY = 86_400_000;

/** A charge of `client-a` journalled `daysAgo` days ago, as the runner writes one. */
async function journalChargeDaysAgo(dataDir: string, daysAgo: number, transactionNumber: string): Promise<string> {
  const at = Date.now() - daysAgo * DAY;
  const day = londonDate(new Date(at));
  const store = new SqliteIdempotencyStore(dataDir, () => at);
  const key = `old-${transactionNumber}`;
  await store.claim('client-a', key, 'purchaseTitleDetails', 'hash', {
    operation: 'purchaseTitleDetails',
    fas: '0877',
    titleNumber: 'MID15313',
    day,
  });
  const charge = {
    status: 'NEW',
    productType: 'TITLE_DATA_AND_PLANS',
    details: 'Title data and plans',
    fee: '3.00',
    fas: '0877',
    transactionNumber,
  };
  await store.finish('client-a', key, 'succeeded', '{}', { charges: [charge], day });
  await store.close();
  return day;
}

/** A front end allowed to call the service from a browser. */
const FRONT_END = 'https://app.firm-a.example';

const plusDays = (day: string, n: number) => new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY).toISOString().slice(0, 10);

/** chargeStatement with its whole answer, extensions included. */
async function statement(svc: Service, from: string, to: string) {
  const { body } = await postRaw(svc.yoga, { query: print(ChargeStatementQuery), variables: { from, to } });
  return body as {
    data: { chargeStatement: { records: { charge: { transactionNumber: string } | null }[] } };
    extensions?: { warnings?: unknown[] };
  };
}

function dataDirForTest(): string {
  const dir = mkdtempSync(join(tmpdir(), 'titlegraph-retention-'));
  onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

describe('journal retention', () => {
  test('the journal holds whole the register day after the one its retention cuts into, by the London calendar', () => {
    expect(journalKeptFrom(400, Date.parse('2026-11-27T12:00:00Z'))).toBe('2025-10-24');
    // 23:30 UTC in summer is 00:30 of the next day in London: the cut falls on that London day.
    expect(journalKeptFrom(367, Date.parse('2026-07-01T23:30:00Z'))).toBe('2025-07-01');
    expect(journalKeptFrom(367, Date.parse('2026-01-01T23:30:00Z'))).toBe('2024-12-31');
  });

  test('by default a charge of 150 days ago (past the old 100-day purge) is still in its statement, which has no warning', async () => {
    const dataDir = dataDirForTest();
    const day = await journalChargeDaysAgo(dataDir, 150, 'RT-150');
    const svc = await serviceForTest({ services: { dataDir } });
    expect(svc.services.journalRetentionDays).toBe(400);

    const answer = await statement(svc, day, day);
    expect(answer.data.chargeStatement.records.map((r) => r.charge?.transactionNumber)).toEqual(['RT-150']);
    expect(answer.extensions?.warnings).toBeUndefined();
    const csv = await svc.get(`/statements.csv?from=${day}&to=${day}`, 'dev-key-a');
    expect(csv.headers.get(STATEMENT_WARNING_HEADER)).toBeNull();
    expect(await csv.text()).toContain('RT-150');
  });

  test('a statement reaching back before the kept days says so, in GraphQL and in the CSV; within them it does not', async () => {
    const dataDir = dataDirForTest();
    const oldDay = await journalChargeDaysAgo(dataDir, 380, 'RT-380');
    const keptDay = await journalChargeDaysAgo(dataDir, 300, 'RT-300');
    const svc = await serviceForTest({ services: { dataDir, journalRetentionDays: 367 }, app: { corsOrigins: [FRONT_END] } });
    const keptFrom = journalKeptFrom(367);
    expect(oldDay < keptFrom && keptFrom <= keptDay).toBe(true);

    // Purged at start: the statement lacks it, and says why.
    const before = await statement(svc, oldDay, plusDays(oldDay, 100));
    expect(before.data.chargeStatement.records.map((r) => r.charge?.transactionNumber)).toEqual(['RT-300']);
    expect(before.extensions?.warnings).toEqual([
      {
        code: 'JOURNAL_RETENTION',
        keptFrom,
        message: `The charge journal is kept 367 days: it holds register days from ${keptFrom} on, so this statement lacks any records of the days before (${oldDay} to the day before ${keptFrom}). The register's invoices have them.`,
      },
    ]);
    // As a browser's front end fetches it: the header by its documented name, and readable there.
    const csv = await svc.yoga.fetch(`http://titlegraph.test/statements.csv?from=${oldDay}&to=${plusDays(oldDay, 100)}`, {
      headers: { ...authHeader('dev-key-a'), origin: FRONT_END },
    });
    expect(csv.headers.get('Statement-Warning')).toBe(
      `JOURNAL_RETENTION; kept-from=${keptFrom}; ${(before.extensions!.warnings![0] as { message: string }).message}`,
    );
    expect(csv.headers.get('access-control-allow-origin')).toBe(FRONT_END);
    expect(csv.headers.get('access-control-expose-headers')?.split(/\s*,\s*/)).toContain('statement-warning');
    expect(await csv.text()).not.toContain('RT-380');

    const within = await statement(svc, keptFrom, plusDays(keptFrom, 100));
    expect(within.data.chargeStatement.records.map((r) => r.charge?.transactionNumber)).toEqual(['RT-300']);
    expect(within.extensions?.warnings).toBeUndefined();
    expect(
      (await svc.get(`/statements.csv?from=${keptFrom}&to=${keptFrom}`, 'dev-key-a')).headers.get(STATEMENT_WARNING_HEADER),
    ).toBeNull();
  });
});
