// Configuration from the environment, read once at start-up. ENV below is the one table of variables:
// name, parser (what it accepts), default and meaning. Every variable set is validated before anything
// starts, and a bad one stops start-up with its name and what it accepts; docs/configuration.md lists the
// same table (a test keeps the two equal). Adding a variable is one line in ENV plus one row in the docs.
import path from 'node:path';
import type { DailyTime } from '../core/geofence-sync/schedule';
import type { SmtpSettings } from '../adapters/mailer/smtp-mailer';
import { boolean, bytes, dailyTime, decimal, integer, ipRanges, list, oneOf, text, url, type EnvParser } from './env-values';
import type { TlsFiles } from './http/tls-files';
import { trustProxyFrom, type TrustProxy } from './http/trust-proxy';

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
  /** SQLite durability (WAYMARK_SQLITE_SYNC) and page cache (WAYMARK_SQLITE_CACHE_MB). */
  sqlite: { synchronous: 'NORMAL' | 'FULL'; cacheMb: number; mmapMb: number; writerThread: boolean };
  /** Users the track path keeps in memory (WAYMARK_TRACK_HOT_USERS); 0: every update reads the store. */
  trackHotUsers: number;
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
  /** Built-in HTTPS (WAYMARK_TLS_CERT / WAYMARK_TLS_KEY); unset: plain HTTP (docs/tls.md). */
  tls?: TlsFiles;
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

/** Imported OSM extracts in <dataDir>/extracts/ (docs/data-import.md). */
export interface ExtractsConfig {
  /** Least time between two looks for extracts imported or removed while running, ms; 0: on every use. */
  reloadCheckMs: number;
  /** How long a routing request waits for a road network still being read before a 503 with Retry-After, ms (default 5000). */
  loadWaitMs?: number;
}

/** Region data (docs/data-regions.md). */
export interface RegionsConfig {
  /** Least time between two looks for boundaries imported into <dataDir>/regions/ while running, ms; 0: every lookup. */
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
  /** Pending rows one webhook may have; at the cap new events are not queued for it (docs/webhooks.md). */
  maxQueued: number;
  /** A webhook whose head row keeps failing this long is disabled. */
  disableAfterMs: number;
  /** Dead letters whose payload is larger keep only their event ids. */
  deadPayloadMaxBytes: number;
  /** Sign and send requests on a thread of their own rather than on the gateway's event loop. */
  sendThread: boolean;
}

export interface EnvVar<T = unknown> {
  parser: EnvParser<T>;
  /** Used when the variable is unset or empty; undefined: no value (the doc says what that means). */
  default?: string;
  doc: string;
}

function v<T>(parser: EnvParser<T>, fallback: string | undefined, doc: string): EnvVar<T> {
  return { parser, default: fallback, doc };
}

const ms = integer({ min: 0 });
const engineChoice = oneOf<RoutingEngine>('embedded', 'osrm', 'valhalla');
/** An engine's base URL: http(s), and nothing after the path, since request paths are appended to it. */
const engineUrl: EnvParser<string> = {
  accepts: 'an http(s) URL without a query or fragment, such as http://127.0.0.1:5000',
  parse: (raw) => {
    try {
      const u = new URL(raw);
      return (u.protocol === 'http:' || u.protocol === 'https:') && !u.search && !u.hash ? raw : undefined;
    } catch {
      return undefined;
    }
  },
};

/** WAYMARK_TRUST_PROXY: off, `true`, a hop count, or addresses/ranges/names (server/http/trust-proxy.ts). */
const trustProxy: EnvParser<TrustProxy> = {
  accepts: '`false`, `true`, a hop count such as 1, or comma-separated addresses, CIDR ranges or loopback/linklocal/uniquelocal',
  parse: (raw) => {
    try {
      return trustProxyFrom(raw);
    } catch {
      return undefined;
    }
  },
};
const positiveMs = integer({ min: 1 });

