// In-memory token buckets for a single gateway process. Idle buckets are swept so memory follows the
// number of active keys, not every key ever seen.
import type { RateDecision, RateLimiter } from './port';

interface Bucket {
  tokens: number;
  updatedMs: number;
}

const SWEEP_EVERY_MS = 60_000;

export class MemoryRateLimiter implements RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private lastSweepMs = 0;

  constructor(private readonly clock: () => number = Date.now) {}

  async take(key: string, perSecond: number, capacity: number): Promise<RateDecision> {
    const now = this.clock();
    if (now - this.lastSweepMs > SWEEP_EVERY_MS) this.sweep(now);
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { tokens: capacity, updatedMs: now };
      this.buckets.set(key, bucket);
    } else {
      // Date.now() can step back (NTP, a VM resumed): that is no refill, never a debt of tokens.
      const elapsedMs = Math.max(0, now - bucket.updatedMs);
      bucket.tokens = Math.min(capacity, bucket.tokens + (elapsedMs / 1000) * perSecond);
      bucket.updatedMs = now;
    }
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return { allowed: true, retryAfterSeconds: 0 };
    }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / perSecond)) };
  }

  /** A bucket untouched long enough to be full again carries no state worth keeping. */
  private sweep(now: number): void {
    this.lastSweepMs = now;
    for (const [key, bucket] of this.buckets) {
      if (now - bucket.updatedMs > SWEEP_EVERY_MS) this.buckets.delete(key);
    }
  }

  async close(): Promise<void> {
    this.buckets.clear();
  }
}
