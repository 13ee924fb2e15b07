/** Unit tests of the client's pure parts (no HTTP). */
import { describe, expect, it } from 'vitest';
import { CircuitBreaker } from '../../src/register/client/circuit-breaker';
import { redact, RegisterError, safeCause } from '../../src/register/client/errors';
import { backoffDelayMs, parseRetryAfter } from '../../src/register/client/retry';
import { parseContentDispositionFilename } from '../../src/register/client/responses';
import { TokenCache } from '../../src/register/client/token-cache';

describe('retry helpers', () => {
  it('parses Retry-After as seconds or as an HTTP date', () => {
    const now = Date.parse('2025-03-01T12:00:00Z');
    expect(parseRetryAfter('7', now)).toBe(7);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter('Sat, 01 Mar 2025 12:00:30 GMT', now)).toBe(30);
    expect(parseRetryAfter('Sat, 01 Mar 2025 11:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter(['3', '9'], now)).toBe(3);
  });

  it('uses full jitter under an exponential cap', () => {
    const p = { attempts: 5, baseDelayMs: 100, maxDelayMs: 1000 };
    expect(backoffDelayMs(p, 1, () => 0.999)).toBe(99);
    expect(backoffDelayMs(p, 3, () => 0.999)).toBe(399);
    expect(backoffDelayMs(p, 10, () => 0.999)).toBe(999);
    expect(backoffDelayMs(p, 3, () => 0)).toBe(0);
  });
});

describe('circuit breaker', () => {
  function make() {
    let t = 0;
    const b = new CircuitBreaker({ failureThreshold: 3, openMs: 1000, now: () => t });
    return { b, advance: (ms: number) => (t += ms) };
  }

  it('opens after N consecutive failures, half-opens for one trial, closes on success', () => {
    const { b, advance } = make();
    b.acquire()!.failure();
    b.acquire()!.failure();
    b.acquire()!.success(); // resets the count
    b.acquire()!.failure();
    b.acquire()!.failure();
    expect(b.state()).toBe('closed');
    b.acquire()!.failure();
    expect(b.state()).toBe('open');
    expect(b.acquire()).toBeUndefined();
    advance(1000);
    expect(b.state()).toBe('half_open');
    const trial = b.acquire()!;
    expect(trial).toBeDefined();
    expect(b.acquire()).toBeUndefined(); // one trial at a time
    trial.success();
    expect(b.state()).toBe('closed');
  });

  it('re-opens when the trial fails and frees the trial slot on release', () => {
    const { b, advance } = make();
    for (let i = 0; i < 3; i++) b.acquire()!.failure();
    advance(1000);
    b.acquire()!.release();
    expect(b.state()).toBe('half_open');
    b.acquire()!.failure();
    expect(b.state()).toBe('open');
    advance(999);
    expect(b.acquire()).toBeUndefined();
  });

  it('ignores results of calls admitted before it opened', () => {
    const { b, advance } = make();
    const straggler = b.acquire()!;
    for (let i = 0; i < 3; i++) b.acquire()!.failure();
    straggler.success();
    expect(b.state()).toBe('open');
    advance(1000);
    expect(b.state()).toBe('half_open');
  });
});

describe('token cache', () => {
  it('is single-flight and refreshes before expiry', async () => {
    let now = 1_000_000;
    let fetches = 0;
    const cache = new TokenCache(
      async () => {
        fetches++;
        await new Promise((r) => setTimeout(r, 10));
        return { accessToken: `t${fetches}`, expiresInSeconds: 300 };
      },
      { now: () => now, refreshBeforeExpiryMs: 30_000 },
    );
    const tokens = await Promise.all(Array.from({ length: 100 }, () => cache.get()));
    expect(new Set(tokens)).toEqual(new Set(['t1']));
    expect(fetches).toBe(1);
    now += 269_000;
    expect(await cache.get()).toBe('t1');
    now += 2_000; // 29 s left
    expect(await cache.get()).toBe('t2');
    cache.invalidate('t1'); // stale token: no effect
    expect(await cache.get()).toBe('t2');
    cache.invalidate('t2');
    expect(await cache.get()).toBe('t3');
  });

  it('shares a failure with every waiter and tries again on the next call', async () => {
    let fetches = 0;
    const cache = new TokenCache(async () => {
      fetches++;
      if (fetches === 1) throw new Error('boom');
      return { accessToken: 'ok', expiresInSeconds: 300 };
    });
    const results = await Promise.allSettled([cache.get(), cache.get(), cache.get()]);
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(await cache.get()).toBe('ok');
    expect(fetches).toBe(2);
  });

  it('lets one waiter give up without cancelling the shared fetch', async () => {
    const cache = new TokenCache(async () => {
      await new Promise((r) => setTimeout(r, 30));
      return { accessToken: 'shared', expiresInSeconds: 300 };
    });
    const ac = new AbortController();
    const a = cache.get(ac.signal);
    const b = cache.get();
    ac.abort(new Error('gone'));
    await expect(a).rejects.toThrow('gone');
    expect(await b).toBe('shared');
  });
});

describe('redaction', () => {
  it('removes URLs, query strings, credentials and sensitive values, keeping title numbers', () => {
    const msg =
      'fas 1234 refused for MID1234 at http://127.0.0.1:4010/v1/titles/MID1234/details?fas=1234 with Bearer abc.def token tok-xyz secret-a ?fas=1234';
    const out = redact(msg, ['1234', 'tok-xyz', 'secret-a', undefined]);
    expect(out).not.toMatch(/(?<![A-Z])1234/);
    expect(out).toContain('MID1234');
    expect(out).not.toContain('http');
    expect(out).not.toContain('abc.def');
    expect(out).not.toContain('tok-xyz');
    expect(out).not.toContain('secret-a');
  });

  it('builds messages from route, status and code; causes keep only a code', () => {
    const e = new RegisterError({ status: 404, code: 'TITLE_NOT_FOUND', route: 'titleSummary', detail: 'no such title' });
    expect(e.message).toBe('register titleSummary failed: HTTP 404 TITLE_NOT_FOUND: no such title');
    expect(e.outcomeUnknown).toBe(false);
    const raw = Object.assign(new Error('connect ECONNREFUSED http://x/?fas=1234'), { code: 'ECONNREFUSED' });
    expect(safeCause(raw)?.message).toBe('ECONNREFUSED');
  });
});

describe('content disposition', () => {
  it('extracts a safe file name', () => {
    expect(parseContentDispositionFilename('attachment; filename="MID15313-title.pdf"')).toBe('MID15313-title.pdf');
    expect(parseContentDispositionFilename("attachment; filename=a.pdf; filename*=UTF-8''caf%C3%A9.pdf")).toBe('café.pdf');
    expect(parseContentDispositionFilename('attachment; filename=plain.pdf')).toBe('plain.pdf');
    expect(parseContentDispositionFilename('attachment; filename="../../etc/passwd"')).toBe('passwd');
    expect(parseContentDispositionFilename('inline')).toBeUndefined();
    expect(parseContentDispositionFilename(undefined)).toBeUndefined();
  });
});