/** Every environment variable the gateway and its CLI read. */
export const ENV = {
  PORT: v(integer({ min: 0, max: 65535 }), '8080', 'HTTP port'),
  HOST: v(text, '0.0.0.0', 'interface to listen on'),
  WAYMARK_TLS_CERT: v(text, undefined, 'PEM certificate chain (server certificate first): with `WAYMARK_TLS_KEY`, the gateway serves HTTPS on `PORT` instead of HTTP, and reads both files again within a second of a change (renewals need no restart; docs/tls.md)'),
  WAYMARK_TLS_KEY: v(text, undefined, 'PEM private key of `WAYMARK_TLS_CERT`'),
  WAYMARK_DATA_DIR: v(text, './.waymark', 'where the SQLite file, imported boundaries and other built data live'),
  WAYMARK_STORE: v(oneOf('sqlite', 'postgres'), 'sqlite', '`sqlite` (embedded, one process) or `postgres` (needs `DATABASE_URL`)'),
  DATABASE_URL: v(url('postgres:', 'postgresql:'), undefined, 'PostgreSQL connection string, for `WAYMARK_STORE=postgres`'),
  WAYMARK_DATABASE_SCHEMA: v(text, undefined, 'PostgreSQL schema holding Waymark\'s tables (default `waymark`; one database can host several installations)'),
  WAYMARK_RATE_LIMITER: v(oneOf('memory', 'redis'), 'memory', '`memory` (one process) or `redis` (needs `REDIS_URL`; shared by many gateway nodes)'),
  REDIS_URL: v(url('redis:', 'rediss:'), undefined, 'Redis connection string, for `WAYMARK_RATE_LIMITER=redis`'),
  WAYMARK_RATE_LIMIT_SCALE: v(decimal({ min: 0 }), '1', 'multiplies every rate limit; `0` turns rate limiting off (benchmarks, trusted networks)'),
  WAYMARK_BODY_LIMIT: v(bytes, '1mb', 'largest accepted request body; larger bodies get 413'),
  WAYMARK_TRUST_PROXY: v(trustProxy, 'false', 'which proxies to believe for the client address (`X-Forwarded-For`): `true` (every hop; only behind a proxy that overwrites the header), a hop count (`1`), or addresses, CIDR ranges or `loopback`, comma-separated; `false` means the socket address is the client. IP geofence restrictions, IP geocoding and per-IP limits use this address'),
  WAYMARK_JOB_INTERVAL_MS: v(ms, '30000', 'period of the geofence expiry job (`deleteAfter`); `0` turns it off'),
  WAYMARK_LOG_REQUESTS: v(boolean, 'true', 'one JSON log line per request, with its `x-request-id`'),
  WAYMARK_CORS_ORIGINS: v(list, undefined, 'origins (comma-separated, e.g. `https://app.example.com`) whose pages may call the API from a browser; unset or `*`: any origin. Preflights from a listed origin may use any header they ask for'),
  WAYMARK_SQLITE_SYNC: v(oneOf('NORMAL', 'FULL'), 'FULL', '`FULL`: every acknowledged write survives a process crash, an OS crash and a power loss (one WAL fsync per group commit). `NORMAL`: survives a process crash only; a power loss or kernel crash can lose the last acknowledged commits. Cost in `bench/sqlite-sync.ts` and docs/architecture.md'),
  WAYMARK_SQLITE_CACHE_MB: v(integer({ min: 1, max: 65536 }), '64', 'SQLite page cache, MiB'),
  WAYMARK_SQLITE_MMAP_MB: v(integer({ min: 0, max: 65536 }), '0', 'SQLite memory map, MiB; pages read through it stay in the process\'s RSS (loading 100k geofences took the peak RSS from 550 to 1,236 MiB at 256)'),
  WAYMARK_SQLITE_WRITER_THREAD: v(boolean, 'true', 'commit SQLite writes on a thread of their own (the event loop never waits for a commit); `false` commits on the event loop, for one-core hosts'),
  WAYMARK_TRACK_HOT_USERS: v(integer({ min: 0, max: 10_000_000 }), '10000', 'users each gateway keeps in memory for their next track update (least recently tracked first out), saving a read of the user per update; a copy is written back only at the revision it was read at, so one made stale by another node or another request is detected and re-read. Memory grows with the geofences a user is inside: about 5 KiB of heap for a user inside a few, about 22 KiB in bench/track, where users stand in ten (10,000 of them raised the peak RSS by 224 MiB). `0` reads the user from the store on every update'),
  WAYMARK_METRICS_TOKEN: v(text, undefined, 'operator token for `GET /metrics`; unset: loopback clients only'),
  WAYMARK_API_KEY: v(text, undefined, 'secret key the CLI\'s `geofences import --url` sends when `--key` is not given'),
  // Webhooks (docs/webhooks.md).
  WAYMARK_WEBHOOK_ALLOW_PRIVATE: v(boolean, 'false', 'allow loopback, private, shared and link-local webhook receivers'),
  WAYMARK_WEBHOOK_ALLOWED_NETWORKS: v(ipRanges, undefined, 'CIDR ranges or addresses always allowed as webhook receivers'),
  WAYMARK_WEBHOOK_POLL_MS: v(ms, '1000', 'how often the delivery worker looks for due requests; `0` turns delivery off on this node'),
  WAYMARK_WEBHOOK_TIMEOUT_MS: v(positiveMs, '10000', 'deadline of one delivery attempt'),
  WAYMARK_WEBHOOK_MAX_ATTEMPTS: v(integer({ min: 1 }), '12', 'attempts before a request becomes a dead letter'),
  WAYMARK_WEBHOOK_MAX_AGE_MS: v(ms, '86400000', 'age after which a request becomes a dead letter (24 h)'),
  WAYMARK_WEBHOOK_BACKOFF_BASE_MS: v(ms, '10000', 'wait before the first retry (before jitter)'),
  WAYMARK_WEBHOOK_BACKOFF_MAX_MS: v(ms, '3600000', 'longest wait between attempts (1 h)'),
  WAYMARK_WEBHOOK_CONCURRENCY: v(integer({ min: 1 }), '50', "endpoints of one project one node delivers to at the same time (projects never wait for each other's; 50 is every webhook a project can have)"),
  WAYMARK_WEBHOOK_CACHE_MS: v(ms, '5000', 'how long a node trusts its list of webhooks (edits from other nodes and the CLI)'),
  WAYMARK_WEBHOOK_LOG_RETENTION_MS: v(ms, '604800000', 'delivery-log retention (7 days)'),
  WAYMARK_WEBHOOK_DEAD_RETENTION_MS: v(ms, '2592000000', 'dead-letter retention (30 days)'),
  WAYMARK_WEBHOOK_TOKEN_GRACE_MS: v(ms, '86400000', 'how long a rotated-out token still signs `X-Waymark-Signature` (24 h)'),
  WAYMARK_WEBHOOK_MAX_QUEUED: v(integer({ min: 1 }), '10000', 'pending requests one webhook may have; at the cap its new events are dropped (counted) until it catches up'),
  WAYMARK_WEBHOOK_DISABLE_AFTER_MS: v(ms, '21600000', 'a webhook whose oldest request keeps failing this long is disabled (6 h)'),
  WAYMARK_WEBHOOK_DEAD_PAYLOAD_MAX_BYTES: v(integer({ min: 0 }), '2048', 'dead letters with a larger payload keep only their event ids (redelivery rebuilds it)'),
  WAYMARK_WEBHOOK_SEND_THREAD: v(boolean, 'true', 'sign and send webhook requests on a thread of their own; `false`: on the event loop that serves the API'),
  // CSV import and nightly sync (docs/geofence-import.md).
  WAYMARK_IMPORT_MAX_SIZE: v(bytes, '50mb', 'largest upload to `POST /v1/geofences/import`'),
  WAYMARK_IMPORT_MAX_ROWS: v(integer({ min: 1 }), '200000', 'most data rows in one import (upload, CLI, sync)'),
  WAYMARK_SYNC_TIME: v(dailyTime, '03:00', 'time of day (UTC) of the nightly sync'),
  WAYMARK_SYNC_CHECK_MS: v(ms, '60000', 'how often a gateway looks for due syncs; `0` turns them off on that node'),
  WAYMARK_SYNC_ALLOW_PRIVATE: v(boolean, 'false', 'allow sync URLs on loopback, private, shared and link-local addresses'),
  WAYMARK_SYNC_ALLOWED_NETWORKS: v(ipRanges, undefined, 'CIDR ranges or addresses allowed as sync sources whatever their class'),
  WAYMARK_SYNC_TIMEOUT_MS: v(positiveMs, '120000', 'deadline of one sync download'),
  WAYMARK_SYNC_MAX_SIZE: v(bytes, '50mb', 'largest file a sync downloads'),
  WAYMARK_SYNC_S3_ENDPOINT: v(url('http:', 'https:'), undefined, 'base URL of an S3-compatible server (`http://minio:9000`); unset: AWS'),
  WAYMARK_SYNC_S3_FORCE_PATH_STYLE: v(boolean, undefined, 'bucket in the path rather than the host name; unset: `true` with an endpoint, else `false`'),
  WAYMARK_SYNC_SECRET_KEY: v(text, undefined, 'key sealing stored secret access keys (32 bytes, hex or base64); unset: a key file in the data directory'),
  WAYMARK_SMTP_HOST: v(text, undefined, 'SMTP server for sync notification mails; unset: no mails'),
  WAYMARK_SMTP_PORT: v(integer({ min: 1, max: 65535 }), '587', 'SMTP port'),
  WAYMARK_SMTP_SECURE: v(boolean, undefined, 'implicit TLS; unset: `true` on port 465. Otherwise STARTTLS is used when offered'),
  WAYMARK_SMTP_REQUIRE_TLS: v(boolean, 'false', 'refuse to send unless STARTTLS succeeds'),
  WAYMARK_SMTP_USER: v(text, undefined, 'SMTP user'),
  WAYMARK_SMTP_PASS: v(text, undefined, 'SMTP password'),
  WAYMARK_SMTP_FROM: v(text, 'Waymark <waymark@localhost>', 'the From header of notification mails'),
  WAYMARK_SMTP_TIMEOUT_MS: v(positiveMs, '15000', 'SMTP connection, greeting and idle timeouts'),
  // Regions and IP geocoding (docs/data-regions.md).
  WAYMARK_REGIONS_RELOAD_CHECK_MS: v(ms, '1000', 'least time between two looks for changed boundary files; `0` looks on every lookup'),
  WAYMARK_IP_CITY_DATABASES: v(list, undefined, 'comma-separated City `.mmdb` paths (MaxMind GeoIP2/GeoLite2 City or ip-location-db), tried in order; unset: the bundled DB-IP City Lite files'),
  WAYMARK_IP_ANONYMOUS_DATABASE: v(text, undefined, 'a MaxMind GeoIP2 Anonymous IP `.mmdb`: enables `proxy`'),
  // Imported OSM extracts (docs/data-import.md).
  WAYMARK_EXTRACTS_RELOAD_CHECK_MS: v(ms, '1000', 'how often a running gateway looks for OSM extracts imported or removed with `waymark data`; `0`: on every use'),
  WAYMARK_EXTRACTS_LOAD_WAIT_MS: v(ms, '5000', 'how long a routing request waits for a road network still being read (after start, after a re-import) before a 503 with `Retry-After`; `0`: not at all'),
  // Routing (docs/routing.md).
  WAYMARK_ROUTER: v(engineChoice, 'embedded', 'engine of every travel mode: `embedded` (imported extracts, else the straight-line estimate), `osrm` or `valhalla`'),
  WAYMARK_ROUTER_CAR: v(engineChoice, undefined, 'engine for `car`; unset: `WAYMARK_ROUTER`'),
  WAYMARK_ROUTER_TRUCK: v(engineChoice, undefined, 'engine for `truck`; unset: `WAYMARK_ROUTER`'),
  WAYMARK_ROUTER_BIKE: v(engineChoice, undefined, 'engine for `bike`; unset: `WAYMARK_ROUTER`'),
  WAYMARK_ROUTER_FOOT: v(engineChoice, undefined, 'engine for `foot`; unset: `WAYMARK_ROUTER`'),
  WAYMARK_OSRM_URL: v(engineUrl, undefined, 'base URL of the OSRM server of every mode routed by OSRM (`http://osrm:5000`)'),
  WAYMARK_OSRM_URL_CAR: v(engineUrl, undefined, 'OSRM server for `car` (OSRM loads one profile per process); unset: `WAYMARK_OSRM_URL`'),
  WAYMARK_OSRM_URL_TRUCK: v(engineUrl, undefined, 'OSRM server for `truck`; unset: `WAYMARK_OSRM_URL`'),
  WAYMARK_OSRM_URL_BIKE: v(engineUrl, undefined, 'OSRM server for `bike`; unset: `WAYMARK_OSRM_URL`'),
  WAYMARK_OSRM_URL_FOOT: v(engineUrl, undefined, 'OSRM server for `foot`; unset: `WAYMARK_OSRM_URL`'),
  WAYMARK_VALHALLA_URL: v(engineUrl, undefined, 'base URL of the Valhalla server (`http://valhalla:8002`) for modes routed by Valhalla'),
  WAYMARK_ROUTER_TIMEOUT_MS: v(positiveMs, '10000', 'deadline of one request to an external routing engine; past it the endpoint answers 503'),
  // Geocoding (docs/geocoding.md).
  WAYMARK_GEOCODER: v(oneOf('embedded', 'pelias'), 'embedded', '`embedded` (imported extracts + bundled coarse data) or `pelias` (needs `WAYMARK_PELIAS_URL`)'),
  WAYMARK_PELIAS_URL: v(engineUrl, undefined, 'base URL of a Pelias API, e.g. `http://pelias-api:4000`, for `WAYMARK_GEOCODER=pelias`'),
  WAYMARK_PELIAS_TIMEOUT_MS: v(positiveMs, '5000', 'deadline of one Pelias request; past it the endpoint answers 503'),
} satisfies Record<string, EnvVar<never> | EnvVar<any>>;

