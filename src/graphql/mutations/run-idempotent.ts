/**
 * Runs one mutation at most once per (tenant, idempotencyKey): validates, claims the key,
 * calls the register, and stores the outcome so that a replay returns it without an upstream
 * call. A call that may have charged or created, but whose answer was lost, is recorded as
 * OUTCOME_UNKNOWN: that is the key's final answer, and the call is never sent again on it.
 * Chargeable calls also keep the charge journal (see store.ts), in the same transaction.
 */
import { createHash } from 'node:crypto';
import { type Answered, RegisterError, type RegisterDay } from '../../register/client';
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
import { type ChargeableProduct, formatPence } from '../../register/contract/money';
import type { ServiceEvents } from '../../services/events';
import type { Context } from '../context';
import { graphQLErrorFromRegister } from '../errors';
import { userErrorFromRegister, type CallerInput } from '../../services/register-user-errors';
import { invalidInput, onePerField, type UserError } from '../../services/user-errors';
import { stringify as stableJson } from 'safe-stable-stringify';

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

export interface IdempotencyOptions extends IdempotencyTiming {
  now?: () => number;
}

const KEY_RULE = /^[\x21-\x7E]{1,255}$/;

export function idempotencyKeyErrors(key: string): UserError[] {
  return KEY_RULE.test(key)
    ? []
    : [invalidInput(['input', 'idempotencyKey'], 'must be 1 to 255 printable ASCII characters without spaces.')];
}

/**
 * What binds an idempotency key to its input: the SHA-256 of the input as stable JSON (object keys
 * sorted, undefined left out), so the hash does not depend on argument order. safe-stable-stringify
 * (pino's own) writes it; RFC 8785 (JCS) would also fix how numbers are written, which GraphQL's
 * coerced input never leaves open, and would change the hash of every key already stored.
 * test/money/input-hash.test.ts holds hashes of the hand-written form this replaced: unchanged.
 */
