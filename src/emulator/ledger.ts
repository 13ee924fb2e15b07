/**
 * Charging: ONE charge per (FAS, title, product, London day); credit limits; every charge
 * recorded. Checking and recording happen synchronously, so concurrent calls never double-charge.
 */
import { londonDate } from '../register/contract/london-day';
import type { Charge } from '../register/contract/wire';
import { perProduct } from '../register/contract/money';
import { ApiError } from './errors';
import { FAS_ACCOUNTS, type FasAccount } from './seed/organisations';
import { IN_MEMORY, type KeptCharge, type StateSink } from './state-file';
import type { LedgerEntry, LedgerFilter, ProductType } from './types';

export const PRODUCT_DETAILS: Record<ProductType, string> = {
  TITLE_DATA_AND_PLANS: 'Title data, title sheet and plans',
  PENDING_APPLICATIONS: 'Advance notices and pending applications',
};

export interface ChargeRequest {
  account: FasAccount;
  titleNumber: string;
  products: readonly ProductType[];
  reference?: string;
  clientId: string;
  organisation: string;
  now: Date;
}

function toPence(amount: string): number {
  const m = /^(\d+)\.(\d{2})$/.exec(amount);
  if (!m) throw new TypeError(`fee must be a decimal amount like "3.00", got ${JSON.stringify(amount)}`);
  return Number(m[1]) * 100 + Number(m[2]);
}

export class Ledger {
  readonly charges: LedgerEntry[] = [];
  private readonly charged = new Set<string>();
  private readonly balances = new Map<string, number>(FAS_ACCOUNTS.map((a) => [a.fas, a.openingBalancePence]));
  private readonly fees: Record<ProductType, { text: string; pence: number }>;
  private sequence = 0;

  constructor(
    fees: Partial<Record<ProductType, string>> = {},
    private readonly sink: StateSink = IN_MEMORY,
  ) {
    const fee = (p: ProductType) => {
      const text = fees[p] ?? '3.00';
      return { text, pence: toPence(text) };
    };
    this.fees = perProduct(fee);
  }

  /** The charges of a state file, and its counter: the next transaction number follows the last ever used. */
  restore(charges: readonly KeptCharge[], lastSequence: number): void {
    for (const { entry } of charges) this.apply(entry);
    this.sequence = lastSequence;
  }

  /** Balances follow the fee each charge was made at, which a restart with other fees does not change. */
  private apply(entry: LedgerEntry) {
    const { fas, productType, fee } = entry.charge;
    this.charged.add(this.key(fas, entry.titleNumber, productType as ProductType, londonDate(entry.at)));
    this.balances.set(fas, (this.balances.get(fas) ?? 0) + toPence(fee));
    this.charges.push(entry);
  }

  private key(fas: string, titleNumber: string, product: ProductType, day: string) {
    return `${fas}|${titleNumber}|${product}|${day}`;
  }

  /** Products of the request not yet charged today to that FAS for that title. */
  newProducts(req: Omit<ChargeRequest, 'clientId' | 'organisation' | 'reference'>): ProductType[] {
    const day = londonDate(req.now);
    return req.products.filter((p) => !this.charged.has(this.key(req.account.fas, req.titleNumber, p, day)));
  }

  /** Throws 402 when the new charges would take the account over its credit limit. */
  assertCredit(req: Omit<ChargeRequest, 'clientId' | 'organisation' | 'reference'>): void {
    const total = this.newProducts(req).reduce((sum, p) => sum + this.fees[p].pence, 0);
    if (total === 0) return;
    const balance = this.balances.get(req.account.fas) ?? 0;
    if (balance + total > req.account.creditLimitPence) {
      throw new ApiError(402, 'CREDIT_LIMIT_EXCEEDED', `fas: account ${req.account.fas} is at its credit limit`, 'fas');
    }
  }

  /**
   * Checks credit, then records and returns the new charges (empty when already charged today).
   * They are kept (the state file) before they count here: a charge that could not be kept is
   * not made, and the call fails as a whole.
   */
  charge(req: ChargeRequest): Charge[] {
    this.assertCredit(req);
    const day = londonDate(req.now);
    const made: KeptCharge[] = this.newProducts(req).map((product, i) => {
      const fee = this.fees[product];
      const sequence = this.sequence + i + 1;
      const charge: Charge = {
        status: 'NEW',
        productType: product,
        details: `${PRODUCT_DETAILS[product]}: ${req.titleNumber}`,
        fee: fee.text,
        fas: req.account.fas,
        transactionNumber: `RT${day.replaceAll('-', '')}${String(sequence).padStart(7, '0')}`,
        ...(req.reference !== undefined ? { reference: req.reference } : {}),
      };
      const entry = { charge, clientId: req.clientId, organisation: req.organisation, titleNumber: req.titleNumber, at: req.now };
      return { sequence, entry };
    });
    this.sink.charged(made);
    this.sequence += made.length;
    for (const { entry } of made) this.apply(entry);
    return made.map(({ entry }) => entry.charge);
  }

  count(filter: LedgerFilter = {}): number {
    return this.charges.filter(
      (e) =>
        (filter.fas === undefined || e.charge.fas === filter.fas) &&
        (filter.titleNumber === undefined || e.titleNumber === filter.titleNumber) &&
        (filter.productType === undefined || e.charge.productType === filter.productType) &&
        (filter.clientId === undefined || e.clientId === filter.clientId),
    ).length;
  }
}
