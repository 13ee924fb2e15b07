/**
 * Runs one mutation at most once per (tenant, idempotencyKey): validates, claims the key,
 * calls the register, and stores the outcome so that a replay returns it without an upstream
 * call. A call that may have charged or created, but whose answer was lost, is recorded as
 * OUTCOME_UNKNOWN: that is the key's final answer, and the call is never sent again on it.
 * Chargeable calls also keep the charge journal (see store.ts), in the same transaction.
 */
import { type Answered, type CallerSignal, RegisterError, type RegisterClient, type RegisterDay } from '../../register/client';
import { londonDate } from '../../register/contract/london-day';
import type { Charge } from '../../register/contract/wire';
import { isOwnRecord, spendingRows } from '../../storage/idempotency/callers';
import type {
  CallerStamp,
  ChargeIntent,
  IdempotencyRecord,
  IdempotencyStore,
  IdempotencyTiming,
  ReportedCharges,
  SpendRefusal,
} from '../../storage/idempotency/store';
import type { ChargeableProduct } from '../../register/contract/money';
import type { Caller } from '../callers';
import type { EventHub, ServiceEvents } from '../events';
import type { JournalOutbox } from '../journal-outbox';
import type { SpendControl } from '../spend';
import { userErrorFromRegister, type CallerInput } from '../register-user-errors';
import { onePerField, type UserError } from '../user-errors';
import { idempotencyKeyErrors, inputHash } from './key';
import { outcomeUnknownError, spendRefusalError } from './messages';

export type Outcome<T> = { ok: true; value: T } | { ok: false; userErrors: UserError[] };

type Kind = ServiceEvents['idempotency']['outcome'];

export interface IdempotentRun<T> {
  operation: string;
  idempotencyKey: string;
  /** The validated input, without the key: what "same input" means. */
  input: unknown;
  /** Problems found before any register call; when present nothing is claimed or sent. */
  inputErrors: UserError[];
  /**
   * What the register call does: `charges` (the FAS and title, for the journal, and where the
   * charges are in the result) or `creates` (what it creates, for the caller's message).
   */
  effect: ChargeEffect<T> | { creates: 'case' | 'deed' };
  /** The register call; a charging one says when the register began to answer (the charge's register day). */
  execute: () => Promise<Answered<T>>;
  /** The register's dotted field → the GraphQL input path. */
  fieldFor?: (registerField: string) => string[] | undefined;
  /** What the caller sent that a register refusal may name (their own FAS, titles, case), for its message and field. */
  callerInput?: CallerInput;
}
/** A chargeable call: what the journal records, what it may charge, and where its charges are in the result. */
export interface ChargeEffect<T> {
  charges: { fas: string; titleNumber: string; reference?: string };
  /** The products it may charge, reserved against the spending limits before it is sent. */
  products: readonly ChargeableProduct[];
  /** The caller's maxFee, in pence. */
  maxFeePence?: number;
  chargesOf: (value: T) => readonly Charge[];
}

/** What the runner drives: one of each for the process, shared by every request. */
export interface IdempotentRunnerParts {
  store: IdempotencyStore;
  journalOutbox: JournalOutbox;
  events: EventHub;
  /** Same-key mutations executing in this process, so concurrent duplicates wait for them. */
  inflight: Map<string, Promise<unknown>>;
  /** Keys whose outcome this process holds but could not write yet: a replay is answered from here. */
  unsettled: Map<string, IdempotencyRecord>;
  /** Spend control as it is now: replaced whole with the callers, so read at each claim. */
  spend: () => SpendControl;
  /** The register's clock now, estimated from its latest answer. */
  registerNow: () => Date;
  /** The register's day now (or, `forPurchase`, while a call sent now may reach it), and whether it is known. */
  registerDay: (forPurchase?: boolean) => RegisterDay;
  /** The waits (tests shorten them). */
  timing: IdempotencyTiming;
}

/** One request's part in a run: who calls, through which register client, and where its charges go. */
export interface RunRequest {
  caller: Caller;
  /** The caller's register client: asked the register's clock before a chargeable claim. */
  register: Pick<RegisterClient, 'registerNow'>;
  /** The caller going away; a call that charges or creates is never stopped by it (register/client/exchange.ts). */
  signal?: CallerSignal | undefined;
  /** Told at once of the charges this request made or replayed, so its answer carries them whatever else fails. */
  charged: (charges: readonly Charge[]) => void;
}

