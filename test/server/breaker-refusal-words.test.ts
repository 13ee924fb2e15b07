/**
 * A refusal by the breaker says what was sent for the whole call, not for its last attempt: a free
 * read whose first two attempts reached the hung register, and whose third the breaker refused,
 * does not hear "nothing was sent"; a read the breaker refused before any attempt does. Judged on
 * the emulator's call log. Also run with NODE_ENV=production (the `production` project).
 */
import { describe, expect, test } from 'vitest';
import { TitleQuery } from '../support/documents';
import { serviceForTest } from '../support/harness';

/** Two slow attempts open the breaker, for longer than the test: the third attempt is refused. */
const HANG_THEN_REFUSE = {
  transport: {
    timeouts: { headersMs: 1_000, bodyMs: 1_000, deadlineMs: 30_000 },
    retry: { attempts: 3, baseDelayMs: 1, maxDelayMs: 1 },
    breaker: { failureThreshold: 2, slowMs: 200, openMs: 60_000 },
  },
};

describe('the words of a refusal by the breaker', () => {
  test('follow what the whole call sent: "sent to it and failed" after two attempts reached it, "nothing was sent" before any', async () => {
    const svc = await serviceForTest({ services: HANG_THEN_REFUSE });
    expect((await svc.gql(TitleQuery, { titleNumber: 'MID15313' })).errors).toBeUndefined(); // a token in hand
    svc.emulator.faults.inject('titleSummary', { kind: 'hang' }, 100);
    svc.emulator.calls.reset();

    const sent = await svc.gql(TitleQuery, { titleNumber: 'BLK1' });
    expect(svc.emulator.calls.count({ route: 'titleSummary' })).toBe(2);
    expect(svc.services.transport.breakerState()).toBe('open');
    expect(sent.errors).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(
          /^The register is not answering: this request was sent to it and failed, and calls to it are now paused after repeated failures \(REGISTER_UNAVAILABLE\); try again in \d+ s\.$/,
        ),
        extensions: expect.objectContaining({ code: 'REGISTER_UNAVAILABLE', retryAfterSeconds: expect.any(Number) }),
      }),
    ]);
    expect(sent.errors![0]!.message).not.toMatch(/nothing was sent/);

    const refused = await svc.gql(TitleQuery, { titleNumber: 'BLK2' });
    expect(svc.emulator.calls.count({ route: 'titleSummary' })).toBe(2);
    expect(refused.errors).toEqual([
      expect.objectContaining({
        message: expect.stringMatching(
          /^The register is not answering: .*so nothing was sent to it \(REGISTER_UNAVAILABLE\); try again in \d+ s\.$/,
        ),
        extensions: expect.objectContaining({ code: 'REGISTER_UNAVAILABLE' }),
      }),
    ]);
  }, 30_000);
});
