// Configuration from the environment, read once at start-up. docs/configuration.md lists every variable.
import { trustProxyFrom, type TrustProxy } from './http/trust-proxy';
import path from 'node:path';
import { parseDailyTime, type DailyTime } from './engine/geofence-sync/schedule';
import { parseIpRanges } from './engine/ip-ranges';
import type { SmtpSettings } from '../adapters/mailer/smtp-mailer';

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
  trustProxy: TrustProxy;
  /** Period of the background jobs (geofence expiry, trip expiry), ms. */
  jobIntervalMs: number;
  logRequests: boolean;
  /** Origins allowed to call the API from browsers (WAYMARK_CORS_ORIGINS, comma-separated); empty = any. */
  corsOrigins: string[];
  webhooks: WebhookConfig;
  /** Bearer token for GET /metrics; unset: /metrics answers loopback clients only. */
  metricsToken?: string;
  geofenceImport: GeofenceImportConfig;
  regions: RegionsConfig;
  /** Imported OSM extracts (docs/data-import.md). */
  extracts: ExtractsConfig;
  ipGeocode: IpGeocodeConfig;
  routing: RoutingConfig;
  geocoding: GeocodingConfig;
}

export type RoutingMode = 'car' | 'truck' | 'bike' | 'foot';
export type RoutingEngine = 'embedded' | 'osrm' | 'valhalla';

/** Which engine answers each travel mode (docs/routing.md). */
export interface RoutingConfig {
  modes: Record<RoutingMode, { engine: 'embedded' } | { engine: 'osrm' | 'valhalla'; url: string }>;
  /** Deadline of one request to an external engine, ms. */
  timeoutMs: number;
}

/** Forward/reverse geocoding and autocomplete (docs/geocoding.md). */
export interface GeocodingConfig {
  /** `embedded`: imported extracts plus bundled coarse data; `pelias`: a Pelias API at peliasUrl. */
  engine: 'embedded' | 'pelias';
  peliasUrl?: string;
  /** Deadline of one Pelias request, ms. */
  peliasTimeoutMs: number;
}

/** Region data (docs/data-regions.md). */
export interface RegionsConfig {
  /** Least time between two looks for boundaries imported into <dataDir>/regions/ while running, ms; 0: every lookup. */
  reloadCheckMs: number;
}

/** Imported OSM extracts in <dataDir>/extracts/ (docs/data-import.md). */
export interface ExtractsConfig {
  /** Least time between two looks for extracts imported or removed while running, ms; 0: on every use. */
  reloadCheckMs: number;
}

/** IP geocoding databases (docs/data-regions.md); unset: the bundled DB-IP City Lite files, no proxy detection. */
export interface IpGeocodeConfig {
  /** City .mmdb files (MaxMind GeoIP2/GeoLite2 City or ip-location-db), tried in order. */
  cityDatabases?: string[];
  /** A MaxMind GeoIP2 Anonymous IP .mmdb: enables `proxy`. */
  anonymousIpDatabase?: string;
}

/** CSV geofence import and nightly sync (docs/geofence-import.md). Sizes in bytes, durations in ms. */
export interface GeofenceImportConfig {
  /** Largest CSV accepted by POST /v1/geofences/import (the global bodyLimit stays small). */
  uploadMaxBytes: number;
  /** Most data rows in one import (upload, CLI or sync): an import holds all of them in memory. */
  maxRows: number;
  sync: {
    /** Time of day (UTC) of the nightly run. */
    at: DailyTime;
    /** How often this node looks for due syncs; 0: this node runs no nightly sync. */
    checkMs: number;
    /** Allow sync URLs on loopback, private, shared (CGNAT) and link-local addresses. */
    allowPrivate: boolean;
    /** Networks (CIDR or single addresses) allowed whatever their class. */
    allowedNetworks: string[];
    /** Deadline of one download. */
    timeoutMs: number;
    /** Largest CSV a sync downloads. */
    maxBytes: number;
    /** S3-compatible server's base URL; unset: AWS. */
    s3Endpoint?: string;
    s3ForcePathStyle: boolean;
    /** Seals stored secret access keys (32 bytes, hex or base64); unset: a key file in the data directory. */
    secretKey?: string;
  };
  /** Notification mails; no host: mails are not sent and each run records why. */
  smtp: Omit<SmtpSettings, 'host'> & { host?: string };
}

