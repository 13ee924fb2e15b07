/**
 * The attempt classifier as a table: for each way an attempt can end, the failure kind that
 * shouldRetry decides on, what the breaker is told, the event's outcome and the caller's code.
 */
import { describe, expect, test } from 'vitest';
import {
  type AttemptFailure,
  classifyContractBreach,
  classifyHttpAnswer,
  classifyThrown,
  type HttpAnswer,
} from '../../src/register/client/classify';

const row = (v: AttemptFailure) => [v.kind, v.breaker, v.outcome, v.error.code, v.error.status];

describe('classifyHttpAnswer', () => {
  test.each<[string, HttpAnswer, unknown[]]>([
    ['401 to a bearer token: refresh once', { status: 401, bearer: true }, ['unauthorised', 'success', 'http_error', 'UNAUTHORISED', 401]],
    [
      '401 to basic credentials: refused',
      { status: 401, bearer: false, code: 'UNAUTHORISED' },
      ['rejected', 'success', 'http_error', 'UNAUTHORISED', 401],
    ],
    [
      '429 with Retry-After',
      { status: 429, bearer: true, retryAfterSeconds: 2 },
      ['rate_limited', 'success', 'http_error', 'TOO_MANY_REQUESTS', 429],
    ],
    ['429 without Retry-After', { status: 429, bearer: true }, ['rate_limited', 'success', 'http_error', 'TOO_MANY_REQUESTS', 429]],
    [
      '400 with a contract code',
      { status: 400, bearer: true, code: 'INVALID_TITLE_NUMBER' },
      ['rejected', 'success', 'http_error', 'INVALID_TITLE_NUMBER', 400],
    ],
    [
      '402 credit limit',
      { status: 402, bearer: true, code: 'CREDIT_LIMIT_EXCEEDED' },
      ['rejected', 'success', 'http_error', 'CREDIT_LIMIT_EXCEEDED', 402],
    ],
    [
      '404 with a code the contract does not name',
      { status: 404, bearer: true, code: 'NO_SUCH_THING' },
      ['rejected', 'success', 'http_error', 'REGISTER_ERROR', 404],
    ],
    ['404 whose body is not an error body', { status: 404, bearer: true }, ['rejected', 'success', 'http_error', 'REGISTER_ERROR', 404]],
    [
      '408: the register may have acted',
      { status: 408, bearer: true, code: 'INVALID_REQUEST' },
      ['server_error', 'failure', 'http_error', 'REGISTER_UNAVAILABLE', 408],
    ],
    ['500', { status: 500, bearer: true, code: 'INTERNAL_ERROR' }, ['server_error', 'failure', 'http_error', 'REGISTER_UNAVAILABLE', 500]],
    [
      '503 with Retry-After',
      { status: 503, bearer: true, retryAfterSeconds: 1 },
      ['server_error', 'failure', 'http_error', 'REGISTER_UNAVAILABLE', 503],
    ],
    [
      'a 3xx the register never gives',
      { status: 302, bearer: true },
      ['server_error', 'failure', 'http_error', 'REGISTER_UNAVAILABLE', 302],
    ],
  ])('%s', (_name, answer, expected) => {
    expect(row(classifyHttpAnswer(answer))).toEqual(expected);
  });

  test('Retry-After reaches the error and the retry delay', () => {
    const verdict = classifyHttpAnswer({ status: 429, bearer: true, retryAfterSeconds: 3, detail: 'slow down' });
    expect(verdict.retryAfterMs).toBe(3000);
    expect(verdict.error).toMatchObject({ retryAfterSeconds: 3, detail: 'slow down' });
    expect(classifyHttpAnswer({ status: 429, bearer: true }).retryAfterMs).toBeUndefined();
  });

  test("a refusal keeps the register's field and message; a refreshed 401 keeps neither", () => {
    expect(
      classifyHttpAnswer({ status: 400, bearer: true, code: 'INVALID_REQUEST', field: 'agent.fas', detail: 'bad' }).error,
    ).toMatchObject({
      field: 'agent.fas',
      detail: 'bad',
    });
    expect(classifyHttpAnswer({ status: 401, bearer: true, detail: 'secret words' }).error.detail).toBe('access token rejected');
  });
});

describe('classifyHttpAnswer: what reaches the error', () => {
  test('a 401 to basic credentials is UNAUTHORISED whatever its body says', () => {
    expect(classifyHttpAnswer({ status: 401, bearer: false }).error.code).toBe('UNAUTHORISED');
    expect(classifyHttpAnswer({ status: 401, bearer: false, code: 'INVALID_REQUEST' }).error.code).toBe('UNAUTHORISED');
  });

  test.each([400, 403, 404, 422])(
    "the sign-in refused with %i is this service's credentials at fault, not the caller's input",
    (status) => {
      const verdict = classifyHttpAnswer({ status, bearer: false, code: 'INVALID_REQUEST', field: 'grant_type' });
      expect(row(verdict)).toEqual(['rejected', 'success', 'http_error', 'UNAUTHORISED', status]);
    },
  );
});

