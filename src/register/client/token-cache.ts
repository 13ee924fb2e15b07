/**
 * OAuth access-token cache of ONE API client (one tenant). Single-flight: however many calls
 * find the cache cold or stale at once, exactly one token request is made and they all share
 * its result. A token is replaced once less than `refreshBeforeExpiryMs` of its life remains.
 */
import type { CallerSignal } from './cancellation';
import { raceSignal } from './retry';

export interface IssuedToken {
  accessToken: string;
  /** Lifetime in seconds, from `expires_in`. */
  expiresInSeconds: number;
}

export interface TokenCacheOptions {
  /** Refresh when less than this much lifetime remains (default 30 s). */
  refreshBeforeExpiryMs?: number;
  /** Clock, in epoch milliseconds (default Date.now); tests pass the emulator's clock. */
  now?: () => number;
}

interface CachedToken {
  accessToken: string;
  refreshAt: number;
  expiresAt: number;
}

export const DEFAULT_REFRESH_BEFORE_EXPIRY_MS = 30_000;

export class TokenCache {
  private cached: CachedToken | undefined;
  private inflight: Promise<CachedToken> | undefined;
  private readonly refreshBeforeMs: number;
  private readonly now: () => number;

  /** `fetchToken` must not depend on any one caller's signal: its result is shared. */
  constructor(
    private readonly fetchToken: () => Promise<IssuedToken>,
    opts: TokenCacheOptions = {},
  ) {
    this.refreshBeforeMs = opts.refreshBeforeExpiryMs ?? DEFAULT_REFRESH_BEFORE_EXPIRY_MS;
    this.now = opts.now ?? Date.now;
  }

  /** A usable access token; `signal` only stops this caller from waiting. */
  async get(signal?: CallerSignal): Promise<string> {
    return this.ready() ?? (await raceSignal(this.refresh(), signal)).accessToken;
  }

  /** The cached token while it needs no refresh, without waiting; undefined otherwise. */
  ready(): string | undefined {
    const c = this.cached;
    return c && this.now() < c.refreshAt ? c.accessToken : undefined;
  }

  /** Forgets `accessToken` (after a 401), unless a newer token has already replaced it. */
  invalidate(accessToken: string): void {
    if (this.cached?.accessToken === accessToken) this.cached = undefined;
  }

  /** The current token, if any, for redaction of messages. */
  current(): string | undefined {
    return this.cached?.accessToken;
  }

  private refresh(): Promise<CachedToken> {
    if (this.inflight) return this.inflight;
    const p = (async () => {
      const issued = await this.fetchToken();
      const lifetimeMs = issued.expiresInSeconds * 1000;
      const now = this.now();
      // Never refresh earlier than half-way through the life, or short-lived tokens would be
      // refetched on every call.
      const early = Math.min(this.refreshBeforeMs, lifetimeMs / 2);
      const token: CachedToken = { accessToken: issued.accessToken, expiresAt: now + lifetimeMs, refreshAt: now + lifetimeMs - early };
      this.cached = token;
      return token;
    })();
    this.inflight = p;
    const clear = () => {
      if (this.inflight === p) this.inflight = undefined;
    };
    p.then(clear, clear);
    return p;
  }
}