export type EnvName = keyof typeof ENV;
type ValueOf<N extends EnvName> = (typeof ENV)[N] extends EnvVar<infer T> ? T : never;

/** A configuration the gateway cannot start with; `problems` has one line per bad variable. */
export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/** Reads variables through ENV, collecting every problem so one start-up reports them all. */
class EnvReader {
  readonly problems: string[] = [];

  constructor(private readonly env: NodeJS.ProcessEnv) {}

  /** The variable's value, its default, or undefined when it has neither. */
  optional<N extends EnvName>(name: N): ValueOf<N> | undefined {
    const spec = ENV[name] as EnvVar<ValueOf<N>>;
    const raw = this.env[name]?.trim();
    if (raw !== undefined && raw !== '') {
      const value = spec.parser.parse(raw);
      if (value !== undefined) return value;
      this.problems.push(`${name}=${JSON.stringify(raw)} is not valid: ${name} must be ${spec.parser.accepts}`);
    }
    return spec.default === undefined ? undefined : spec.parser.parse(spec.default);
  }

  /** For variables with a default. */
  value<N extends EnvName>(name: N): ValueOf<N> {
    const value = this.optional(name);
    if (value === undefined) throw new Error(`${name} has no default in ENV`);
    return value;
  }
}

/** WAYMARK_* variables that are set but that nothing reads: most likely typing mistakes. */
export function unknownVariables(env: NodeJS.ProcessEnv = process.env): string[] {
  return Object.keys(env).filter((name) => name.startsWith('WAYMARK_') && !(name in ENV)).sort();
}

