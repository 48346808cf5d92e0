// Retry schedule and dead-letter decisions: exponential backoff with equal jitter, the cap, the
// maximum attempts and age, and what a receiver's Retry-After may change.
import { decideAfterAttempt, isExpired, parseRetryAfter, retryDelayMs, retrySchedule, type RetryPolicy } from '../../core/webhooks/retry-policy';

const policy: RetryPolicy = { baseMs: 1000, maxMs: 60_000, maxAttempts: 5, maxAgeMs: 3_600_000 };

describe('retryDelayMs', () => {
  test.each([
    ['first retry, least jitter', 1, 0, 500],
    ['first retry, most jitter', 1, 1, 1000],
    ['second retry, middle', 2, 0.5, 1500],
    ['fourth retry, least', 4, 0, 4000],
    ['capped', 10, 1, 60_000],
    ['capped, least jitter', 30, 0, 30_000],
    ['huge attempt count stays finite', 5000, 1, 60_000],
    ['random clamped above 1', 1, 7, 1000],
  ])('%s', (_name, failures, random, expected) => {
    expect(retryDelayMs(failures, policy, random)).toBe(expected);
  });

  test('grows until the cap and never goes beyond', () => {
    const delays = retrySchedule({ ...policy, maxAttempts: 12 });
    expect(delays).toEqual([1000, 2000, 4000, 8000, 16000, 32000, 60000, 60000, 60000, 60000, 60000]);
  });
});

describe('decideAfterAttempt', () => {
  const t0 = new Date('2026-03-01T12:00:00.000Z');
  const later = (ms: number): Date => new Date(t0.getTime() + ms);
  test.each([
    ['2xx delivers', { attempts: 1, outcome: { ok: true as const } }, { kind: 'delivered' }],
    ['2xx on the last attempt still delivers', { attempts: 5, outcome: { ok: true as const } }, { kind: 'delivered' }],
    ['failure retries after the jittered delay', { attempts: 1, outcome: { ok: false as const } }, { kind: 'retry', at: later(10_000 + 750), delayMs: 750 }],
    ['failure on the last attempt is dead', { attempts: 5, outcome: { ok: false as const } }, { kind: 'dead', reason: 'max-attempts' }],
    ['Retry-After longer than the backoff is honoured', { attempts: 1, outcome: { ok: false as const, retryAfterMs: 30_000 } }, { kind: 'retry', at: later(40_000), delayMs: 30_000 }],
    ['Retry-After shorter than the backoff is not', { attempts: 1, outcome: { ok: false as const, retryAfterMs: 10 } }, { kind: 'retry', at: later(10_750), delayMs: 750 }],
    ['a retry past the maximum age is dead now', { attempts: 2, now: later(3_599_000), outcome: { ok: false as const } }, { kind: 'dead', reason: 'max-age' }],
  ])('%s', (_name, facts, expected) => {
    expect(decideAfterAttempt({ enqueuedAt: t0, now: later(10_000), policy, random: 0.5, ...facts })).toEqual(expected);
  });

  test('Retry-After cannot hold a row beyond six hours', () => {
    const d = decideAfterAttempt({ attempts: 1, enqueuedAt: t0, now: t0, policy: { ...policy, maxAgeMs: 48 * 3_600_000 }, random: 0, outcome: { ok: false, retryAfterMs: 99 * 3_600_000 } });
    expect(d).toEqual({ kind: 'retry', at: later(6 * 3_600_000), delayMs: 6 * 3_600_000 });
  });

  test.each([
    ['younger than the maximum', 3_599_999, false],
    ['exactly the maximum', 3_600_000, true],
    ['older', 4_000_000, true],
  ])('isExpired: %s', (_name, age, expired) => {
    expect(isExpired(t0, later(age), policy)).toBe(expired);
  });
});

describe('parseRetryAfter', () => {
  const now = new Date('2026-03-01T12:00:00.000Z');
  test.each([
    ['seconds', '120', 120_000],
    ['zero', '0', 0],
    ['HTTP date', 'Sun, 01 Mar 2026 12:01:00 GMT', 60_000],
    ['date in the past', 'Sun, 01 Mar 2026 11:00:00 GMT', 0],
    ['absent', undefined, undefined],
    ['garbage', 'soon', undefined],
    ['negative', '-5', undefined],
  ])('%s', (_name, value, expected) => {
    expect(parseRetryAfter(value, now)).toBe(expected);
  });
});
