/**
 * Spend control: list fees, the daily spending limits of each API client and organisation, and
 * who may see which charges. The decisions that must hold across replicas (reserve an expected
 * fee against both limits) are made by the idempotency store, in the claim's transaction; this
 * module says what to check, and answers the free questions: a quote, today's spending, a
 * statement's scope.
 */
import { expectedFeePence } from '../storage/idempotency/spending-decision';
import type { CallerFilter, CallerStamp, IdempotencyStore, SpendCheck } from '../storage/idempotency/store';
import { ownRows, spendingRows } from '../storage/idempotency/callers';
import { parsePrincipalId } from './principal';
import { type ChargeableProduct, formatPence } from '../register/contract/money';
import type { RegisterDay, RegisterDayCertainty } from '../register/client';
import type { Scope } from './scopes';
import type { ClientsConfig, OrganisationsConfig, SpendSettings } from './settings';

/** What spend control needs of a caller (services/callers.ts). */
interface Caller extends CallerStamp {
  /** The API client. */
  clientId: string;
  organisation: string;
  scopes: ReadonlySet<Scope>;
  spendLimitPence?: number | undefined;
}

/** What spend control reads of a caller in the tenants file: which organisation each API client belongs to. */
export interface SpendTenantConfig {
  clientId: string;
  organisation?: string | undefined;
}

/** Whose journal a caller may read: these API clients, and only its own calls unless it may see the organisation's. */
export interface StatementView {
  clients: string[];
  caller?: CallerFilter | undefined;
}

export interface QuoteLine {
  product: ChargeableProduct;
  listFee: string;
  alreadyChargedToday: boolean;
  expectedFee: string;
}

export interface Quote {
  lines: QuoteLine[];
  expectedTotal: string;
  withinLimits: boolean;
  /** The register day the quote is reckoned on. */
  day: string;
  dayCertainty: RegisterDayCertainty;
}

export interface SpendingAccountFigures {
  charged: string;
  pending: string;
  limit: string | null;
  remaining: string | null;
}

export class SpendControl {
  private readonly clientsByOrganisation = new Map<string, string[]>();

  constructor(
    private readonly settings: SpendSettings,
    tenants: readonly SpendTenantConfig[],
    private readonly organisations: OrganisationsConfig = {},
    private readonly clients: ClientsConfig = {},
  ) {
    for (const t of tenants) {
      const organisation = t.organisation ?? t.clientId;
      const clients = this.clientsByOrganisation.get(organisation) ?? [];
      if (!clients.includes(t.clientId)) clients.push(t.clientId);
      this.clientsByOrganisation.set(organisation, clients);
    }
  }

  get feesPence() {
    return this.settings.feesPence;
  }

  /** Every API client of the caller's organisation (its own included). */
  organisationClients(caller: Caller): string[] {
    return this.clientsByOrganisation.get(caller.organisation) ?? [caller.clientId];
  }

  clientLimitPence(caller: Caller): number | undefined {
    return this.clients[caller.clientId]?.dailySpendLimit ?? this.settings.clientLimitPence;
  }

  organisationLimitPence(caller: Caller): number | undefined {
    return this.organisations[caller.organisation]?.dailySpendLimit ?? this.settings.organisationLimitPence;
  }

  /**
   * charges:organisation sees every API client of its organisation in statements, optionally of
   * one caller (a principal's id, or a bare subject as the previous release took it: every caller
   * with that subject); any other caller its own calls only, and asking for another's is refused.
   */
  statementView(caller: Caller, asked?: string | null): StatementView | { refused: string } {
    if (caller.scopes.has('charges:organisation')) {
      return { clients: this.organisationClients(caller), ...(asked ? { caller: askedFilter(asked) } : {}) };
    }
    if (asked && asked !== caller.id && asked !== caller.subject) {
      return {
        refused: `You may see only your own calls (caller ${JSON.stringify(caller.id)}); another caller's need the charges:organisation scope.`,
      };
    }
    return { clients: [caller.clientId], caller: ownRows(caller) };
  }

  /**
   * False when the organisation lists its charging accounts and this is not one of them: a quote
   * then answers as a purchase would (FAS_NOT_AUTHORISED). Unlisted, the register alone knows.
   */
  fasAllowed(caller: Caller, fas: string): boolean {
    const listed = this.organisations[caller.organisation]?.fasAccounts;
    return !listed || listed.includes(fas);
  }