/** Event delivery (docs/webhooks.md). Durations in ms. */
export interface WebhookConfig {
  /** Allow webhook URLs on loopback, private, shared (CGNAT) and link-local addresses. */
  allowPrivate: boolean;
  /** Networks (CIDR or single addresses) allowed whatever their class. */
  allowedNetworks: string[];
  /** How often the delivery worker looks for due rows; 0 turns delivery off on this node. */
  pollMs: number;
  /** Whole-request deadline of one delivery attempt (DNS, connect, response). */
  timeoutMs: number;
  maxAttempts: number;
  maxAgeMs: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** Endpoints delivered to in parallel by one node. */
  concurrency: number;
  /** How long a node trusts its cached list of webhooks (edits made on other nodes show up after this). */
  cacheMs: number;
  /** Delivery-log entries are kept this long. */
  logRetentionMs: number;
  /** Dead letters are kept this long unless redelivered. */
  deadRetentionMs: number;
  /** After a token rotation the previous token also signs X-Waymark-Signature for this long. */
  tokenGraceMs: number;
}

function intFrom(name: string, fallback: number, env: NodeJS.ProcessEnv): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a non-negative number, got "${raw}"`);
  return value;
}

function listFrom(name: string, env: NodeJS.ProcessEnv): string[] {
  return (env[name] ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
}

/** A size such as 1048576, 512kb, 50mb or 1gb. */
function bytesFrom(name: string, fallback: string, env: NodeJS.ProcessEnv): number {
  const raw = env[name] === undefined || env[name] === '' ? fallback : (env[name] as string);
  const m = /^(\d+(?:\.\d+)?)\s*(b|kb|mb|gb)?$/i.exec(raw.trim());
  if (!m) throw new Error(`${name} must be a size such as 50mb, got "${raw}"`);
  const unit = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 }[(m[2] ?? 'b').toLowerCase() as 'b' | 'kb' | 'mb' | 'gb'];
  return Math.floor(Number(m[1]) * unit);
}

function geofenceImportConfigFromEnv(env: NodeJS.ProcessEnv): GeofenceImportConfig {
  const at = parseDailyTime(env.WAYMARK_SYNC_TIME || '03:00');
  if (!at) throw new Error(`WAYMARK_SYNC_TIME must be a UTC time of day such as 03:00, got "${env.WAYMARK_SYNC_TIME}"`);
  const allowedNetworks = listFrom('WAYMARK_SYNC_ALLOWED_NETWORKS', env);
  const networks = parseIpRanges(allowedNetworks);
  if (!networks.ok) throw new Error(`WAYMARK_SYNC_ALLOWED_NETWORKS: ${networks.message}`);
  const s3Endpoint = env.WAYMARK_SYNC_S3_ENDPOINT || undefined;
  const pathStyle = env.WAYMARK_SYNC_S3_FORCE_PATH_STYLE;
  const smtpPort = intFrom('WAYMARK_SMTP_PORT', 587, env);
  const secure = env.WAYMARK_SMTP_SECURE;
  return {
    uploadMaxBytes: bytesFrom('WAYMARK_IMPORT_MAX_SIZE', '50mb', env),
    maxRows: Math.max(1, intFrom('WAYMARK_IMPORT_MAX_ROWS', 200_000, env)),
    sync: {
      at,
      checkMs: intFrom('WAYMARK_SYNC_CHECK_MS', 60_000, env),
      allowPrivate: env.WAYMARK_SYNC_ALLOW_PRIVATE === 'true' || env.WAYMARK_SYNC_ALLOW_PRIVATE === '1',
      allowedNetworks,
      timeoutMs: Math.max(1, intFrom('WAYMARK_SYNC_TIMEOUT_MS', 120_000, env)),
      maxBytes: bytesFrom('WAYMARK_SYNC_MAX_SIZE', '50mb', env),
      s3Endpoint,
      // S3-compatible servers mostly want the bucket in the path; AWS wants it in the host name.
      s3ForcePathStyle: pathStyle === undefined || pathStyle === '' ? s3Endpoint !== undefined : pathStyle === 'true' || pathStyle === '1',
      secretKey: env.WAYMARK_SYNC_SECRET_KEY || undefined,
    },
    smtp: {
      host: env.WAYMARK_SMTP_HOST || undefined,
      port: smtpPort,
      secure: secure === undefined || secure === '' ? smtpPort === 465 : secure === 'true' || secure === '1',
      requireTls: env.WAYMARK_SMTP_REQUIRE_TLS === 'true' || env.WAYMARK_SMTP_REQUIRE_TLS === '1',
      user: env.WAYMARK_SMTP_USER || undefined,
      pass: env.WAYMARK_SMTP_PASS || undefined,
      from: env.WAYMARK_SMTP_FROM || 'Waymark <waymark@localhost>',
      timeoutMs: Math.max(1, intFrom('WAYMARK_SMTP_TIMEOUT_MS', 15_000, env)),
    },
  };
}

function webhookConfigFromEnv(env: NodeJS.ProcessEnv): WebhookConfig {
  const hour = 3_600_000;
  const config: WebhookConfig = {
    allowPrivate: env.WAYMARK_WEBHOOK_ALLOW_PRIVATE === 'true' || env.WAYMARK_WEBHOOK_ALLOW_PRIVATE === '1',
    allowedNetworks: listFrom('WAYMARK_WEBHOOK_ALLOWED_NETWORKS', env),
    pollMs: intFrom('WAYMARK_WEBHOOK_POLL_MS', 1000, env),
    timeoutMs: intFrom('WAYMARK_WEBHOOK_TIMEOUT_MS', 10_000, env),
    maxAttempts: intFrom('WAYMARK_WEBHOOK_MAX_ATTEMPTS', 12, env),
    maxAgeMs: intFrom('WAYMARK_WEBHOOK_MAX_AGE_MS', 24 * hour, env),
    backoffBaseMs: intFrom('WAYMARK_WEBHOOK_BACKOFF_BASE_MS', 10_000, env),
    backoffMaxMs: intFrom('WAYMARK_WEBHOOK_BACKOFF_MAX_MS', hour, env),
    concurrency: intFrom('WAYMARK_WEBHOOK_CONCURRENCY', 16, env),
    cacheMs: intFrom('WAYMARK_WEBHOOK_CACHE_MS', 5000, env),
    logRetentionMs: intFrom('WAYMARK_WEBHOOK_LOG_RETENTION_MS', 7 * 24 * hour, env),
    deadRetentionMs: intFrom('WAYMARK_WEBHOOK_DEAD_RETENTION_MS', 30 * 24 * hour, env),
    tokenGraceMs: intFrom('WAYMARK_WEBHOOK_TOKEN_GRACE_MS', 24 * hour, env),
  };
  const networks = parseIpRanges(config.allowedNetworks);
  if (!networks.ok) throw new Error(`WAYMARK_WEBHOOK_ALLOWED_NETWORKS: ${networks.message}`);
  if (config.maxAttempts < 1) throw new Error('WAYMARK_WEBHOOK_MAX_ATTEMPTS must be at least 1');
  if (config.timeoutMs < 1) throw new Error('WAYMARK_WEBHOOK_TIMEOUT_MS must be at least 1');
  if (config.concurrency < 1) throw new Error('WAYMARK_WEBHOOK_CONCURRENCY must be at least 1');
  return config;
}

function ipGeocodeConfigFromEnv(env: NodeJS.ProcessEnv): IpGeocodeConfig {
  const cities = listFrom('WAYMARK_IP_CITY_DATABASES', env).map((f) => path.resolve(f));
  const anonymous = env.WAYMARK_IP_ANONYMOUS_DATABASE;
  return {
    cityDatabases: cities.length > 0 ? cities : undefined,
    anonymousIpDatabase: anonymous ? path.resolve(anonymous) : undefined,
  };
}

const ROUTING_MODES: RoutingMode[] = ['car', 'truck', 'bike', 'foot'];

function engineUrl(name: string, raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${name} must be an http(s) URL such as http://127.0.0.1:5000, got "${raw}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${name} must be an http(s) URL, got "${raw}"`);
  if (url.search || url.hash) throw new Error(`${name} must not have a query or fragment, got "${raw}"`);
  return raw.replace(/\/+$/, '');
}

