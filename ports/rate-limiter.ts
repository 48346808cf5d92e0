// The rate-limiter port: one token bucket per key, refilled continuously.
export interface RateDecision {
  allowed: boolean;
  /** Seconds until a request would be allowed (0 when allowed). */
  retryAfterSeconds: number;
}

export interface RateLimiter {
  /** Takes one token from the bucket `key` holding at most `capacity` tokens refilled at `perSecond`. */
  take(key: string, perSecond: number, capacity: number): Promise<RateDecision>;
  close(): Promise<void>;
}
