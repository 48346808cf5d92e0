// In-memory token buckets for a single gateway process. Idle buckets are swept so memory follows the
// number of active keys, not every key ever seen.
import type { RateDecision, RateLimiter } from '../../ports/rate-limiter';

interface Bucket {
  tokens: number;
  updatedMs: number;
}

const SWEEP_EVERY_MS = 60_000;
/** At ~150 bytes a bucket (short keys), about 30 MB at most, whatever the traffic. */
const DEFAULT_MAX_BUCKETS = 200_000;

export class MemoryRateLimiter implements RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private lastSweepMs = 0;

  constructor(
    private readonly clock: () => number = Date.now,
    private readonly maxBuckets = DEFAULT_MAX_BUCKETS,
  ) {}

  get size(): number {
    return this.buckets.size;
  }

  async take(key: string, perSecond: number, capacity: number): Promise<RateDecision> {
    const now = this.clock();
    if (now - this.lastSweepMs > SWEEP_EVERY_MS) this.sweep(now);
    let bucket = this.buckets.get(key);
    if (!bucket) {
      if (this.buckets.size >= this.maxBuckets) this.makeRoom(now);
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

  /**
   * A flood of new keys: sweep the idle buckets early, and if every bucket is still active, forget the
   * oldest-created ones. Forgetting a bucket only refills it, so the cost is some extra allowance for
   * the oldest keys, never a refusal of an honest client.
   */
  private makeRoom(now: number): void {
    this.sweep(now);
    let excess = this.buckets.size - Math.floor(this.maxBuckets * 0.9);
    for (const key of this.buckets.keys()) {
      if (excess-- <= 0) break;
      this.buckets.delete(key);
    }
  }

  async close(): Promise<void> {
    this.buckets.clear();
  }
}
