/**
 * Amounts of money as the register writes them: decimal pounds before VAT, e.g. "3.00". Kept as
 * whole pence inside, so sums never meet binary fractions. One rule for every amount a person
 * types (settings, the tenants file, `maxFee`): pounds with at most two decimals, "3" meaning
 * 3.00; no sign, no thousands separator, no currency symbol.
 */
const AMOUNT = /^(\d{1,9})(?:\.(\d{1,2}))?$/;

export const AMOUNT_RULE = 'must be an amount in pounds with at most two decimals, e.g. "3.00" or "3"';

/** Whole pence of an amount, or undefined when it breaks AMOUNT_RULE. */
export function penceOf(amount: string): number | undefined {
  const m = AMOUNT.exec(amount);
  if (!m) return undefined;
  return Number(m[1]) * 100 + Number((m[2] ?? '0').padEnd(2, '0'));
}

/** Pence written as the register writes fees: "3.00". */
export function formatPence(pence: number): string {
  const whole = Math.trunc(pence / 100);
  return `${whole}.${String(pence % 100).padStart(2, '0')}`;
}

/** What the register charges for: once per product, title, charging account and register day. */
export const CHARGEABLE_PRODUCTS = ['TITLE_DATA_AND_PLANS', 'PENDING_APPLICATIONS'] as const;
export type ChargeableProduct = (typeof CHARGEABLE_PRODUCTS)[number];

/**
 * One value for each product, made from the one list above: a table built with it (fees, fee
 * settings, the emulator's prices) gains a product the day CHARGEABLE_PRODUCTS does, and a table
 * written out as a Record<ChargeableProduct, …> fails to compile until it has it.
 */
export function perProduct<T>(value: (product: ChargeableProduct) => T): Record<ChargeableProduct, T> {
  return Object.fromEntries(CHARGEABLE_PRODUCTS.map((product) => [product, value(product)])) as Record<ChargeableProduct, T>;
}
