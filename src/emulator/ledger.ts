/**
 * Charging: ONE charge per (FAS, title, product, London day); credit limits; every charge
 * recorded. Checking and recording happen synchronously, so concurrent calls never double-charge.
 */
import { londonDate } from '../register/contract/london-day';
import type { Charge } from '../register/contract/wire';
import { perProduct } from '../register/contract/money';
import { ApiError } from './errors';
import { FAS_ACCOUNTS, type FasAccount } from './seed/organisations';
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

  constructor(fees: Partial<Record<ProductType, string>> = {}) {
    const fee = (p: ProductType) => {
      const text = fees[p] ?? '3.00';
      return { text, pence: toPence(text) };
    };
    this.fees = perProduct(fee);
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

  /** Checks credit, then records and returns the new charges (empty when already charged today). */
  charge(req: ChargeRequest): Charge[] {
    this.assertCredit(req);
    const day = londonDate(req.now);
    return this.newProducts(req).map((product) => {
      const fee = this.fees[product];
      this.sequence += 1;
      const charge: Charge = {
        status: 'NEW',
        productType: product,
        details: `${PRODUCT_DETAILS[product]}: ${req.titleNumber}`,
        fee: fee.text,
        fas: req.account.fas,
        transactionNumber: `RT${day.replaceAll('-', '')}${String(this.sequence).padStart(7, '0')}`,
        ...(req.reference !== undefined ? { reference: req.reference } : {}),
      };
      this.charged.add(this.key(req.account.fas, req.titleNumber, product, day));
      this.balances.set(req.account.fas, (this.balances.get(req.account.fas) ?? 0) + fee.pence);
      this.charges.push({
        charge,
        clientId: req.clientId,
        organisation: req.organisation,
        titleNumber: req.titleNumber,
        at: req.now,
      });
      return charge;
    });
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
