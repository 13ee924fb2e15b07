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
  const granted = grantOf(request, state.calls, refill);
  const admission = { admitted: true as const, calls: state.calls + granted, ...(request.lease ? { granted } : {}) };
  return { admission, tokens: request.burst > 0 ? refill - granted : 0 };
}

/**
 * How many calls an admission grants: one, or for a lease what it wants, but never more than a
 * quarter of what is left before the next limit (the free reads' share for a free read, the day's
 * for the rest), so that leases shrink as a limit nears and its last calls go one at a time; and
 * never more than the client's bucket holds.
 */
function grantOf(request: AdmitRequest, calls: number, refill: number): number {
  if (!request.lease) return 1;
  const left = (request.free ? request.freeLimit : request.dailyLimit) - calls;
  const bucket = request.burst > 0 ? Math.floor(refill) : Number.POSITIVE_INFINITY;
  return Math.max(1, Math.min(Math.floor(request.lease.wanted), Math.floor(left / 4), bucket));
}
