/**
 * A statement paged while a purchase settles lists every record exactly once. The purchase is
 * held at the register (charged there, its answer held in a proxy: test/support/holding-register.ts)
 * while a reader pages past it, then settles as CHARGED (the answer let through) or as
 * OUTCOME_UNKNOWN (the connection reset after the request reached the register). Judged on the
 * emulator's ledger: each charge it made is one record of the pages, on SQLite and PostgreSQL.
 * /statements.csv, read while it is held and after, says the same.
 */
import type { TypedDocumentNode } from '@graphql-typed-document-node/core';
import { parse } from 'graphql';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { londonDate } from '../../src/register/contract/london-day';
import { PgIdempotencyStore } from '../../src/storage/idempotency/pg-store';
import { BuyTitleMutation, OrderTitleDocumentMutation } from '../support/documents';
import { newKey, type ServiceOverrides, serviceForTest } from '../support/harness';
import { holdingRegister } from '../support/holding-register';
import { createTestDatabase, postgresSuite, type TestDatabase } from '../support/pg';

interface StatementRecord {
  status: 'PENDING' | 'CHARGED' | 'OUTCOME_UNKNOWN';
  idempotencyKey: string;
  titleNumber: string;
  product: string | null;
  charge: { productType: string; transactionNumber: string } | null;
}
const StatementPage = parse(`
  query SettlingStatement($from: Date!, $to: Date!, $first: Int, $after: String) {
    chargeStatement(from: $from, to: $to, first: $first, after: $after) {
      records { status idempotencyKey titleNumber product charge { productType transactionNumber } }
      nextCursor
    }
  }
`) as TypedDocumentNode<
  { chargeStatement: { records: StatementRecord[]; nextCursor: string | null } },
  { from: string; to: string; first?: number; after?: string | null }
>;

/** Register timeouts longer than any test: the held call ends when the test says, never by a timer. */
const PATIENT: ServiceOverrides = {
  transport: {
    timeouts: { headersMs: 120_000, bodyMs: 120_000, deadlineMs: 120_000 },
    retry: { attempts: 1 },
    breaker: { failureThreshold: 10_000, slowMs: 120_000 },
  },
};

const DAY_MS = 86_400_000;
/** Every register day the test's charges can be on. */
const range = () => ({ from: londonDate(new Date(Date.now() - DAY_MS)), to: londonDate(new Date(Date.now() + DAY_MS)) });
/** A record as the ledger knows it: the title and the product (each test buys each title once). */
const identity = (r: { titleNumber: string; product: string | null }) => `${r.titleNumber}/${r.product}`;

interface Case {
  first: number;
  /** One product (purchaseTitleDetails) or two in one call (orderTitleDocument, both parts). */
  products: 1 | 2;
  settles: 'CHARGED' | 'OUTCOME_UNKNOWN';
  /** Pages the reader reads after the first that shows the held purchase, before it settles: 0, or 1 (the cursor past it). */
  later: 0 | 1;
}
const CASES: Case[] = [1, 2].flatMap((first) =>
  ([1, 2] as const).flatMap((products) =>
    (['CHARGED', 'OUTCOME_UNKNOWN'] as const).flatMap((settles) => ([0, 1] as const).map((later) => ({ first, products, settles, later }))),
  ),
);

