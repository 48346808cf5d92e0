// Configuration from the environment, read once at start-up. docs/configuration.md lists every variable.
import path from 'node:path';

export interface GatewayConfig {
  port: number;
  host: string;
  dataDir: string;
  store: 'sqlite' | 'postgres';
  databaseUrl?: string;
  /** PostgreSQL schema holding Waymark's tables (WAYMARK_DATABASE_SCHEMA); the adapter's default when unset. */
  databaseSchema?: string;
  rateLimiter: 'memory' | 'redis';
  redisUrl?: string;
  /** Multiplies every rate limit; 0 turns limits off (benchmarks). */
  rateLimitScale: number;
  /** Largest accepted request body. */
  bodyLimit: string;
  /** Express "trust proxy" value: which X-Forwarded-For hops to believe. Off by default. */
  trustProxy: string | false;
  /** Period of the background jobs (geofence expiry, trip expiry), ms. */
  jobIntervalMs: number;
  logRequests: boolean;
}

function intFrom(name: string, fallback: number, env: NodeJS.ProcessEnv): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return value;
}

export function configFromEnv(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const store = env.WAYMARK_STORE ?? 'sqlite';
  if (store !== 'sqlite' && store !== 'postgres') throw new Error(`WAYMARK_STORE must be sqlite or postgres, got "${store}"`);
  const rateLimiter = env.WAYMARK_RATE_LIMITER ?? 'memory';
  if (rateLimiter !== 'memory' && rateLimiter !== 'redis') throw new Error(`WAYMARK_RATE_LIMITER must be memory or redis, got "${rateLimiter}"`);
  const trust = env.WAYMARK_TRUST_PROXY;
  return {
    port: intFrom('PORT', 8080, env),
    host: env.HOST ?? '0.0.0.0',
    dataDir: path.resolve(env.WAYMARK_DATA_DIR ?? './.waymark'),
    store,
    databaseUrl: env.DATABASE_URL,
    databaseSchema: env.WAYMARK_DATABASE_SCHEMA || undefined,
    rateLimiter,
    redisUrl: env.REDIS_URL,
    rateLimitScale: intFrom('WAYMARK_RATE_LIMIT_SCALE', 1, env),
    bodyLimit: env.WAYMARK_BODY_LIMIT ?? '1mb',
    trustProxy: trust === undefined || trust === '' || trust === 'false' ? false : trust,
    jobIntervalMs: intFrom('WAYMARK_JOB_INTERVAL_MS', 30_000, env),
    logRequests: env.WAYMARK_LOG_REQUESTS !== 'false',
  };
}