  /**
   * What the store checks and reserves when a chargeable call is claimed. `chargedOnDay`: near the
   * register's midnight, the later day it may be on, whose charges alone make a product free.
   */
  checkFor(caller: Caller, products: readonly ChargeableProduct[], maxFeePence: number | undefined, chargedOnDay?: string): SpendCheck {
    const clientLimitPence = this.clientLimitPence(caller);
    const organisationLimitPence = this.organisationLimitPence(caller);
    return {
      products,
      feesPence: this.settings.feesPence,
      organisation: caller.organisation,
      organisationClients: this.organisationClients(caller),
      ...(clientLimitPence !== undefined ? { clientLimitPence } : {}),
      ...(organisationLimitPence !== undefined ? { organisationLimitPence } : {}),
      ...(caller.spendLimitPence !== undefined ? { callerLimitPence: caller.spendLimitPence } : {}),
      ...(maxFeePence !== undefined ? { maxFeePence } : {}),
      ...(chargedOnDay !== undefined ? { chargedOnDay } : {}),
    };
  }

  /**
   * What a purchase made now would charge, as its claim reckons it (services/idempotency/runner.ts):
   * a product is free when charged on the latest day the register may be on, which near its
   * midnight (NEAR_MIDNIGHT) is the new day, where what was bought the day before is charged
   * again; the limits are those of the register's day now. Before the register has been heard
   * (MACHINE_CLOCK) no day is known, so every product is expected to be charged.
   */
  async quote(
    store: IdempotencyStore,
    caller: Caller,
    registerDay: RegisterDay,
    fas: string,
    titleNumber: string,
    products: readonly ChargeableProduct[],
  ): Promise<Quote> {
    const day = registerDay.latestDay;
    const charged =
      registerDay.certainty === 'MACHINE_CLOCK'
        ? new Set<string>()
        : await store.chargedProducts(this.organisationClients(caller), day, fas, titleNumber);
    const unique = [...new Set(products)];
    const lines: QuoteLine[] = unique.map((product) => {
      const alreadyChargedToday = charged.has(product);
      const fee = this.settings.feesPence[product];
      return { product, listFee: formatPence(fee), alreadyChargedToday, expectedFee: formatPence(alreadyChargedToday ? 0 : fee) };
    });
    const expectedPence = expectedFeePence(unique, charged, this.settings.feesPence);
    const spending = await this.spending(store, caller, registerDay.day);
    const fits = (account: { remainingPence: number | undefined }) =>
      account.remainingPence === undefined || expectedPence <= account.remainingPence;
    return {
      lines,
      expectedTotal: formatPence(expectedPence),
      withinLimits: fits(spending.caller) && fits(spending.client) && fits(spending.organisation),
      day,
      dayCertainty: registerDay.certainty,
    };
  }

  async spending(store: IdempotencyStore, caller: Caller, day: string) {
    const [own, client, organisation] = await Promise.all([
      store.spendTotals([caller.clientId], day, spendingRows(caller)),
      store.spendTotals([caller.clientId], day),
      store.spendTotals(this.organisationClients(caller), day),
    ]);
    const account = (totals: { chargedPence: number; pendingPence: number }, limitPence: number | undefined) => {
      const remainingPence = limitPence === undefined ? undefined : Math.max(0, limitPence - totals.chargedPence - totals.pendingPence);
      return {
        remainingPence,
        figures: {
          charged: formatPence(totals.chargedPence),
          pending: formatPence(totals.pendingPence),
          limit: limitPence === undefined ? null : formatPence(limitPence),
          remaining: remainingPence === undefined ? null : formatPence(remainingPence),
        } satisfies SpendingAccountFigures,
      };
    };
    return {
      day,
      caller: account(own, caller.spendLimitPence),
      client: account(client, this.clientLimitPence(caller)),
      organisation: account(organisation, this.organisationLimitPence(caller)),
    };
  }
}

/**
 * The rows a statement asked of one caller covers: a principal's id names its rows (and the
 * previous release's with its subject: an accounts key sees the organisation's anyway); a bare
 * name every caller's with that subject, as it did before callers were principals.
 */
function askedFilter(asked: string): CallerFilter {
  const principal = parsePrincipalId(asked);
  return principal ? { id: asked, subject: principal.subject, legacySubject: principal.subject } : { subject: asked };
}
