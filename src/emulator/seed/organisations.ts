/** Organisations, API clients and FAS accounts (named fixtures of docs/emulator.md). */

export interface ApiClient {
  clientId: string;
  clientSecret: string;
  organisation: string;
}

export interface FasAccount {
  fas: string;
  organisation: string;
  /** Title-information accounts pay for title data; case (agent) accounts belong to cases. */
  kind: 'title' | 'case';
  /** Credit limit and opening balance, in pence. */
  creditLimitPence: number;
  openingBalancePence: number;
}

export interface Organisation {
  id: string;
  name: string;
}

/**
 * The fixture organisations as docs/emulator.md names them; nothing in the emulator reads the names yet.
 * @public
 */
export const ORGANISATIONS: readonly Organisation[] = [
  { id: 'ORG-A', name: 'Macdonald & Co' },
  { id: 'ORG-B', name: 'Bruce Conveyancing' },
];

export const CLIENTS: readonly ApiClient[] = [
  { clientId: 'client-a', clientSecret: 'secret-a', organisation: 'ORG-A' },
  { clientId: 'client-a2', clientSecret: 'secret-a2', organisation: 'ORG-A' },
  { clientId: 'client-b', clientSecret: 'secret-b', organisation: 'ORG-B' },
];

const LIMIT = 1_000_000_000; // £10,000,000.00: never reached by tests or benchmarks

export const FAS_ACCOUNTS: readonly FasAccount[] = [
  { fas: '0877', organisation: 'ORG-A', kind: 'title', creditLimitPence: LIMIT, openingBalancePence: 0 },
  { fas: '1234', organisation: 'ORG-A', kind: 'title', creditLimitPence: LIMIT, openingBalancePence: 0 },
  // At its credit limit: every call that would make a new charge answers 402.
  { fas: '9999', organisation: 'ORG-A', kind: 'title', creditLimitPence: 50_000, openingBalancePence: 50_000 },
  { fas: '1877', organisation: 'ORG-A', kind: 'case', creditLimitPence: LIMIT, openingBalancePence: 0 },
  { fas: '5555', organisation: 'ORG-B', kind: 'title', creditLimitPence: LIMIT, openingBalancePence: 0 },
  { fas: '5877', organisation: 'ORG-B', kind: 'case', creditLimitPence: LIMIT, openingBalancePence: 0 },
];

export function findClient(clientId: string): ApiClient | undefined {
  return CLIENTS.find((c) => c.clientId === clientId);
}

export function findFas(fas: string): FasAccount | undefined {
  return FAS_ACCOUNTS.find((a) => a.fas === fas);
}