describe('classifyContractBreach', () => {
  test('keeps what was wrong, and nothing when nothing was said', () => {
    expect(classifyContractBreach(200, 'titleNumber (invalid_type)').error).toEqual({
      status: 200,
      code: 'REGISTER_CONTRACT_ERROR',
      detail: 'titleNumber (invalid_type)',
    });
    expect(classifyContractBreach(200, undefined).error).toEqual({ status: 200, code: 'REGISTER_CONTRACT_ERROR' });
  });

  test('a 2xx that breaks the contract: the register answered, so the breaker hears success', () => {
    expect(row(classifyContractBreach(200, 'x (invalid_type)'))).toEqual([
      'contract',
      'success',
      'contract',
      'REGISTER_CONTRACT_ERROR',
      200,
    ]);
  });
});

describe('classifyThrown', () => {
  test.each<[string, Parameters<typeof classifyThrown>[0], unknown[]]>([
    [
      'connection refused, nothing written',
      { sent: false, status: 0, deadlinePassed: false, errorCode: 'ECONNREFUSED' },
      ['not_sent', 'failure', 'not_sent', 'REGISTER_UNAVAILABLE', 0],
    ],
    [
      'connect timeout, nothing written',
      { sent: false, status: 0, deadlinePassed: false, errorCode: 'UND_ERR_CONNECT_TIMEOUT' },
      ['not_sent', 'failure', 'not_sent', 'REGISTER_TIMEOUT', 0],
    ],
    [
      'deadline ran out in the pool queue: our congestion',
      { sent: false, status: 0, deadlinePassed: true },
      ['not_sent', 'release', 'not_sent', 'REGISTER_TIMEOUT', 0],
    ],
    [
      'reset after sending',
      { sent: true, status: 0, deadlinePassed: false, errorCode: 'ECONNRESET' },
      ['reset', 'failure', 'network', 'REGISTER_UNAVAILABLE', 0],
    ],
    [
      'no headers in time after sending',
      { sent: true, status: 0, deadlinePassed: false, errorCode: 'UND_ERR_HEADERS_TIMEOUT' },
      ['timeout', 'failure', 'timeout', 'REGISTER_TIMEOUT', 0],
    ],
    ['deadline after sending', { sent: true, status: 0, deadlinePassed: true }, ['timeout', 'failure', 'timeout', 'REGISTER_TIMEOUT', 0]],
    [
      'a 2xx body cut off',
      { sent: true, status: 200, deadlinePassed: false, errorCode: 'UND_ERR_SOCKET' },
      ['body_cut', 'failure', 'network', 'REGISTER_UNAVAILABLE', 200],
    ],
    [
      'a 2xx body that stopped until the deadline',
      { sent: true, status: 200, deadlinePassed: true },
      ['body_cut', 'failure', 'timeout', 'REGISTER_TIMEOUT', 200],
    ],
  ])('%s', (_name, facts, expected) => {
    expect(row(classifyThrown(facts))).toEqual(expected);
  });

  test('the low-level cause is kept (for the logs), and only when there is one', () => {
    const cause = new Error('socket hang up');
    expect(classifyThrown({ sent: true, status: 0, deadlinePassed: false, cause }).error.cause).toBe(cause);
    expect(classifyThrown({ sent: false, status: 0, deadlinePassed: false, cause }).error.cause).toBe(cause);
    expect(classifyThrown({ sent: true, status: 0, deadlinePassed: false }).error).not.toHaveProperty('cause');
  });

  test('the words say whether the request left', () => {
    expect(classifyThrown({ sent: true, status: 0, deadlinePassed: true }).error.detail).toBe('call deadline exceeded');
    expect(classifyThrown({ sent: true, status: 0, deadlinePassed: false, errorCode: 'UND_ERR_HEADERS_TIMEOUT' }).error.detail).toBe(
      'register did not answer in time',
    );
    expect(classifyThrown({ sent: false, status: 0, deadlinePassed: true }).error.detail).toBe(
      'call deadline exceeded before the request was sent',
    );
    expect(classifyThrown({ sent: false, status: 0, deadlinePassed: false }).error.detail).toBe('could not connect to the register');
    expect(classifyThrown({ sent: true, status: 0, deadlinePassed: false }).error.detail).toBe('connection to the register failed');
  });
});
