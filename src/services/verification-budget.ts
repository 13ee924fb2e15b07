/**
 * How many sign-in tokens that fail verification one address may make this service check. A
 * forged token under a published key costs a signature check before it is refused (about 1.6× a
 * valid key's request, bench:token), and its sender needs no credentials: each address has a
 * budget of TOKEN_FAILURES_PER_MINUTE failures (a bucket refilled evenly over the minute). While it
 * is spent, a token from that address that is not already verified is refused before any check
 * (429, Retry-After); tokens already verified, and API keys, are not affected. An address is the
 * connection's peer: behind a proxy, the proxy's, shared by everyone behind it.
 *
 * Hand-written: a token bucket per address is a dozen lines, and rate-limit libraries bring
 * stores and clocks of their own this does not need (one replica's memory is the right scope:
 * the cost it bounds is this replica's CPU).
 */
import { DEFAULT_TOKEN_FAILURES_PER_MINUTE } from './settings';

/** Addresses remembered at most; the one heard from longest ago goes first (it has its whole budget back by then, or nearly). */
const MAX_ADDRESSES = 10_000;

export class VerificationBudget {
  private readonly buckets = new Map<string, { left: number; at: number }>();

  constructor(
    private readonly perMinute = DEFAULT_TOKEN_FAILURES_PER_MINUTE,
    private readonly now: () => number = Date.now,
  ) {}

  /** Seconds until a token from `address` may be checked; 0 when it may now. */
  waitSeconds(address: string): number {
    const left = this.refilled(address).left;
    return left >= 1 ? 0 : Math.ceil(((1 - left) * 60) / this.perMinute);
  }

  /** A token from `address` failed its check. */
  failed(address: string): void {
    const bucket = this.refilled(address);
    bucket.left = Math.max(0, bucket.left - 1);
    this.buckets.delete(address);
    this.buckets.set(address, bucket);
    if (this.buckets.size > MAX_ADDRESSES) this.buckets.delete(this.buckets.keys().next().value!);
  }

  private refilled(address: string): { left: number; at: number } {
    const now = this.now();
    const bucket = this.buckets.get(address);
    if (!bucket) return { left: this.perMinute, at: now };
    bucket.left = Math.min(this.perMinute, bucket.left + ((now - bucket.at) / 60_000) * this.perMinute);
    bucket.at = now;
    return bucket;
  }
}