const ROUTING_MODES: RoutingMode[] = ['car', 'truck', 'bike', 'foot'];
const MODE_ENGINE = { car: 'WAYMARK_ROUTER_CAR', truck: 'WAYMARK_ROUTER_TRUCK', bike: 'WAYMARK_ROUTER_BIKE', foot: 'WAYMARK_ROUTER_FOOT' } as const;
const MODE_OSRM_URL = { car: 'WAYMARK_OSRM_URL_CAR', truck: 'WAYMARK_OSRM_URL_TRUCK', bike: 'WAYMARK_OSRM_URL_BIKE', foot: 'WAYMARK_OSRM_URL_FOOT' } as const;

/** Per mode: the engine asked for, with the URL it needs; a missing URL is a problem of the variable naming the engine. */
function routingConfigFromEnv(r: EnvReader): RoutingConfig {
  const all = r.value('WAYMARK_ROUTER');
  const modes = {} as RoutingConfig['modes'];
  for (const mode of ROUTING_MODES) {
    const engine = r.optional(MODE_ENGINE[mode]) ?? all;
    const named = r.optional(MODE_OSRM_URL[mode]) ?? r.optional('WAYMARK_OSRM_URL');
    const urlOf = engine === 'osrm' ? named : engine === 'valhalla' ? r.optional('WAYMARK_VALHALLA_URL') : undefined;
    if (engine === 'embedded') modes[mode] = { engine };
    else if (urlOf) modes[mode] = { engine, url: urlOf.replace(/\/+$/, '') };
    else {
      r.problems.push(engine === 'osrm'
        ? `mode ${mode} is routed by OSRM: set ${MODE_OSRM_URL[mode]} (or WAYMARK_OSRM_URL) to its server's URL`
        : `mode ${mode} is routed by Valhalla: set WAYMARK_VALHALLA_URL to its server's URL`);
      modes[mode] = { engine: 'embedded' };
    }
  }
  return { modes, timeoutMs: r.value('WAYMARK_ROUTER_TIMEOUT_MS') };
}