function routingConfigFromEnv(env: NodeJS.ProcessEnv): RoutingConfig {
  const engines: RoutingEngine[] = ['embedded', 'osrm', 'valhalla'];
  const pick = (name: string, fallback: RoutingEngine): RoutingEngine => {
    const raw = env[name];
    if (raw === undefined || raw === '') return fallback;
    if (!(engines as string[]).includes(raw)) throw new Error(`${name} must be one of ${engines.join(', ')}, got "${raw}"`);
    return raw as RoutingEngine;
  };
  const all = pick('WAYMARK_ROUTER', 'embedded');
  const modes = {} as RoutingConfig['modes'];
  for (const mode of ROUTING_MODES) {
    const upper = mode.toUpperCase();
    const engine = pick(`WAYMARK_ROUTER_${upper}`, all);
    if (engine === 'embedded') {
      modes[mode] = { engine };
    } else if (engine === 'osrm') {
      const name = env[`WAYMARK_OSRM_URL_${upper}`] ? `WAYMARK_OSRM_URL_${upper}` : 'WAYMARK_OSRM_URL';
      const raw = env[name];
      if (!raw) throw new Error(`mode ${mode} is routed by OSRM: set WAYMARK_OSRM_URL_${upper} (or WAYMARK_OSRM_URL) to its server's URL`);
      modes[mode] = { engine, url: engineUrl(name, raw) };
    } else {
      const raw = env.WAYMARK_VALHALLA_URL;
      if (!raw) throw new Error(`mode ${mode} is routed by Valhalla: set WAYMARK_VALHALLA_URL to its server's URL`);
      modes[mode] = { engine, url: engineUrl('WAYMARK_VALHALLA_URL', raw) };
    }
  }
  return { modes, timeoutMs: Math.max(1, intFrom('WAYMARK_ROUTER_TIMEOUT_MS', 10_000, env)) };
}

