/**
 * Runs one mutation at most once per (tenant, idempotencyKey): validates, claims the key,
 * calls the register, and stores the outcome so that a replay returns it without an upstream
 * call. A chargeable or creating request that was sent but never answered is recorded as
 * outcome-unknown and is never re-sent.
 */
import { createHash } from 'node:crypto';
import { graphQLErrorFromRegister, userErrorFromRegister } from '../errors';
import { RegisterError } from '../register';
import type { UserError } from '../schema/user-error';
import type { IdempotencyRecord, IdempotencyStore } from './store';

export type Outcome<T> = { ok: true; value: T } | { ok: false; userErrors: UserError[] };

export interface IdempotentRun<T> {
  store: IdempotencyStore;
  scope: string;
  operation: string;
  idempotencyKey: string;
  /** The validated input, without the key: what "same input" means. */
  input: unknown;
  /** Problems found before any register call; when present nothing is claimed or sent. */
  inputErrors: UserError[];
  execute: () => Promise<T>;
  fieldFor?: (registerField: string) => string[] | undefined;
  /** In-process waiters for a key being executed here (concurrent same-key requests). */
  inflight: Map<string, Promise<unknown>>;
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

export async function runIdempotent<T>(run: IdempotentRun<T>): Promise<Outcome<T>> {
  const keyErrors = idempotencyKeyErrors(run.idempotencyKey);
  const inputErrors = [...run.inputErrors, ...keyErrors];
  if (inputErrors.length > 0) return { ok: false, userErrors: inputErrors };

  const hash = inputHash(run.operation, run.input);
  const flightKey = `${run.scope}\u0000${run.idempotencyKey}`;
  const deadline = (run.now ?? Date.now)() + (run.waitMs ?? 30_000);

  for (;;) {
    const claim = await run.store.claim(run.scope, run.idempotencyKey, run.operation, hash);
    if (claim.claimed) {
      const execution = execute(run);
      run.inflight.set(flightKey, execution);
      try {
        return await execution;
      } finally {
        run.inflight.delete(flightKey);
      }
    }
    const replay = replayOf<T>(claim.record, run, hash);
    if (replay) return replay;
    // In progress elsewhere: wait for it here, or poll the shared store (another replica).
    const local = run.inflight.get(flightKey);
    if (local) await local.catch(() => undefined);
    else if ((run.now ?? Date.now)() < deadline) await sleep(25);
    else {
      return {
        ok: false,
        userErrors: [
          {
            code: 'IDEMPOTENCY_KEY_IN_USE',
            message: 'A request with this idempotencyKey is still in progress; retry shortly.',
            field: ['input', 'idempotencyKey'],
          },
        ],
      };
    }
  }
}

function replayOf<T>(record: IdempotencyRecord, run: IdempotentRun<T>, hash: string): Outcome<T> | undefined {
  if (record.inputHash !== hash || record.operation !== run.operation) {
    return {
      ok: false,
      userErrors: [
        {
          code: 'IDEMPOTENCY_KEY_REUSED',
          message: 'This idempotencyKey was already used with different input; use a new key for a new request.',
          field: ['input', 'idempotencyKey'],
        },
      ],
    };
  }
  const stale = record.state === 'in_progress' && (run.now ?? Date.now)() - record.updatedAt > (run.staleMs ?? 120_000);
  if (record.state === 'outcome_unknown' || stale) {
    return {
      ok: false,
      userErrors: [
        {
          code: 'OUTCOME_UNKNOWN',
          message:
            'An earlier request with this idempotencyKey was sent to the register but its answer was lost; it may have been charged or created. Check before retrying with a new key.',
        },
      ],
    };
  }
  if ((record.state === 'succeeded' || record.state === 'failed_final') && record.outcome) {
    return JSON.parse(record.outcome) as Outcome<T>;
  }
  return undefined; // in progress (or retryable, reclaimed by the next claim)
}

async function execute<T>(run: IdempotentRun<T>): Promise<Outcome<T>> {
  let value: T;
  try {
    value = await run.execute();
  } catch (error) {
    const userError = userErrorFromRegister(error, run.fieldFor);
    if (error instanceof RegisterError && error.outcomeUnknown) {
      await run.store.finish(run.scope, run.idempotencyKey, 'outcome_unknown');
      return { ok: false, userErrors: [userError!] };
    }
    if (userError && userError.code !== 'RATE_LIMITED') {
      const outcome: Outcome<T> = { ok: false, userErrors: [userError] };
      await run.store.finish(run.scope, run.idempotencyKey, 'failed_final', JSON.stringify(outcome));
      return outcome;
    }
    // Answered without effect (rate limit, 5xx, breaker open, refused before sending): retryable.
    await run.store.finish(run.scope, run.idempotencyKey, 'failed_retryable');
    if (userError) return { ok: false, userErrors: [userError] };
    if (error instanceof RegisterError) throw graphQLErrorFromRegister(error);
    throw error;
  }
  const outcome: Outcome<T> = { ok: true, value };
  await run.store.finish(run.scope, run.idempotencyKey, 'succeeded', JSON.stringify(outcome));
  return outcome;
}
