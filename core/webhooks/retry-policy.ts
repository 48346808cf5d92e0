// When a failed delivery is tried again, and when it is given up (dead letter). Exponential backoff
// with "equal jitter": the n-th retry waits between half and all of base·2^(n-1), capped. The random
// half spreads retries of many rows failing together (one receiver down) so they do not return in
// lockstep; the fixed half keeps the schedule predictable. Time and randomness are inputs.

export interface RetryPolicy {
  /** Delay before the first retry (before jitter), ms. */
  baseMs: number;
  /** Largest delay between two attempts, ms. */
  maxMs: number;
  /** Attempts (first one included) before a row becomes a dead letter. */
  maxAttempts: number;
  /** A row not delivered this long after it was queued becomes a dead letter, ms. */
  maxAgeMs: number;
}

/** Longest wait a receiver's Retry-After may ask for, whatever the policy's cap. */
const RETRY_AFTER_CEILING_MS = 6 * 3_600_000;

/**
 * Delay before the next attempt after `failedAttempts` failures (≥ 1); `random` in [0, 1).
 *
 * @example retryDelayMs(3, { baseMs: 1000, maxMs: 60000, maxAttempts: 10, maxAgeMs: 1e9 }, 0) // → 2000 (half of 4000)
 */
export function retryDelayMs(failedAttempts: number, policy: Pick<RetryPolicy, 'baseMs' | 'maxMs'>, random: number): number {
  const exponent = Math.max(0, Math.min(failedAttempts - 1, 40));
  const full = Math.min(policy.maxMs, policy.baseMs * 2 ** exponent);
  const r = Math.min(Math.max(random, 0), 1);
  return Math.round(full / 2 + (full / 2) * r);
}

/** The worst-case schedule: delays with jitter at its maximum, for documentation and sanity checks. */
export function retrySchedule(policy: RetryPolicy): number[] {
  const delays: number[] = [];
  for (let n = 1; n < policy.maxAttempts; n++) delays.push(retryDelayMs(n, policy, 1));
  return delays;
}

export type AttemptOutcome =
  | { ok: true }
  /** retryAfterMs: what the receiver asked for (Retry-After on 429/503), if anything. */
  | { ok: false; retryAfterMs?: number };

export type DeadReason = 'max-attempts' | 'max-age';

export type Decision =
  | { kind: 'delivered' }
  | { kind: 'retry'; at: Date; delayMs: number }
  | { kind: 'dead'; reason: DeadReason };

export interface AttemptFacts {
  /** Attempts made so far, this one included. */
  attempts: number;
  /** When the row was queued (or re-queued by a redelivery): the start of its maximum age. */
  enqueuedAt: Date;
  now: Date;
  outcome: AttemptOutcome;
  policy: RetryPolicy;
  random: number;
}

export function isExpired(enqueuedAt: Date, now: Date, policy: Pick<RetryPolicy, 'maxAgeMs'>): boolean {
  return now.getTime() - enqueuedAt.getTime() >= policy.maxAgeMs;
}

/** What happens to a row after an attempt. */
export function decideAfterAttempt(f: AttemptFacts): Decision {
  if (f.outcome.ok) return { kind: 'delivered' };
  if (f.attempts >= f.policy.maxAttempts) return { kind: 'dead', reason: 'max-attempts' };
  let delayMs = retryDelayMs(f.attempts, f.policy, f.random);
  // A receiver that says when to come back is believed, within reason.
  if (f.outcome.retryAfterMs !== undefined) delayMs = Math.max(delayMs, Math.min(f.outcome.retryAfterMs, RETRY_AFTER_CEILING_MS));
  const at = new Date(f.now.getTime() + delayMs);
  // Waiting only to expire at the next turn would hold the endpoint's queue for nothing.
  if (isExpired(f.enqueuedAt, at, f.policy)) return { kind: 'dead', reason: 'max-age' };
  return { kind: 'retry', at, delayMs };
}

/** Retry-After as a number of seconds or an HTTP date, relative to `now`; undefined when unreadable. */
export function parseRetryAfter(value: string | undefined, now: Date): number | undefined {
  if (value === undefined) return undefined;
  const text = value.trim();
  if (/^\d{1,9}$/.test(text)) return Number(text) * 1000;
  // An HTTP date names its weekday and month; Date.parse alone would read "-5" as a year.
  if (!/[a-z]{3}/i.test(text)) return undefined;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now.getTime());
}
