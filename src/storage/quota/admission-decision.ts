import type { Admission, AdmitRequest } from './store';

/**
 * The decision, shared by both backends (PostgreSQL runs the same steps in a function): block,
 * then the day's limit, then the reserve for paid work, then the client's bucket.
 */
export function decide(
  request: AdmitRequest,
  state: { calls: number; blockedUntil: number; tokens: number; tokensAt: number },
  msToMidnight: number,
): { admission: Admission; tokens: number } {
  const refill = request.burst > 0 ? Math.min(request.burst, state.tokens + Math.max(0, request.now - state.tokensAt) * request.perMs) : 0;
  const refuse = (reason: 'blocked' | 'daily' | 'reserve' | 'budget', retryAfterMs: number) => ({
    admission: { admitted: false as const, reason, retryAfterMs: Math.max(1, Math.ceil(retryAfterMs)) },
    tokens: refill,
  });
  if (state.blockedUntil > request.now) return refuse('blocked', state.blockedUntil - request.now);
  if (state.calls >= request.dailyLimit) return refuse('daily', msToMidnight);
  if (request.free && state.calls >= request.freeLimit) return refuse('reserve', msToMidnight);
  if (request.burst > 0 && refill < 1) return refuse('budget', (1 - refill) / request.perMs);
  return { admission: { admitted: true, calls: state.calls + 1 }, tokens: request.burst > 0 ? refill - 1 : 0 };
}
