/**
 * A register refusal reads the same on every path: a 429 answered to a GraphQL query and to a
 * download is one code (RATE_LIMITED), one sentence and one wait (`retryAfterSeconds`, `Retry-After`).
 */
import { describe, expect, test } from 'vitest';
import { OrderTitleDocumentMutation, TitleQuery } from '../support/documents';
import { newKey, serviceForTest } from '../support/harness';

const RETRY_AFTER = 30;

describe('a register 429', () => {
  test('is the same code and words on /graphql and /downloads', async () => {
    // Two services: each meets the register's own 429, not the quota guard's memory of the other's.
    const forQuery = await serviceForTest();
    forQuery.emulator.faults.inject('titleSummary', { kind: 'status', status: 429, retryAfterSeconds: RETRY_AFTER });
    const query = await forQuery.gql(TitleQuery, { titleNumber: 'MID15313' });
    expect(forQuery.emulator.calls.count({ route: 'titleSummary', status: 429 })).toBe(1);
    const graphqlError = query.errors![0]!;

    const forDownload = await serviceForTest();
    const ordered = await forDownload.gql(
      OrderTitleDocumentMutation,
      { fas: '5555', input: { titleNumber: 'MID15313', titleSheet: { include: true }, idempotencyKey: newKey('refusal-doc') } },
      'dev-key-b',
    );
    const link = new URL(ordered.data!.orderTitleDocument.document!.downloadUrl);
    forDownload.emulator.faults.inject('downloadDocument', { kind: 'status', status: 429, retryAfterSeconds: RETRY_AFTER });
    const download = await forDownload.get(link.pathname + link.search, null);
    expect(forDownload.emulator.calls.count({ route: 'downloadDocument', status: 429 })).toBe(1);

    expect(graphqlError.extensions).toEqual({ code: 'RATE_LIMITED', retryAfterSeconds: RETRY_AFTER });
    expect(download.status).toBe(429);
    expect(download.headers.get('retry-after')).toBe(String(RETRY_AFTER));
    const problem = ((await download.json()) as { error: { code: string; message: string } }).error;
    expect(problem).toEqual({ code: 'RATE_LIMITED', message: graphqlError.message });
    expect(problem.message).toContain(`retry after ${RETRY_AFTER} s`);
  });
});
