// Redis token buckets: the same answers as the in-memory limiter for the same history, one budget shared
// by several gateway nodes (limiter instances), no double spending under concurrency, keys that expire,
// and the script surviving SCRIPT FLUSH. Time is injected (a shared fake clock) except where the server's
// clock is the point.
import { randomBytes } from 'node:crypto';
import Redis from 'ioredis';
import { MemoryRateLimiter } from '../../adapters/rate-limiter/memory';
import type { RateDecision } from '../../ports/rate-limiter';
import { RedisRateLimiter, type RedisRateLimiterOptions } from '../../adapters/rate-limiter/redis';
import { envVar, requires } from '../support/requires';

const REDIS_URL = process.env.REDIS_URL;
const d = requires('Redis rate limiter', envVar('REDIS_URL', 'redis://127.0.0.1:6379'));

const PREFIX = `waymark_test:${randomBytes(5).toString('hex')}:`;
let admin: Redis;
const limiters: RedisRateLimiter[] = [];
let now = 1_700_000_000_000;
const clock = (): number => now;

async function limiter(opts: Partial<RedisRateLimiterOptions> = {}): Promise<RedisRateLimiter> {
  const l = await RedisRateLimiter.connect({ url: REDIS_URL as string, prefix: PREFIX, clock, ...opts });
  limiters.push(l);
  return l;
}

const allowedOf = (ds: RateDecision[]): boolean[] => ds.map((x) => x.allowed);