/**
 * A call that charges or creates, proven not to have been carried out (nothing sent, or an
 * answer that proves it was not executed), for a reason no userError names (the register
 * unreachable, this service's credentials refused): its caller is told the register's error and,
 * in as many words, that nothing was charged or created: the same key can be sent again.
 */
export class NotCarriedOut extends Error {
  constructor(readonly registerError: RegisterError) {
    super(registerError.message, { cause: registerError });
    this.name = 'NotCarriedOut';
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface RunResult<T> {
  outcome: Outcome<T>;
  kind: Kind;
  /** Charges this request's own register call reported (never a replay's). */
  charges?: readonly Charge[];
}

export class IdempotentRunner {
  constructor(private readonly parts: IdempotentRunnerParts) {}

  /** Runs `run` at most once per (tenant, idempotencyKey) and reports what happened. */
  async run<T>(request: RunRequest, run: IdempotentRun<T>): Promise<Outcome<T>> {
    const { caller } = request;
    const { outcome, kind, charges } = await this.claimAndRun(request, run);
    if (kind === 'replayed' && outcome.ok && 'charges' in run.effect) {
      const replayed = run.effect.chargesOf(outcome.value);
      if (replayed.length > 0) request.charged(replayed);
    }
    this.parts.events.emit('idempotency', { tenant: caller.clientId, operation: run.operation, outcome: kind });
    if (charges && charges.length > 0) {
      this.parts.events.emit('charges', {
        tenant: caller.clientId,
        organisation: caller.organisation,
        operation: run.operation,
        charges,
      });
    }
    return outcome;
  }

  private async claimAndRun<T>(request: RunRequest, run: IdempotentRun<T>): Promise<RunResult<T>> {
    const inputErrors = onePerField([...run.inputErrors, ...idempotencyKeyErrors(run.idempotencyKey)]);
    if (inputErrors.length > 0) return { outcome: { ok: false, userErrors: inputErrors }, kind: 'invalid_input' };

    const { store, inflight, events, timing } = this.parts;
    const { caller } = request;
    const scope = caller.clientId;
    const hash = inputHash(run.operation, run.input);
    const flightKey = `${scope}\u0000${run.idempotencyKey}`;
    let intent: ChargeIntent | undefined;
    let nearMidnight = false;
    if ('charges' in run.effect) {
      // The reservation and the spend check are on the register's day: a process that has not
      // heard the register yet asks it first, before anything is claimed. Near its midnight a
      // product is free only if charged on the latest day the register may be on: what was bought
      // the day before is charged again there.
      const registerDay = await this.registerDayBeforeClaim<T>(request);
      if (!('latestDay' in registerDay)) return registerDay;
      nearMidnight = registerDay.certainty !== 'EXACT';
      const chargedOnDay = registerDay.latestDay !== registerDay.day ? registerDay.latestDay : undefined;
      intent = {
        operation: run.operation,
        ...run.effect.charges,
        day: registerDay.day,
        caller,
        spend: this.parts.spend().checkFor(caller, run.effect.products, run.effect.maxFeePence, chargedOnDay),
      };
    }
    const deadline = Date.now() + (timing.waitMs ?? 30_000);
    // This process holds the key's outcome but could not write it yet: the answer is here, not in the store.
    const unsettled = this.parts.unsettled.get(flightKey);
    if (unsettled && unsettled.state !== 'failed_retryable') {
      const replay = await replayOf<T>(store, scope, unsettled, run, hash, 0, caller);
      if (replay) return replay;
    }

    for (;;) {
      const claim = await store.claim(scope, run.idempotencyKey, run.operation, hash, intent, caller);
      if (claim.claimed) {
        const reserved = { organisation: caller.organisation, pence: claim.reservedPence };
        if (reserved.pence > 0) events.emit('spendReserved', reserved);
        const execution = this.execute(request, { scope, flightKey, hash }, run, intent?.day);
        inflight.set(flightKey, execution);
        try {
          return await execution;
        } finally {
          inflight.delete(flightKey);
          if (reserved.pence > 0) events.emit('spendReservationEnded', reserved);
        }
      }
      if (claim.refused) {
        const reason = claim.refused.reason === 'maxFee' ? 'max_fee' : (`${claim.refused.reason}_limit` as const);
        events.emit('spendRefused', { tenant: caller.clientId, organisation: caller.organisation, reason });
        const held = await heldByUnknownOutcomes(store, claim.refused, caller.clientId, intent!);
        return {
          outcome: { ok: false, userErrors: [spendRefusalError(claim.refused, intent!.day, held, nearMidnight)] },
          kind: claim.refused.reason === 'maxFee' ? 'above_max_fee' : 'spend_limit',
        };
      }
      const replay = await replayOf<T>(store, scope, claim.record, run, hash, Date.now() - (timing.staleMs ?? 120_000), caller);
      if (replay) return replay;
      // In progress elsewhere: wait for it here, or poll the shared store (another replica).
      const local = inflight.get(flightKey);
      if (local) await local.catch(() => undefined);
      else if (Date.now() < deadline) await sleep(25);
      else {
        const userErrors: UserError[] = [
          {
            code: 'IDEMPOTENCY_KEY_IN_USE',
            message: 'A request with this idempotencyKey is still in progress; retry shortly.',
            field: ['input', 'idempotencyKey'],
          },
        ];
        return { outcome: { ok: false, userErrors }, kind: 'in_use' };
      }
    }
  }

  /** The register's day now (Europe/London), by the register's own clock. */
  private registerDayNow(): string {
    return londonDate(this.parts.registerNow());
  }

  /**
   * The register's day now, by its own clock, learned from it first when this process has not
   * heard it yet (a token fetch: nothing is claimed or charged). When the register cannot be
   * asked, the caller hears why, as from a call that was never sent.
   */
  private async registerDayBeforeClaim<T>(request: RunRequest): Promise<RegisterDay | RunResult<T>> {
    try {
      await request.register.registerNow(request.signal);
      return this.parts.registerDay(true);
    } catch (error) {
      if (!(error instanceof RegisterError)) throw error;
      // The sign-in's one refusal a caller can act on is the register's 429: any other 4xx to it is
      // this service's credentials at fault (register/client/classify.ts), a top-level error.
      const userError = userErrorFromRegister(error);
      if (userError) return { outcome: { ok: false, userErrors: [userError] }, kind: 'rate_limited' };
      throw new NotCarriedOut(error);
    }
  }

  /**
   * `claimDay`: the register's day the claim was made on (chargeable calls), for a call that
   * ended without the register's word on when it charged.
   */
  private async execute<T>(
    request: RunRequest,
    { scope, flightKey, hash }: { scope: string; flightKey: string; hash: string },
    run: IdempotentRun<T>,
    claimDay: string | undefined,
  ): Promise<RunResult<T>> {
    const key = run.idempotencyKey;
    // The register has answered (or may have): what it said must not be lost with a journal write
    // that fails now. The outbox retries the write, and until it lands a replay is answered from
    // memory; the caller hears the outcome either way.
    const { store, journalOutbox, unsettled } = this.parts;
    const { caller } = request;
    const record = async (...args: Parameters<IdempotencyStore['finish']>) => {
      const [, , state, outcome] = args;
      const landed = await journalOutbox.write(
        () => store.finish(...args),
        () => unsettled.delete(flightKey),
      );
      if (landed) return;
      const at = Date.now();
      unsettled.set(flightKey, {
        operation: run.operation,
        inputHash: hash,
        state,
        ...(outcome === undefined ? {} : { outcome }),
        createdAt: at,
        updatedAt: at,
        callerId: caller.id,
        callerSubject: caller.subject,
      });
    };
    // A charge is on the register's day when it began to answer (its answer's Date header, read
    // before the body), however late the body ends; without an answer, when the request went out.
    const dayOf = (at: Date | undefined) => (at ? londonDate(at) : (claimDay ?? this.registerDayNow()));
    let answered: Answered<T>;
    try {
      answered = await run.execute();
    } catch (error) {
      // Anything but a register error that proves nothing happened may hide a charge or a
      // creation (a bug after the call included): unknown, never sent again.
      if (!(error instanceof RegisterError) || error.outcomeUnknown) {
        const sentDay = dayOf(error instanceof RegisterError ? (error.answeredAt ?? error.sentAt) : undefined);
        const outcome: Outcome<T> = { ok: false, userErrors: [outcomeUnknownError(run.effect, sentDay, this.registerDayNow())] };
        await record(scope, key, 'outcome_unknown', JSON.stringify(outcome), { charges: [], day: sentDay });
        return { outcome, kind: 'outcome_unknown' };
      }
      const userError = userErrorFromRegister(error, run.fieldFor, run.callerInput);
      if (userError && userError.code !== 'RATE_LIMITED') {
        const outcome: Outcome<T> = { ok: false, userErrors: [userError] };
        await record(scope, key, 'failed_final', JSON.stringify(outcome));
        return { outcome, kind: 'refused' };
      }
      // Proven not executed (rate limit, breaker open, not sent, refused credentials): the key may be used again.
      await record(scope, key, 'failed_retryable');
      if (userError) return { outcome: { ok: false, userErrors: [userError] }, kind: 'rate_limited' };
      throw new NotCarriedOut(error);
    }
    const value = answered.body;
    const outcome: Outcome<T> = { ok: true, value };
    const charges = 'charges' in run.effect ? run.effect.chargesOf(value) : undefined;
    if (charges && charges.length > 0) request.charged(charges);
    const reported: ReportedCharges | undefined = charges ? { charges, day: dayOf(answered.answeredAt) } : undefined;
    await record(scope, key, 'succeeded', JSON.stringify(outcome), reported);
    return { outcome, kind: 'executed', ...(charges ? { charges } : {}) };
  }
}

/**
 * What the refusing limit's calls of unknown outcome (and those in flight) hold that day, for
 * the refusal's words; 0 when it cannot be read: the refusal stands either way.
 */
async function heldByUnknownOutcomes(store: IdempotencyStore, refusal: SpendRefusal, scope: string, intent: ChargeIntent): Promise<number> {
  if (refusal.reason === 'maxFee') return 0;
  const clients = refusal.reason === 'organisation' ? (intent.spend?.organisationClients ?? [scope]) : [scope];
  const own = refusal.reason === 'caller' && intent.caller ? spendingRows(intent.caller) : undefined;
  return store.spendTotals(clients, intent.day, own).then(
    (totals) => totals.pendingPence,
    () => 0,
  );
}

async function replayOf<T>(
  store: IdempotencyStore,
  scope: string,
  record: IdempotencyRecord,
  run: IdempotentRun<T>,
  hash: string,
  staleBefore: number,
  caller: CallerStamp,
): Promise<RunResult<T> | undefined> {
  // A key is its caller's principal's: another person or key of the same API client never gets its answer.
  if (!isOwnRecord(record, caller)) {
    const userErrors: UserError[] = [
      {
        code: 'IDEMPOTENCY_KEY_REUSED',
        message: 'This idempotencyKey was already used by another caller of your API client; use a new key for a new request.',
        field: ['input', 'idempotencyKey'],
      },
    ];
    return { outcome: { ok: false, userErrors }, kind: 'key_reused' };
  }
  if (record.inputHash !== hash || record.operation !== run.operation) {
    const userErrors: UserError[] = [
      {
        code: 'IDEMPOTENCY_KEY_REUSED',
        message: 'This idempotencyKey was already used with different input; use a new key for a new request.',
        field: ['input', 'idempotencyKey'],
      },
    ];
    return { outcome: { ok: false, userErrors }, kind: 'key_reused' };
  }
  if (record.state === 'in_progress' && record.updatedAt < staleBefore) {
    // Its process died mid-call: the call may have reached the register. Settled once, for every replica.
    const outcome: Outcome<T> = { ok: false, userErrors: [outcomeUnknownError(run.effect)] };
    if (await store.settleStale(scope, run.idempotencyKey, staleBefore, JSON.stringify(outcome))) {
      return { outcome, kind: 'outcome_unknown' };
    }
    return undefined; // settled by someone else in between: read it again
  }
  if (record.state === 'outcome_unknown') {
    const outcome: Outcome<T> = record.outcome
      ? (JSON.parse(record.outcome) as Outcome<T>)
      : { ok: false, userErrors: [outcomeUnknownError(run.effect)] };
    return { outcome, kind: 'outcome_unknown' };
  }
  if ((record.state === 'succeeded' || record.state === 'failed_final') && record.outcome) {
    return { outcome: JSON.parse(record.outcome) as Outcome<T>, kind: 'replayed' };
  }
  return undefined; // in progress (or retryable, reclaimed by the next claim)
}
