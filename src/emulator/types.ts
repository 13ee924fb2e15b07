/** Public types of the register emulator (the programmatic API other engineers rely on). */
import type { RouteName } from '../register/contract/routes';
import type { Charge } from '../register/contract/wire';
import type { ChargeableProduct } from '../register/contract/money';

export type { RouteName };

/** The register's products: the contract's one list (register/contract/money.ts). */
export type ProductType = ChargeableProduct;

export interface EmulatorOptions {
  /** Default 0 (an ephemeral port). */
  port?: number;
  /** Default '127.0.0.1'. */
  host?: string;
  /** Default 0; added before every response. */
  latencyMs?: number;
  /** Optional base time source; the emulator wraps it in a controllable clock. */
  now?: () => Date;
  /** Fee per charge, default '3.00' each. */
  fees?: Partial<Record<ProductType, string>>;
  /** Default 2000 calls per organisation per London day. */
  dailyQuota?: number;
  /** Default 300. */
  tokenTtlSeconds?: number;
  /** Size in bytes of the LAN50 large plan PDF, default 50 * 1024 * 1024. */
  largePlanBytes?: number;
  /**
   * A SQLite file to keep the register's state in (ledger, transaction numbers, quota, tokens,
   * cases, deeds, issued IDs), created when missing and read at start; one emulator at a time.
   * Default: none, the state lives and dies with the emulator.
   */
  stateFile?: string;
}

/**
 * A fault replaces the response of the next call(s) to a route. `phase: 'after'` lets the
 * route's real effect happen first (charge recorded, case created) and then replaces the
 * response, which is how "outcome unknown" handling is tested.
 */
export type Fault = (
  | { kind: 'status'; status: number; body?: unknown; retryAfterSeconds?: number }
  | { kind: 'hang' }
  | { kind: 'reset' }
  | { kind: 'drip'; chunkBytes?: number; intervalMs?: number }
  | { kind: 'malformed' }
) & { phase?: 'before' | 'after' };

export interface CallRecord {
  /** Route name (ROUTES key), `unknown` when no route matched, `control` for /__control. */
  route: string;
  method: string;
  path: string;
  /** HTTP status sent; 0 when no response was sent (reset, hang). */
  status: number;
  clientId?: string;
  at: Date;
}

export interface LedgerEntry {
  charge: Charge;
  clientId: string;
  organisation: string;
  titleNumber: string;
  at: Date;
}

export interface LedgerFilter {
  fas?: string;
  titleNumber?: string;
  productType?: string;
  clientId?: string;
}

export interface CallFilter {
  route?: string;
  method?: string;
  status?: number;
  clientId?: string;
}

export interface ControllableClock {
  now(): Date;
  /** The emulator time becomes `d` and keeps flowing from there. */
  set(d: Date): void;
  advance(ms: number): void;
  /** Back to the base time source. */
  reset(): void;
}

export interface CaseRecord {
  id: string;
  organisation: string;
  reference: string;
  private: boolean;
  /** True for the seeded cases created "outside the API". */
  seeded: boolean;
  agent?: { fas: string; contactEmail: string; contactTelephone: string };
  subjects: { type: string; titleNumber: string }[];
  createdBy?: string;
  createdAt: Date;
  deeds: DeedRecord[];
}

export interface DeedRecord {
  id: string;
  caseId: string;
  clientId: string;
  createdAt: Date;
  request: import('../register/contract/wire').AddDeedRequest;
}

export interface IssuedFile {
  id: string;
  kind: 'document' | 'plan';
  clientId: string;
  organisation: string;
  titleNumber: string;
  issuedAt: Date;
  /** End of the London day of issue. */
  expiresAt: Date;
  filename: string;
  /** The caller's reference given when ordering (printed on the document). */
  reference?: string;
  /** Document parts (kind document). */
  parts?: { titleSheet: boolean; applications: boolean; preambles?: 'INLINE' };
  /** Index of the plan within the title (kind plan). */
  planIndex?: number;
}

export interface EmulatorState {
  readonly cases: ReadonlyMap<string, CaseRecord>;
  /** Every deed added through the API, in order. */
  readonly deeds: readonly DeedRecord[];
  /** Every document and plan ID issued (expired ones too). */
  readonly documents: ReadonlyMap<string, IssuedFile>;
  /** Calls counted against the quota for an organisation on a London date (default: today). */
  quotaUsed(organisation: string, londonDate?: string): number;
  /** Live (unexpired) access tokens. */
  tokenCount(): number;
}

export interface Emulator {
  /** Base address INCLUDING /v1, e.g. http://127.0.0.1:41234/v1 */
  url: string;
  /** http://127.0.0.1:41234 */
  origin: string;
  port: number;
  clock: ControllableClock;
  ledger: { readonly charges: readonly LedgerEntry[]; count(filter?: LedgerFilter): number };
  calls: { list(): readonly CallRecord[]; count(filter?: CallFilter): number; reset(): void };
  faults: { inject(route: RouteName, fault: Fault, times?: number): void; clear(): void };
  state: EmulatorState;
  /** Closes the server AND destroys open sockets (hung requests too). */
  close(): Promise<void>;
}
