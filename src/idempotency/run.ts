/**
 * Runs one mutation at most once per (tenant, idempotencyKey): validates, claims the key,
 * calls the register, and stores the outcome so that a replay returns it without an upstream
 * call. A chargeable or creating request that was sent but never answered is recorded as
 * outcome-unknown and is never re-sent.
 */
import { createHash } from 'node:crypto';
import { effectMayHaveHappened, graphQLErrorFromRegister, userErrorFromRegister } from '../errors';
import { RegisterError } from '../register';
import type { UserError } from '../schema/user-error';
import type { Context } from '../context';
import type { ServiceEvents } from '../events';
import type { IdempotencyRecord, IdempotencyStore } from './store';

export type Outcome<T> = { ok: true; value: T } | { ok: false; userErrors: UserError[] };

type Kind = ServiceEvents['idempotency']['outcome'];

export interface IdempotentRun<T> {
  operation: string;
  idempotencyKey: string;
  /** The validated input, without the key: what "same input" means. */
  input: unknown;
  /** Problems found before any register call; when present nothing is claimed or sent. */
  inputErrors: UserError[];
  execute: () => Promise<T>;
  fieldFor?: (registerField: string) => string[] | undefined;
}

export interface IdempotencyOptions {
  /** How long a concurrent request waits for the first one before answering IN_USE. */
  waitMs?: number;
  /** In-progress records older than this are from a crashed process: outcome unknown. */
  staleMs?: number;
  now?: () => number;
}

const KEY_RULE = /^[\x21-\x7E]{1,255}$/;

export function idempotencyKeyErrors(key: string): UserError[] {
  return KEY_RULE.test(key)
    ? []
    : [
        {
          code: 'INVALID_INPUT',
          message: 'input.idempotencyKey must be 1 to 255 printable ASCII characters without spaces.',
          field: ['input', 'idempotencyKey'],
        },
      ];
}

/** Stable JSON: object keys sorted, so the hash does not depend on argument order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function inputHash(operation: string, input: unknown): string {
  return createHash('sha256').update(canonical({ operation, input })).digest('hex');
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `run` at most once per (tenant, idempotencyKey) and reports what happened. */
export async function runIdempotent<T>(ctx: Context, run: IdempotentRun<T>, options: IdempotencyOptions = {}): Promise<Outcome<T>> {
  const { outcome, kind } = await claimAndRun(ctx, run, options);
  ctx.services.events.emit('idempotency', { tenant: ctx.tenant.id, operation: run.operation, outcome: kind });
  if (kind === 'executed' && outcome.ok) {
    const charges = (outcome.value as { charges?: unknown }).charges;
    if (Array.isArray(charges) && charges.length > 0) {
      ctx.services.events.emit('charges', { tenant: ctx.tenant.id, operation: run.operation, charges });
    }
  }
  return outcome;
}

async function claimAndRun<T>(
  ctx: Context,
  run: IdempotentRun<T>,
  options: IdempotencyOptions,
): Promise<{ outcome: Outcome<T>; kind: Kind }> {
  const inputErrors = [...run.inputErrors, ...idempotencyKeyErrors(run.idempotencyKey)];
  if (inputErrors.length > 0) return { outcome: { ok: false, userErrors: inputErrors }, kind: 'invalid_input' };

  const { idempotency: store, inflight } = ctx.services;
  const scope = ctx.tenant.id;
  const now = options.now ?? Date.now;
  const hash = inputHash(run.operation, run.input);
  const flightKey = `${scope}\u0000${run.idempotencyKey}`;
  const deadline = now() + (options.waitMs ?? 30_000);

  for (;;) {
    const claim = await store.claim(scope, run.idempotencyKey, run.operation, hash);
    if (claim.claimed) {
      const execution = execute(store, scope, run);
      inflight.set(flightKey, execution);
      try {
        return await execution;
      } finally {
        inflight.delete(flightKey);
      }
    }
    const replay = replayOf<T>(claim.record, run, hash, now() - (options.staleMs ?? 120_000));
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

function replayOf<T>(
  record: IdempotencyRecord,
  run: IdempotentRun<T>,
  hash: string,
  staleBefore: number,
): { outcome: Outcome<T>; kind: Kind } | undefined {
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
  const stale = record.state === 'in_progress' && record.updatedAt < staleBefore;
  if (record.state === 'outcome_unknown' || stale) {
    const userErrors: UserError[] = [
      {
        code: 'OUTCOME_UNKNOWN',
        message:
          'An earlier request with this idempotencyKey was sent to the register but its answer was lost; it may have been charged or created. Check before retrying with a new key.',
      },
    ];
    return { outcome: { ok: false, userErrors }, kind: 'outcome_unknown' };
  }
  if ((record.state === 'succeeded' || record.state === 'failed_final') && record.outcome) {
    return { outcome: JSON.parse(record.outcome) as Outcome<T>, kind: 'replayed' };
  }
  return undefined; // in progress (or retryable, reclaimed by the next claim)
}

async function execute<T>(store: IdempotencyStore, scope: string, run: IdempotentRun<T>): Promise<{ outcome: Outcome<T>; kind: Kind }> {
  let value: T;
  try {
    value = await run.execute();
  } catch (error) {
    const userError = userErrorFromRegister(error, run.fieldFor);
    if (error instanceof RegisterError && effectMayHaveHappened(error)) {
      await store.finish(scope, run.idempotencyKey, 'outcome_unknown');
      return { outcome: { ok: false, userErrors: [userError!] }, kind: 'outcome_unknown' };
    }
    if (userError && userError.code !== 'RATE_LIMITED') {
      const outcome: Outcome<T> = { ok: false, userErrors: [userError] };
      await store.finish(scope, run.idempotencyKey, 'failed_final', JSON.stringify(outcome));
      return { outcome, kind: 'executed' };
    }
    // Answered without effect (rate limit, 5xx, breaker open, refused before sending): retryable.
    await store.finish(scope, run.idempotencyKey, 'failed_retryable');
    if (userError) return { outcome: { ok: false, userErrors: [userError] }, kind: 'executed' };
    if (error instanceof RegisterError) throw graphQLErrorFromRegister(error);
    throw error;
  }
  const outcome: Outcome<T> = { ok: true, value };
  await store.finish(scope, run.idempotencyKey, 'succeeded', JSON.stringify(outcome));
  return { outcome, kind: 'executed' };
}