function geocodingConfigFromEnv(r: EnvReader): GeocodingConfig {
  const engine = r.value('WAYMARK_GEOCODER');
  const peliasUrl = r.optional('WAYMARK_PELIAS_URL');
  if (engine === 'pelias' && peliasUrl === undefined) r.problems.push('WAYMARK_GEOCODER=pelias needs WAYMARK_PELIAS_URL (http://pelias-api:4000)');
  return { engine, peliasUrl, peliasTimeoutMs: r.value('WAYMARK_PELIAS_TIMEOUT_MS') };
}

function geofenceImportConfigFromEnv(r: EnvReader): GeofenceImportConfig {
  const s3Endpoint = r.optional('WAYMARK_SYNC_S3_ENDPOINT');
  const smtpPort = r.value('WAYMARK_SMTP_PORT');
  return {
    uploadMaxBytes: r.value('WAYMARK_IMPORT_MAX_SIZE'),
    maxRows: r.value('WAYMARK_IMPORT_MAX_ROWS'),
    sync: {
      at: r.value('WAYMARK_SYNC_TIME'),
      checkMs: r.value('WAYMARK_SYNC_CHECK_MS'),
      allowPrivate: r.value('WAYMARK_SYNC_ALLOW_PRIVATE'),
      allowedNetworks: r.optional('WAYMARK_SYNC_ALLOWED_NETWORKS') ?? [],
      timeoutMs: r.value('WAYMARK_SYNC_TIMEOUT_MS'),
      maxBytes: r.value('WAYMARK_SYNC_MAX_SIZE'),
      s3Endpoint,
      // S3-compatible servers mostly want the bucket in the path; AWS wants it in the host name.
      s3ForcePathStyle: r.optional('WAYMARK_SYNC_S3_FORCE_PATH_STYLE') ?? s3Endpoint !== undefined,
      secretKey: r.optional('WAYMARK_SYNC_SECRET_KEY'),
    },
    smtp: {
      host: r.optional('WAYMARK_SMTP_HOST'),
      port: smtpPort,
      secure: r.optional('WAYMARK_SMTP_SECURE') ?? smtpPort === 465,
      requireTls: r.value('WAYMARK_SMTP_REQUIRE_TLS'),
      user: r.optional('WAYMARK_SMTP_USER'),
      pass: r.optional('WAYMARK_SMTP_PASS'),
      from: r.value('WAYMARK_SMTP_FROM'),
      timeoutMs: r.value('WAYMARK_SMTP_TIMEOUT_MS'),
    },
  };
}

