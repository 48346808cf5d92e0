// The in-memory token buckets, with the clock injected: each scenario is a list of steps (advance the clock,
// take a token) and the decision every step must get.
import { MemoryRateLimiter } from '../../adapters/rate-limiter/memory';

type Step = {
  /** Milliseconds to move the clock before taking (negative: the wall clock stepped back). */
  advance: number;
  key?: string;
  /** Expected: allowed, or the Retry-After seconds of a refusal. */
  want: 'ok' | number;
};

interface Scenario {
  name: string;
  perSecond: number;
  capacity: number;
  steps: Step[];
}

const ok = (advance = 0, key?: string): Step => ({ advance, key, want: 'ok' });
const no = (retryAfter: number, advance = 0, key?: string): Step => ({ advance, key, want: retryAfter });
const times = (n: number, step: Step): Step[] => Array.from({ length: n }, () => step);

const SCENARIOS: Scenario[] = [
  {
    name: '10/s: a burst of 10, then refused for a second',
    perSecond: 10, capacity: 10,
    steps: [...times(10, ok()), no(1), no(1)],
  },
  {
    name: '10/s: 100 ms gives one token back, not two',
    perSecond: 10, capacity: 10,
    steps: [...times(10, ok()), no(1), ok(100), no(1), ok(100)],
  },
  {
    name: '10/s: 99 ms is not yet a token',
    perSecond: 10, capacity: 10,
    steps: [...times(10, ok()), no(1, 99), ok(1)],
  },
  {
    name: '1/s with capacity 1 (track): one per second',
    perSecond: 1, capacity: 1,
    steps: [ok(), no(1), no(1, 500), ok(500), no(1)],
  },
  {
    name: '0.5/s: Retry-After counts the whole wait',
    perSecond: 0.5, capacity: 1,
    steps: [ok(), no(2), no(1, 1000), ok(1000)],
  },
  {
    name: 'refill stops at capacity',
    perSecond: 10, capacity: 3,
    steps: [ok(), ok(60_000), ok(), ok(), no(1)],
  },
  {
    name: 'keys have their own buckets',
    perSecond: 1, capacity: 1,
    steps: [ok(0, 'a'), no(1, 0, 'a'), ok(0, 'b'), no(1, 0, 'b'), ok(0, 'c')],
  },
  {
    name: 'a bucket idle past the sweep is full again',
    perSecond: 1, capacity: 2,
    steps: [ok(), ok(), no(1), ok(120_000), ok(), no(1)],
  },
  {
    name: 'the wall clock stepping back an hour does not lock the key out',
    perSecond: 10, capacity: 10,
    steps: [ok(), ok(-3_600_000), ok(), ...times(7, ok()), no(1), ok(100)],
  },
];

test.each(SCENARIOS)('$name', async ({ perSecond, capacity, steps }) => {
  let now = 1_700_000_000_000;
  const limiter = new MemoryRateLimiter(() => now);
  const got: Array<'ok' | number> = [];
  for (const step of steps) {
    now += step.advance;
    const d = await limiter.take(step.key ?? 'k', perSecond, capacity);
    got.push(d.allowed ? 'ok' : d.retryAfterSeconds);
    if (d.allowed) expect(d.retryAfterSeconds).toBe(0);
  }
  expect(got).toEqual(steps.map((s) => s.want));
  await limiter.close();
});

test('close forgets every bucket', async () => {
  const now = 1_700_000_000_000;
  const limiter = new MemoryRateLimiter(() => now);
  expect((await limiter.take('k', 1, 1)).allowed).toBe(true);
  expect((await limiter.take('k', 1, 1)).allowed).toBe(false);
  await limiter.close();
  expect((await limiter.take('k', 1, 1)).allowed).toBe(true);
});