async function pagedWhileSettling(services: () => ServiceOverrides, { first, products, settles, later }: Case) {
  const proxy = await holdingRegister();
  const svc = await serviceForTest({ services: { ...PATIENT, ...services(), registerBaseUrl: `${proxy.url}/v1` } });
  proxy.target = new URL(svc.emulator.url).origin;
  try {
    const buy = async (titleNumber: string) => {
      const bought = await svc.gql(BuyTitleMutation, { fas: '0877', input: { titleNumber, idempotencyKey: newKey('settle') } });
      expect(bought.data?.purchaseTitleDetails.charges, JSON.stringify(bought)).toHaveLength(1);
    };
    for (const title of ['BLK1', 'BLK2', 'BLK3']) await buy(title);

    // The held purchase: charged by the register, its answer kept from the service.
    const heldTitle = 'BLK4';
    const heldKey = newKey('held');
    const answer = proxy.holdNext((_method, path) => path.includes(`/titles/${heldTitle}/`));
    const purchase =
      products === 1
        ? svc
            .gql(BuyTitleMutation, { fas: '0877', input: { titleNumber: heldTitle, idempotencyKey: heldKey } })
            .then((r) => r.data!.purchaseTitleDetails)
        : svc
            .gql(OrderTitleDocumentMutation, {
              fas: '0877',
              input: { titleNumber: heldTitle, titleSheet: { include: true }, applications: { include: true }, idempotencyKey: heldKey },
            })
            .then((r) => r.data!.orderTitleDocument);
    const held = await answer;
    expect(svc.emulator.ledger.count({ titleNumber: heldTitle })).toBe(products);
    for (const title of ['BLK5', 'BLK6']) await buy(title);

    /** The CSV's rows of one key: status, product, transaction number. */
    const csvRows = async (key: string) => {
      const { from, to } = range();
      const lines = (await (await svc.get(`/statements.csv?from=${from}&to=${to}`)).text()).trimEnd().split('\r\n').slice(1);
      return lines
        .map((line) => line.split(','))
        .filter((cells) => cells[4] === key)
        .map((cells) => [cells[2], cells[9], cells[11]]);
    };
    const seen: StatementRecord[] = [];
    const seenWhileHeld: StatementRecord[] = [];
    let after: string | null = null;
    let settled = false;
    let sinceSeen = -1;
    for (let pages = 0; pages < 50; pages++) {
      const page: { data?: { chargeStatement: { records: StatementRecord[]; nextCursor: string | null } } | null; errors?: unknown } =
        await svc.gql(StatementPage, { ...range(), first, after });
      expect(page.errors).toBeUndefined();
      const { records, nextCursor } = page.data!.chargeStatement;
      seen.push(...records);
      if (!settled) seenWhileHeld.push(...records.filter((r) => r.idempotencyKey === heldKey));
      if (seenWhileHeld.length > 0) sinceSeen++;
      // Settled once the reader has reached (part of) the held purchase, or gone a page past it.
      if (!settled && sinceSeen === later) {
        // The CSV says the same while it is held: its records at the register, by product.
        expect(await csvRows(heldKey)).toEqual(
          (products === 1 ? ['TITLE_DATA_AND_PLANS'] : ['TITLE_DATA_AND_PLANS', 'PENDING_APPLICATIONS']).map((p) => ['PENDING', p, '']),
        );
        if (settles === 'CHARGED') held.release();
        else held.reset();
        const payload = await purchase;
        if (settles === 'CHARGED') expect(payload.charges).toHaveLength(products);
        else expect(payload.userErrors.map((e) => e.code)).toEqual(['OUTCOME_UNKNOWN']);
        settled = true;
      }
      if (!nextCursor) break;
      after = nextCursor;
    }
    expect(settled).toBe(true);
    // While at the register it reads as such, not as an unknown outcome.
    expect(seenWhileHeld.map((r) => r.status)).toEqual(seenWhileHeld.map(() => 'PENDING'));

    // Every charge the register made is exactly one record of the pages, and nothing else is.
    const ledger = svc.emulator.ledger.charges.map((c) => identity({ titleNumber: c.titleNumber, product: c.charge.productType }));
    expect(ledger).toHaveLength(5 + products);
    expect(seen.map(identity).toSorted()).toEqual(ledger.toSorted());
    // And the statement read now says how each ended.
    const final = (await svc.gql(StatementPage, { ...range(), first: 100 })).data!.chargeStatement.records;
    expect(final.map(identity).toSorted()).toEqual(ledger.toSorted());
    const heldNow = final.filter((r) => r.idempotencyKey === heldKey);
    expect(heldNow.map((r) => r.status)).toEqual(heldNow.map(() => settles));
    if (settles === 'CHARGED') {
      const charged = svc.emulator.ledger.charges.filter((c) => c.titleNumber === heldTitle).map((c) => c.charge.transactionNumber);
      expect(heldNow.map((r) => r.charge?.transactionNumber).toSorted()).toEqual(charged.toSorted());
      expect((await csvRows(heldKey)).map((cells) => cells[2]).toSorted()).toEqual(charged.toSorted());
    } else {
      expect((await csvRows(heldKey)).map((cells) => cells[0])).toEqual(heldNow.map(() => 'OUTCOME_UNKNOWN'));
    }
  } finally {
    await proxy.close();
  }
}

const NAME =
  'pages of $first, a purchase of $products product(s) held at the register, settling as $settles $later page(s) after the reader reached it: every record exactly once';

describe('SQLite journal', () => {
  test.for(CASES)(NAME, { timeout: 30_000 }, async (c) => pagedWhileSettling(() => ({}), c));
});

const pgSuite = await postgresSuite();
describe.skipIf(!pgSuite.run)(pgSuite.title('PostgreSQL journal'), () => {
  let database: TestDatabase;
  beforeAll(async () => {
    database = await createTestDatabase('settling');
  }, 60_000);
  afterAll(() => database?.drop());
  let schema = 0;
  const onDatabase = (): ServiceOverrides => ({
    idempotency: new PgIdempotencyStore({ connectionString: database.url, schema: `settling_${++schema}` }),
    databaseUrl: database.url,
  });
  test.for(CASES)(NAME, { timeout: 30_000 }, async (c) => pagedWhileSettling(onDatabase, c));
});