function webhookConfigFromEnv(r: EnvReader): WebhookConfig {
  return {
    allowPrivate: r.value('WAYMARK_WEBHOOK_ALLOW_PRIVATE'),
    allowedNetworks: r.optional('WAYMARK_WEBHOOK_ALLOWED_NETWORKS') ?? [],
    pollMs: r.value('WAYMARK_WEBHOOK_POLL_MS'),
    timeoutMs: r.value('WAYMARK_WEBHOOK_TIMEOUT_MS'),
    maxAttempts: r.value('WAYMARK_WEBHOOK_MAX_ATTEMPTS'),
    maxAgeMs: r.value('WAYMARK_WEBHOOK_MAX_AGE_MS'),
    backoffBaseMs: r.value('WAYMARK_WEBHOOK_BACKOFF_BASE_MS'),
    backoffMaxMs: r.value('WAYMARK_WEBHOOK_BACKOFF_MAX_MS'),
    concurrency: r.value('WAYMARK_WEBHOOK_CONCURRENCY'),
    cacheMs: r.value('WAYMARK_WEBHOOK_CACHE_MS'),
    logRetentionMs: r.value('WAYMARK_WEBHOOK_LOG_RETENTION_MS'),
    deadRetentionMs: r.value('WAYMARK_WEBHOOK_DEAD_RETENTION_MS'),
    tokenGraceMs: r.value('WAYMARK_WEBHOOK_TOKEN_GRACE_MS'),
    maxQueued: r.value('WAYMARK_WEBHOOK_MAX_QUEUED'),
    disableAfterMs: r.value('WAYMARK_WEBHOOK_DISABLE_AFTER_MS'),
    deadPayloadMaxBytes: r.value('WAYMARK_WEBHOOK_DEAD_PAYLOAD_MAX_BYTES'),
    sendThread: r.value('WAYMARK_WEBHOOK_SEND_THREAD'),
  };
}