function geocodingConfigFromEnv(env: NodeJS.ProcessEnv): GeocodingConfig {
  const engine = env.WAYMARK_GEOCODER || 'embedded';
  if (engine !== 'embedded' && engine !== 'pelias') throw new Error(`WAYMARK_GEOCODER must be embedded or pelias, got "${engine}"`);
  const peliasUrl = env.WAYMARK_PELIAS_URL || undefined;
  if (engine === 'pelias') {
    if (peliasUrl === undefined) throw new Error('WAYMARK_GEOCODER=pelias needs WAYMARK_PELIAS_URL (http://pelias-api:4000)');
    let url: URL;
    try {
      url = new URL(peliasUrl);
    } catch {
      throw new Error(`WAYMARK_PELIAS_URL must be an http(s) URL, got "${peliasUrl}"`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`WAYMARK_PELIAS_URL must be an http(s) URL, got "${peliasUrl}"`);
  }
  const peliasTimeoutMs = intFrom('WAYMARK_PELIAS_TIMEOUT_MS', 5000, env);
  if (peliasTimeoutMs < 1) throw new Error('WAYMARK_PELIAS_TIMEOUT_MS must be at least 1');
  return { engine, peliasUrl, peliasTimeoutMs };
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
    trustProxy: trustProxyFrom(trust),
    jobIntervalMs: intFrom('WAYMARK_JOB_INTERVAL_MS', 30_000, env),
    logRequests: env.WAYMARK_LOG_REQUESTS !== 'false',
    corsOrigins: listFrom('WAYMARK_CORS_ORIGINS', env),
    webhooks: webhookConfigFromEnv(env),
    metricsToken: env.WAYMARK_METRICS_TOKEN || undefined,
    geofenceImport: geofenceImportConfigFromEnv(env),
    regions: { reloadCheckMs: intFrom('WAYMARK_REGIONS_RELOAD_CHECK_MS', 1000, env) },
    extracts: { reloadCheckMs: intFrom('WAYMARK_EXTRACTS_RELOAD_CHECK_MS', 1000, env) },
    ipGeocode: ipGeocodeConfigFromEnv(env),
    routing: routingConfigFromEnv(env),
    geocoding: geocodingConfigFromEnv(env),
  };
}