export function inputHash(operation: string, input: unknown): string {
  // An object always stringifies: undefined is only ever the answer for a bare undefined.
  return createHash('sha256').update(stableJson({ operation, input })!).digest('hex');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * What a caller is told when the answer to their call was lost, so that they can act: a title
 * product can safely be bought again on the same register day (never charged twice), a case or
 * deed must be looked for first. The day is named: the register charges again once it has
 * ended, so "buy again" is only safe until then (`sentDay`: the register day the call went out;
 * `today`: the register's day as the answer is given).
 */
export function outcomeUnknownError(
  effect: { charges: unknown } | { creates: 'case' | 'deed' },
  sentDay?: string,
  today: string = sentDay ?? '',
): UserError {
  if (!('charges' in effect)) {
    return {
      code: 'OUTCOME_UNKNOWN',
      message:
        `The request may have reached the register, but its answer was lost, so the ${effect.creates} may have been created. It is never sent ` +
        `again with this idempotencyKey: check the register for the ${effect.creates} before creating it again with a new idempotencyKey.`,
    };
  }
  const lost =
    'The request may have reached the register, but its answer was lost, so it may have been charged. It is never sent again with this ' +
    'idempotencyKey, and chargeRecords lists it for the day.';
  if (!sentDay) return { code: 'OUTCOME_UNKNOWN', message: lost };
  const advice =
    today > sentDay
      ? ` It went out on register day ${sentDay} (London time), which has ended: buying again now, with a new idempotencyKey, is charged again.`
      : ` The register never charges twice for the same title and product on the same FAS on the same register day, so buying again with a new idempotencyKey is safe until the end of ${sentDay} (London time).`;
  return { code: 'OUTCOME_UNKNOWN', message: lost + advice };
}

/**
 * A chargeable call refused by spend control: what was expected, against which limit, that
 * nothing was sent, and how much of the limit calls whose outcome is unknown hold (`heldPence`:
 * they count as spent until someone checks them against the register's invoice) and where to see them.
 */
export function spendRefusalError(refusal: SpendRefusal, day: string, heldPence = 0, nearMidnight = false): UserError {
  const expected = formatPence(refusal.expectedPence);
  if (refusal.reason === 'maxFee') {
    return {
      code: 'CHARGE_ABOVE_MAXIMUM',
      message: `This call is expected to charge ${expected} (before VAT), which is above input.maxFee ${formatPence(refusal.maxFeePence)}.${nearMidnight ? NEAR_MIDNIGHT_WORDS : ''} Nothing was sent to the register.`,
      field: ['input', 'maxFee'],
    };
  }
  const whose = { caller: 'your own', client: "your API client's", organisation: "your organisation's" }[refusal.reason];
  const where =
    refusal.reason === 'organisation'
      ? `chargeStatement(from: "${day}", to: "${day}") with an accounts key lists them for every API client of your organisation`
      : `chargeRecords(day: "${day}") lists them`;
  const held =
    heldPence > 0
      ? ` ${formatPence(heldPence)} of the limit is held by calls whose outcome is not known (their answer was lost, or they are still ` +
        `at the register): they count as spent. ${where} (status OUTCOME_UNKNOWN), to check against the register's invoice.`
      : '';
  return {
    code: 'SPEND_LIMIT_REACHED',
    message:
      `This call is expected to charge ${expected} (before VAT), but ${whose} daily spending limit of ${formatPence(refusal.limitPence)} ` +
      `has ${formatPence(refusal.remainingPence)} left for ${day}. Nothing was sent to the register.${held} The limit resets at midnight, London time.`,
  };
}

/** Why a product bought today is expected to be charged again, near the register's midnight. */
const NEAR_MIDNIGHT_WORDS =
  " The register's day is about to change or has just changed (London midnight is within the uncertainty of this service's " +
  "knowledge of the register's clock), and on the new day what was bought today is charged again.";

/** Runs `run` at most once per (tenant, idempotencyKey) and reports what happened. */
export async function runIdempotent<T>(ctx: Context, run: IdempotentRun<T>, options: IdempotencyOptions = {}): Promise<Outcome<T>> {
  const { outcome, kind, charges } = await claimAndRun(ctx, run, { ...ctx.services.idempotencyTiming, ...options });
  if (kind === 'replayed' && outcome.ok && 'charges' in run.effect) {
    const replayed = run.effect.chargesOf(outcome.value);
    if (replayed.length > 0) ctx.chargesMade.push({ operation: run.operation, idempotencyKey: run.idempotencyKey, charges: replayed });
  }
  ctx.services.events.emit('idempotency', { tenant: ctx.caller.clientId, operation: run.operation, outcome: kind });
  if (charges && charges.length > 0) {
    ctx.services.events.emit('charges', {
      tenant: ctx.caller.clientId,
      organisation: ctx.caller.organisation,
      operation: run.operation,
      charges,
    });
  }
  return outcome;
}

interface RunResult<T> {
  outcome: Outcome<T>;
  kind: Kind;
  /** Charges this request's own register call reported (never a replay's). */
  charges?: readonly Charge[];
}

async function claimAndRun<T>(ctx: Context, run: IdempotentRun<T>, options: IdempotencyOptions): Promise<RunResult<T>> {
  const inputErrors = onePerField([...run.inputErrors, ...idempotencyKeyErrors(run.idempotencyKey)]);
  if (inputErrors.length > 0) return { outcome: { ok: false, userErrors: inputErrors }, kind: 'invalid_input' };

  const { idempotency: store, inflight } = ctx.services;
  const scope = ctx.caller.clientId;
  const now = options.now ?? Date.now;
  const hash = inputHash(run.operation, run.input);
  const flightKey = `${scope}\u0000${run.idempotencyKey}`;
  let intent: ChargeIntent | undefined;
  let nearMidnight = false;
  if ('charges' in run.effect) {
    // The reservation and the spend check are on the register's day: a process that has not
    // heard the register yet asks it first, before anything is claimed. Near its midnight a
    // product is free only if charged on the latest day the register may be on: what was bought
    // the day before is charged again there.
    const registerDay = await registerDayBeforeClaim<T>(ctx);
    if (!('latestDay' in registerDay)) return registerDay;
    nearMidnight = registerDay.certainty !== 'EXACT';
    const chargedOnDay = registerDay.latestDay !== registerDay.day ? registerDay.latestDay : undefined;
    intent = {
      operation: run.operation,
      ...run.effect.charges,
      day: registerDay.day,
      caller: ctx.caller,
      spend: ctx.services.spend.checkFor(ctx.caller, run.effect.products, run.effect.maxFeePence, chargedOnDay),
    };
  }
  const deadline = now() + (options.waitMs ?? 30_000);
  // This process holds the key's outcome but could not write it yet: the answer is here, not in the store.
  const unsettled = ctx.services.unsettled.get(flightKey);
  if (unsettled && unsettled.state !== 'failed_retryable') {
    const replay = await replayOf<T>(store, scope, unsettled, run, hash, 0, ctx.caller);
    if (replay) return replay;
  }

  for (;;) {
    const claim = await store.claim(scope, run.idempotencyKey, run.operation, hash, intent, ctx.caller);
    if (claim.claimed) {
      const reserved = { organisation: ctx.caller.organisation, pence: claim.reservedPence };
      if (reserved.pence > 0) ctx.services.events.emit('spendReserved', reserved);
      const execution = execute(ctx, store, { scope, flightKey, hash }, run, intent?.day);
      inflight.set(flightKey, execution);
      try {
        return await execution;
      } finally {
        inflight.delete(flightKey);
        if (reserved.pence > 0) ctx.services.events.emit('spendReservationEnded', reserved);
      }
    }
    if (claim.refused) {
      const reason = claim.refused.reason === 'maxFee' ? 'max_fee' : (`${claim.refused.reason}_limit` as const);
      ctx.services.events.emit('spendRefused', { tenant: ctx.caller.clientId, organisation: ctx.caller.organisation, reason });
      const held = await heldByUnknownOutcomes(store, claim.refused, ctx.caller.clientId, intent!);
      return {
        outcome: { ok: false, userErrors: [spendRefusalError(claim.refused, intent!.day, held, nearMidnight)] },
        kind: claim.refused.reason === 'maxFee' ? 'above_max_fee' : 'spend_limit',
      };
    }
    const replay = await replayOf<T>(store, scope, claim.record, run, hash, now() - (options.staleMs ?? 120_000), ctx.caller);
    if (replay) return replay;
    // In progress elsewhere: wait for it here, or poll the shared store (another replica).
    const local = inflight.get(flightKey);
    if (local) await local.catch(() => undefined);
    else if (now() < deadline) await sleep(25);
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
const registerDay = (ctx: Context) => londonDate(ctx.services.registerNow());

/**
 * The register's day now, by its own clock, learned from it first when this process has not
 * heard it yet (a token fetch: nothing is claimed or charged). When the register cannot be
 * asked, the caller hears why, as from a call that was never sent.
 */
async function registerDayBeforeClaim<T>(ctx: Context): Promise<RegisterDay | RunResult<T>> {
  try {
    await ctx.register.registerNow(ctx.callOptions.signal);
    return ctx.services.registerDay(true);
  } catch (error) {
    if (!(error instanceof RegisterError)) throw error;
    // The sign-in's one refusal a caller can act on is the register's 429: any other 4xx to it is
    // this service's credentials at fault (register/client/classify.ts), a top-level error.
    const userError = userErrorFromRegister(error);
    if (userError) return { outcome: { ok: false, userErrors: [userError] }, kind: 'rate_limited' };
    throw graphQLErrorFromRegister(error, { notCarriedOut: true });
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

/**
 * `claimDay`: the register's day the claim was made on (chargeable calls), for a call that
 * ended without the register's word on when it charged.
 */
async function execute<T>(
  ctx: Context,
  store: IdempotencyStore,
  { scope, flightKey, hash }: { scope: string; flightKey: string; hash: string },
  run: IdempotentRun<T>,
  claimDay: string | undefined,
): Promise<RunResult<T>> {
  const key = run.idempotencyKey;
  // The register has answered (or may have): what it said must not be lost with a journal write
  // that fails now. The outbox retries the write, and until it lands a replay is answered from
  // memory; the caller hears the outcome either way.
  const { journalOutbox, unsettled } = ctx.services;
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
      callerId: ctx.caller.id,
      callerSubject: ctx.caller.subject,
    });
  };
  // A charge is on the register's day when it began to answer (its answer's Date header, read
  // before the body), however late the body ends; without an answer, when the request went out.
  const dayOf = (at: Date | undefined) => (at ? londonDate(at) : (claimDay ?? registerDay(ctx)));
  let answered: Answered<T>;
  try {
    answered = await run.execute();
  } catch (error) {
    // Anything but a register error that proves nothing happened may hide a charge or a
    // creation (a bug after the call included): unknown, never sent again.
    if (!(error instanceof RegisterError) || error.outcomeUnknown) {
      const sentDay = dayOf(error instanceof RegisterError ? (error.answeredAt ?? error.sentAt) : undefined);
      const outcome: Outcome<T> = { ok: false, userErrors: [outcomeUnknownError(run.effect, sentDay, registerDay(ctx))] };
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
    throw graphQLErrorFromRegister(error, { notCarriedOut: true });
  }
  const value = answered.body;
  const outcome: Outcome<T> = { ok: true, value };
  const charges = 'charges' in run.effect ? run.effect.chargesOf(value) : undefined;
  if (charges && charges.length > 0) ctx.chargesMade.push({ operation: run.operation, idempotencyKey: key, charges });
  const reported: ReportedCharges | undefined = charges ? { charges, day: dayOf(answered.answeredAt) } : undefined;
  await record(scope, key, 'succeeded', JSON.stringify(outcome), reported);
  return { outcome, kind: 'executed', ...(charges ? { charges } : {}) };
}