/** Both files or neither: one alone is a mistake worth stopping for, not a silent plain-HTTP start. */
function tlsConfigFromEnv(r: EnvReader): TlsFiles | undefined {
  const cert = r.optional('WAYMARK_TLS_CERT');
  const key = r.optional('WAYMARK_TLS_KEY');
  if (cert === undefined && key === undefined) return undefined;
  if (cert === undefined || key === undefined) {
    r.problems.push(`${cert === undefined ? 'WAYMARK_TLS_KEY' : 'WAYMARK_TLS_CERT'} is set without ${cert === undefined ? 'WAYMARK_TLS_CERT' : 'WAYMARK_TLS_KEY'}: HTTPS needs both the certificate and its key`);
    return undefined;
  }
  return { certFile: path.resolve(cert), keyFile: path.resolve(key) };
}

function ipGeocodeConfigFromEnv(r: EnvReader): IpGeocodeConfig {
  const cities = (r.optional('WAYMARK_IP_CITY_DATABASES') ?? []).map((f) => path.resolve(f));
  const anonymous = r.optional('WAYMARK_IP_ANONYMOUS_DATABASE');
  return {
    cityDatabases: cities.length > 0 ? cities : undefined,
    anonymousIpDatabase: anonymous ? path.resolve(anonymous) : undefined,
  };
}

/** The configuration, or a ConfigError naming every bad variable and what it accepts. */
export function configFromEnv(env: NodeJS.ProcessEnv = process.env): GatewayConfig {
  const r = new EnvReader(env);
  const trust = r.value('WAYMARK_TRUST_PROXY');
  const cors = r.optional('WAYMARK_CORS_ORIGINS') ?? [];
  const config: GatewayConfig = {
    port: r.value('PORT'),
    host: r.value('HOST'),
    dataDir: path.resolve(r.value('WAYMARK_DATA_DIR')),
    store: r.value('WAYMARK_STORE'),
    databaseUrl: r.optional('DATABASE_URL'),
    databaseSchema: r.optional('WAYMARK_DATABASE_SCHEMA'),
    rateLimiter: r.value('WAYMARK_RATE_LIMITER'),
    redisUrl: r.optional('REDIS_URL'),
    rateLimitScale: r.value('WAYMARK_RATE_LIMIT_SCALE'),
    bodyLimit: `${r.value('WAYMARK_BODY_LIMIT')}b`,
    trustProxy: trust,
    jobIntervalMs: r.value('WAYMARK_JOB_INTERVAL_MS'),
    logRequests: r.value('WAYMARK_LOG_REQUESTS'),
    corsOrigins: cors,
    sqlite: { synchronous: r.value('WAYMARK_SQLITE_SYNC'), cacheMb: r.value('WAYMARK_SQLITE_CACHE_MB'), mmapMb: r.value('WAYMARK_SQLITE_MMAP_MB'), writerThread: r.value('WAYMARK_SQLITE_WRITER_THREAD') },
    trackHotUsers: r.value('WAYMARK_TRACK_HOT_USERS'),
    webhooks: webhookConfigFromEnv(r),
    metricsToken: r.optional('WAYMARK_METRICS_TOKEN'),
    geofenceImport: geofenceImportConfigFromEnv(r),
    regions: { reloadCheckMs: r.value('WAYMARK_REGIONS_RELOAD_CHECK_MS') },
    extracts: { reloadCheckMs: r.value('WAYMARK_EXTRACTS_RELOAD_CHECK_MS'), loadWaitMs: r.value('WAYMARK_EXTRACTS_LOAD_WAIT_MS') },
    ipGeocode: ipGeocodeConfigFromEnv(r),
    routing: routingConfigFromEnv(r),
    geocoding: geocodingConfigFromEnv(r),
    tls: tlsConfigFromEnv(r),
  };
  if (r.problems.length > 0) throw new ConfigError(r.problems);
  return config;
}