d('Redis rate limiter', () => {
  beforeAll(async () => {
    admin = new Redis(REDIS_URL as string);
  });
  afterAll(async () => {
    for (const l of limiters) await l.close();
    const keys = await admin.keys(`${PREFIX}*`);
    if (keys.length) await admin.del(...keys);
    await admin.quit();
  });

  // Each step: milliseconds to advance the clock, then one take(key, perSecond, capacity).
  type Step = [advanceMs: number, key: string, perSecond: number, capacity: number];
  const SCENARIOS: Array<[string, Step[]]> = [
    ['burst to empty, then refill', [[0, 'a', 1, 3], [0, 'a', 1, 3], [0, 'a', 1, 3], [0, 'a', 1, 3], [999, 'a', 1, 3], [1, 'a', 1, 3], [0, 'a', 1, 3]]],
    ['fractional rate', [[0, 'b', 0.5, 1], [0, 'b', 0.5, 1], [1500, 'b', 0.5, 1], [500, 'b', 0.5, 1], [0, 'b', 0.5, 1]]],
    ['fast rate, partial refill', [[0, 'c', 10, 10], ...Array.from({ length: 12 }, (): Step => [0, 'c', 10, 10]), [250, 'c', 10, 10], [0, 'c', 10, 10], [0, 'c', 10, 10]]],
    ['refill caps at capacity', [[0, 'e', 2, 2], [0, 'e', 2, 2], [60_000, 'e', 2, 2], [0, 'e', 2, 2], [0, 'e', 2, 2], [0, 'e', 2, 2]]],
    ['the clock steps back an hour', [[0, 'f', 1, 2], [0, 'f', 1, 2], [-3_600_000, 'f', 1, 2], [0, 'f', 1, 2], [1000, 'f', 1, 2], [0, 'f', 1, 2]]],
  ];

  test.each(SCENARIOS)('same decisions as the memory limiter: %s', async (_name, steps) => {
    const redis = await limiter({ prefix: `${PREFIX}${randomBytes(3).toString('hex')}:` });
    const memory = new MemoryRateLimiter(clock);
    const fromRedis: RateDecision[] = [];
    const fromMemory: RateDecision[] = [];
    for (const [advance, key, perSecond, capacity] of steps) {
      now += advance;
      fromRedis.push(await redis.take(key, perSecond, capacity));
      fromMemory.push(await memory.take(key, perSecond, capacity));
    }
    expect(allowedOf(fromMemory)).toContain(false);
    expect(fromRedis).toEqual(fromMemory);
  });

  test('same decisions as the memory limiter over a long seeded random history', async () => {
    let seed = 7;
    const rnd = (): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const KEYS: Array<[string, number, number]> = [['k1', 1, 1], ['k2', 2.5, 2.5], ['k3', 10, 10], ['k4', 0.5, 1], ['k5', 3, 7]];
    const redis = await limiter({ prefix: `${PREFIX}long:` });
    const memory = new MemoryRateLimiter(clock);
    let denied = 0;
    for (let i = 0; i < 600; i++) {
      now += Math.floor(rnd() * 400);
      const [key, perSecond, capacity] = KEYS[Math.floor(rnd() * KEYS.length)];
      const expected = await memory.take(key, perSecond, capacity);
      expect(await redis.take(key, perSecond, capacity)).toEqual(expected);
      if (!expected.allowed) denied++;
    }
    expect(denied).toBeGreaterThan(20);
  });

  test('two gateway nodes spend one budget', async () => {
    const nodeA = await limiter();
    const nodeB = await limiter();
    const decisions: RateDecision[] = [];
    for (let i = 0; i < 6; i++) decisions.push(await (i % 2 === 0 ? nodeA : nodeB).take('shared', 1, 4));
    expect(allowedOf(decisions)).toEqual([true, true, true, true, false, false]);
    expect(decisions[5].retryAfterSeconds).toBe(1);
    now += 1000;
    expect((await nodeB.take('shared', 1, 4)).allowed).toBe(true);
    expect((await nodeA.take('shared', 1, 4)).allowed).toBe(false);
  });

  test('concurrent takes from two nodes never spend a token twice', async () => {
    const nodeA = await limiter();
    const nodeB = await limiter();
    const decisions = await Promise.all(Array.from({ length: 60 }, (_, i) => (i % 2 === 0 ? nodeA : nodeB).take('race', 5, 10)));
    expect(decisions.filter((x) => x.allowed)).toHaveLength(10);
  });

  test('a bucket key expires once the bucket would be full again', async () => {
    const l = await limiter();
    await l.take('ttl', 2, 10);
    const ttl = await admin.pttl(`${PREFIX}ttl`);
    // Refilling 10 tokens at 2/s takes 5 s; the key lives that long plus a second of slack.
    expect(ttl).toBeGreaterThan(5000);
    expect(ttl).toBeLessThanOrEqual(6000);
  });

  test('the script is loaded again after SCRIPT FLUSH, and the bucket keeps its state', async () => {
    const l = await limiter();
    expect((await l.take('flush', 1, 1)).allowed).toBe(true);
    await admin.script('FLUSH');
    expect(await l.take('flush', 1, 1)).toEqual({ allowed: false, retryAfterSeconds: 1 });
  });

  test("without a clock, the Redis server's time drives the refill", async () => {
    const l = await limiter({ clock: undefined });
    const decisions: RateDecision[] = [];
    for (let i = 0; i < 4; i++) decisions.push(await l.take('server-time', 0.001, 3));
    expect(allowedOf(decisions)).toEqual([true, true, true, false]);
    // 1 token at 0.001/s: about 1000 s to wait, less the instants already elapsed.
    expect(decisions[3].retryAfterSeconds).toBeGreaterThan(900);
    expect(decisions[3].retryAfterSeconds).toBeLessThanOrEqual(1000);
  });

  test.each([
    ['failOpen (default) lets the request through and reports the error', true],
    ['failOpen false rejects', false],
  ])('a Redis error mid-flight: %s', async (_name, failOpen) => {
    const errors: Error[] = [];
    const l = await limiter({ failOpen, onError: (e) => errors.push(e) });
    // A plain string where the bucket hash should be: every script call on it fails with WRONGTYPE.
    await admin.set(`${PREFIX}broken`, 'not a hash');
    const attempt = l.take('broken', 1, 1);
    if (failOpen) await expect(attempt).resolves.toEqual({ allowed: true, retryAfterSeconds: 0 });
    else await expect(attempt).rejects.toThrow(/WRONGTYPE/);
    expect(errors.map((e) => e.message).join()).toMatch(/WRONGTYPE/);
  });

  test.each([
    ['zero rate', 0, 1],
    ['negative capacity', 1, -1],
    ['NaN rate', Number.NaN, 1],
  ])('a %s is refused', async (_name, perSecond, capacity) => {
    const l = await limiter();
    await expect(l.take('bad', perSecond, capacity)).rejects.toThrow(RangeError);
  });

  test('an unreachable Redis fails at start-up with its address', async () => {
    await expect(RedisRateLimiter.connect({ url: 'redis://127.0.0.1:1' })).rejects.toThrow(/^Redis at 127\.0\.0\.1:1 is unreachable: .*ECONNREFUSED/);
  });
});
