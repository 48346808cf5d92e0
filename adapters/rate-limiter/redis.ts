// Token buckets in Redis, shared by every gateway node: one bucket per key, read, refilled and spent by a
// single Lua script so that concurrent nodes cannot both spend the last token. The arithmetic is the
// memory limiter's, step for step, so both answer the same for the same history.
//
// Time comes from the Redis server (TIME) unless a clock is given: gateway nodes' clocks drift apart, the
// server's is the one they share. A bucket expires once it would have refilled completely, since a full
// bucket and a missing one mean the same thing.
import { createHash } from 'node:crypto';
import Redis from 'ioredis';
import type { RateDecision, RateLimiter } from '../../ports/rate-limiter';

// KEYS[1] bucket hash {t: tokens, u: updated ms}; ARGV perSecond, capacity, now ms ('' = server time).
// %.17g keeps doubles exact across the string round trip (Lua's tostring keeps only 14 digits).
const TAKE_SCRIPT = `
local rate = tonumber(ARGV[1])
local capacity = tonumber(ARGV[2])
local now
if ARGV[3] == '' then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + tonumber(t[2]) / 1000
else
  now = tonumber(ARGV[3])
end
local state = redis.call('HMGET', KEYS[1], 't', 'u')
local tokens = tonumber(state[1])
local updated = tonumber(state[2])
if tokens == nil or updated == nil then
  tokens = capacity
else
  tokens = math.min(capacity, tokens + (math.max(0, now - updated) / 1000) * rate)
end
local allowed = 0
local retry = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
else
  retry = math.max(1, math.ceil((1 - tokens) / rate))
end
redis.call('HSET', KEYS[1], 't', string.format('%.17g', tokens), 'u', string.format('%.17g', now))
redis.call('PEXPIRE', KEYS[1], math.ceil(capacity / rate * 1000) + 1000)
return {allowed, retry}
`;
const TAKE_SHA = createHash('sha1').update(TAKE_SCRIPT).digest('hex');

export interface RedisRateLimiterOptions {
  /** redis://[user:password@]host:port[/db] */
  url: string;
  /** Prefix of bucket keys, so several deployments can share one Redis. Default "waymark:rl:". */
  prefix?: string;
  /** Milliseconds since the epoch; by default the Redis server's clock. */
  clock?: () => number;
  /**
   * What take() answers when Redis fails mid-flight: true (default) lets the request through, so a Redis
   * outage degrades to "no rate limits" instead of failing every request; false rejects the call.
   */
  failOpen?: boolean;
  /** Called with each Redis error (a failed take(), a dropped connection). */
  onError?: (err: Error) => void;
  /** Longest wait for one script call before it counts as failed. Default 1000 ms. */
  commandTimeoutMs?: number;
}

export class RedisRateLimiter implements RateLimiter {
  private readonly prefix: string;
  private readonly failOpen: boolean;
  private readonly onError: (err: Error) => void;

  private constructor(private readonly redis: Redis, private readonly opts: RedisRateLimiterOptions) {
    this.prefix = opts.prefix ?? 'waymark:rl:';
    this.failOpen = opts.failOpen ?? true;
    this.onError = opts.onError ?? (() => undefined);
  }

  /** Connects, and fails with a clear message when Redis cannot be reached. */
  static async connect(opts: RedisRateLimiterOptions): Promise<RedisRateLimiter> {
    // No retries until the first connection succeeds: start-up should fail fast and leave no timers behind.
    let started = false;
    const redis = new Redis(opts.url, {
      lazyConnect: true,
      // Requests must not queue behind a dead connection: a command fails at once and take() decides.
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: opts.commandTimeoutMs ?? 1000,
      connectTimeout: 5000,
      retryStrategy: (attempt) => (started ? Math.min(attempt * 200, 2000) : null),
    });
    // connect() itself only says "Connection is closed"; the socket's error event says why.
    let cause: unknown;
    const remember = (err: Error): void => {
      cause = err;
    };
    redis.on('error', remember);
    try {
      await redis.connect();
    } catch (err) {
      // Once 'end', the socket is gone; disconnect() would only arm a 2 s timer waiting for it to close.
      if (redis.status !== 'end') redis.disconnect();
      throw new Error(`Redis at ${describeRedisUrl(opts.url)} is unreachable: ${errorText(cause ?? err)}`);
    }
    started = true;
    // After start-up, ioredis reconnects by itself; errors are reported, not thrown at the process.
    redis.off('error', remember);
    redis.on('error', opts.onError ?? (() => undefined));
    return new RedisRateLimiter(redis, opts);
  }

  async take(key: string, perSecond: number, capacity: number): Promise<RateDecision> {
    if (!(perSecond > 0) || !(capacity > 0)) throw new RangeError(`rate limit ${key}: perSecond and capacity must be positive`);
    const args = [this.prefix + key, String(perSecond), String(capacity), this.opts.clock ? String(this.opts.clock()) : ''];
    try {
      const [allowed, retry] = await this.run(args);
      return { allowed: allowed === 1, retryAfterSeconds: retry };
    } catch (err) {
      this.onError(err as Error);
      if (this.failOpen) return { allowed: true, retryAfterSeconds: 0 };
      throw err;
    }
  }

  /** EVALSHA, loading the script with EVAL when the server does not know it (restart, SCRIPT FLUSH, failover). */
  private async run(args: string[]): Promise<[number, number]> {
    try {
      return (await this.redis.evalsha(TAKE_SHA, 1, ...args)) as [number, number];
    } catch (err) {
      if (!(err instanceof Error) || !err.message.startsWith('NOSCRIPT')) throw err;
      return (await this.redis.eval(TAKE_SCRIPT, 1, ...args)) as [number, number];
    }
  }

  async close(): Promise<void> {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}

function describeRedisUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname || 'localhost'}:${u.port || '6379'}`;
  } catch {
    return 'the server named by REDIS_URL';
  }
}

function errorText(err: unknown): string {
  if (err instanceof AggregateError && err.errors.length > 0) return err.errors.map(errorText).join('; ');
  if (err instanceof Error) return err.message || (err as NodeJS.ErrnoException).code || err.name;
  return String(err);
}
