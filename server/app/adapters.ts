// Which adapter implements which port: the one file that reads the configuration's engine choices
// (store, rate limiter, router engines, geocoder, mailer, geofence sources) and builds the adapters, all
// of them in one record (`Adapters`, built by createAdapters) with the one close of what they opened.
// The composition root (index.ts) hands each service and feature the ones it names; they see ports only.
import path from 'node:path';
import { createMaxmindIpLocator } from '../../adapters/ip-locator/maxmind/maxmind-ip-locator';
import { createEmbeddedRegions } from '../../adapters/regions/embedded/embedded-regions';
import { createGeoTzTimeZones } from '../../adapters/time-zones/geo-tz/geo-tz-time-zones';
import { createEmbeddedRouter, type EmbeddedRouter } from '../../adapters/router/embedded/embedded-router';
import { CurrentPlaces } from '../../adapters/places/embedded/current-places';
import { ExtractCatalog } from '../../adapters/extracts/extract-catalog';
import { BasemapFiles } from '../../adapters/basemap/basemap-files';
import { MemoryRateLimiter } from '../../adapters/rate-limiter/memory';
import { SqliteStore } from '../../adapters/store/sqlite/sqlite-store';
import { PeliasGeocoder } from '../../adapters/geocoder/pelias/pelias-geocoder';
import { CoarseIndex } from '../../adapters/geocoder/embedded/coarse-index';
import { EmbeddedGeocoder } from '../../adapters/geocoder/embedded/embedded-geocoder';
import { ExtractIndexes } from '../../adapters/geocoder/embedded/extract-indexes';
import { GeodesicRouter } from '../../adapters/router/geodesic';
import { OsrmRouter } from '../../adapters/router/osrm/osrm-router';
import { ValhallaRouter } from '../../adapters/router/valhalla/valhalla-router';
import { SmtpMailer, UnconfiguredMailer } from '../../adapters/mailer/smtp-mailer';
import { fetchHttpCsv } from '../../adapters/geofence-sources/http-source';
import { fetchS3Csv } from '../../adapters/geofence-sources/s3-source';
import { CheckedHttp } from '../../adapters/outbound-http/checked-http';
import type { Store } from '../../ports/store';
import type { RateLimiter } from '../../ports/rate-limiter';
import type { Logger } from '../../ports/logger';
import type { IpLocator } from '../../ports/ip-locator';
import type { TimeZoneLookup } from '../../ports/time-zones';
import type { ReloadableRegions } from '../features/regions/current-regions';
import type { Geocoder } from '../../ports/geocoder';
import type { RegionLookup } from '../../ports/regions';
import type { Router, RouterMode, RouterSource } from '../../ports/router';
import type { Mailer } from '../../ports/mailer';
import type { AddressGuard, CsvSources } from '../../ports/geofence-sources';
import type { GatewayConfig, RoutingConfig } from '../config';
import { defineCollections } from '../api/collections';
import { RouterSelection, type FullRouter } from '../features/routing/router-selection';
import { syncAddressGuard } from '../features/geofence-import/address-guard';

export async function createStore(config: GatewayConfig, logger: Logger): Promise<Store> {
  const store = config.store === 'postgres' ? await openPostgres(config, logger) : openSqlite(config, logger);
  await defineCollections(store);
  return store;
}

function openSqlite(config: GatewayConfig, logger: Logger): Store {
  return new SqliteStore({
    file: path.join(config.dataDir, 'waymark.sqlite'),
    ...config.sqlite,
    onError: (err) => logger.warn('sqlite store error', { error: err.message }),
  });
}

async function openPostgres(config: GatewayConfig, logger: Logger): Promise<Store> {
  if (!config.databaseUrl) throw new Error('WAYMARK_STORE=postgres needs DATABASE_URL (postgres://user:password@host:5432/database)');
  // Loaded only when used, like the Redis client below: each costs memory from the moment it loads.
  const { PostgresStore } = await import('../../adapters/store/postgres/postgres-store');
  const store = await PostgresStore.open({
    connectionString: config.databaseUrl,
    schema: config.databaseSchema,
    onError: (err) => logger.warn('postgres connection error', { error: err.message }),
  });
  logger.info('postgres store ready', { schema: store.schema, spatialIndex: store.spatial, why: store.spatialReason });
  return store;
}

export async function createLimiter(config: GatewayConfig, logger: Logger): Promise<RateLimiter> {
  if (config.rateLimiter !== 'redis') return new MemoryRateLimiter();
  if (!config.redisUrl) throw new Error('WAYMARK_RATE_LIMITER=redis needs REDIS_URL (redis://host:6379)');
  const { RedisRateLimiter } = await import('../../adapters/rate-limiter/redis');
  return RedisRateLimiter.connect({ url: config.redisUrl, onError: (err) => logger.warn('redis rate limiter error', { error: err.message }) });
}

/**
 * The router per mode the configuration asks for: the external engine configured for it (OSRM or
 * Valhalla), else `embedded` (the router over imported extracts) where its network covers the points,
 * else the geodesic estimate.
 */
export function createRouter(config: RoutingConfig, embedded?: Router): RouterSelection {
  const osrmUrls: Partial<Record<RouterMode, string>> = {};
  let valhallaUrl: string | undefined;
  for (const [mode, choice] of Object.entries(config.modes) as Array<[RouterMode, RoutingConfig['modes'][RouterMode]]>) {
    if (choice.engine === 'osrm') osrmUrls[mode] = choice.url;
    if (choice.engine === 'valhalla') valhallaUrl = choice.url;
  }
  const external: Partial<Record<RouterMode, { router: FullRouter; source: RouterSource }>> = {};
  const closables: Array<{ close(): Promise<void> }> = [];
  if (Object.keys(osrmUrls).length) {
    const osrm = new OsrmRouter({ urls: osrmUrls, timeoutMs: config.timeoutMs });
    closables.push(osrm);
    for (const mode of osrm.modes()) external[mode] = { router: osrm, source: 'osrm' };
  }
  if (valhallaUrl) {
    const valhalla = new ValhallaRouter({ url: valhallaUrl, timeoutMs: config.timeoutMs });
    closables.push(valhalla);
    for (const [mode, choice] of Object.entries(config.modes) as Array<[RouterMode, RoutingConfig['modes'][RouterMode]]>) {
      if (choice.engine === 'valhalla') external[mode] = { router: valhalla, source: 'valhalla' };
    }
  }
  return new RouterSelection(external, new GeodesicRouter(), embedded, closables);
}

/** A port implementation with what closes it on shutdown. */
export interface Closing<T> {
  adapter: T;
  close(): Promise<void>;
}

/** The geocoder WAYMARK_GEOCODER selects (docs/geocoding.md): a Pelias API, or the embedded one over imported extracts and bundled coarse data. */
export function createGeocoder(config: Pick<GatewayConfig, 'geocoding'>, regions: RegionLookup, extracts: ExtractCatalog, logger: Logger): Closing<Geocoder> {
  const { geocoding } = config;
  if (geocoding.engine === 'pelias') {
    const pelias = new PeliasGeocoder({ url: geocoding.peliasUrl!, timeoutMs: geocoding.peliasTimeoutMs });
    return { adapter: pelias, close: () => pelias.close() };
  }
  const indexes = new ExtractIndexes(extracts, logger);
  return {
    adapter: new EmbeddedGeocoder({ extracts: indexes, coarse: new CoarseIndex(), regions }),
    close: async () => indexes.close(),
  };
}

/** The mailer of sync reports: SMTP when WAYMARK_SMTP_HOST is set, else one that says mail is not configured. */
export function createMailer(smtp: GatewayConfig['geofenceImport']['smtp']): Mailer {
  if (!smtp.host) return new UnconfiguredMailer('mail is not configured on this gateway (WAYMARK_SMTP_HOST is unset)');
  return new SmtpMailer({ ...smtp, host: smtp.host });
}

/** Where nightly geofence syncs download their CSVs, and the address rule their URLs are checked against. */
export interface GeofenceSources {
  guard: AddressGuard;
  sources: CsvSources;
}

export function createGeofenceSources(sync: GatewayConfig['geofenceImport']['sync']): GeofenceSources {
  const guard = syncAddressGuard({ allowPrivate: sync.allowPrivate, allowedNetworks: sync.allowedNetworks });
  const outbound = new CheckedHttp({ guard, connectTimeoutMs: sync.timeoutMs });
  return {
    guard,
    sources: {
      // Downloads close their connection when done (keepAlive false): the connector holds nothing between syncs.
      http: (url, limits) => fetchHttpCsv(url, { ...limits, client: outbound }),
      s3: (location, limits) => fetchS3Csv(location, { ...limits, endpoint: sync.s3Endpoint, forcePathStyle: sync.s3ForcePathStyle }),
    },
  };
}

/** The port implementations the configuration chose, built once; `close` closes what they opened. */
export interface Adapters {
  store: Store;
  limiter: RateLimiter;
  /** Per mode: the configured external engine, else the embedded router, else the geodesic estimate. */
  router: RouterSelection;
  /** The road networks of the imported extracts (also inside `router`), for the data endpoints. */
  embeddedRouter: EmbeddedRouter;
  /** Imported OSM extracts in <dataDir>/extracts/, re-read when an import or removal finishes. */
  extracts: ExtractCatalog;
  /** The imported extracts' base map files (water, green, buildings, labels), for the dashboard's map. */
  basemap: BasemapFiles;
  /** Bundled region data plus boundaries imported into <dataDir>/regions/; loads on first lookup. */
  regions: ReloadableRegions;
  timeZones: TimeZoneLookup;
  /** IP databases are read on first use. */
  ipLocator: IpLocator;
  /** The places of the imported extracts (and bundled airports); loads on first use, reloads on re-import. */
  places: CurrentPlaces;
  /** The geocoder WAYMARK_GEOCODER selects (embedded or Pelias). */
  geocoder: Geocoder;
  /** Sync report mails: SMTP, or a mailer that says mail is not configured. */
  mailer: Mailer;
  /** Where geofence syncs download their CSVs, and the address rule they pass. */
  geofenceSources: GeofenceSources;
  /** Closes the rate limiter, router, geocoder, mailer, base map files and store, in that order (after the features stopped). */
  close(): Promise<void>;
}

/** Builds every adapter the configuration asks for; a failure closes what was already opened. */
export async function createAdapters(config: GatewayConfig, logger: Logger): Promise<Adapters> {
  const timeZones = createGeoTzTimeZones();
  // Before the store opens: a wrong database path stops start-up with nothing to clean up.
  const ipLocator = createMaxmindIpLocator({ ...config.ipGeocode, timeZones });
  const regions = createEmbeddedRegions({ dataDir: config.dataDir });
  const store = await createStore(config, logger);
  const limiter = await createLimiter(config, logger).catch(async (err: unknown) => {
    await store.close();
    throw err;
  });
  const extracts = new ExtractCatalog({ dataDir: config.dataDir, checkMs: config.extracts.reloadCheckMs });
  const embeddedRouter = createEmbeddedRouter(extracts, { loadWaitMs: config.extracts.loadWaitMs });
  const router = createRouter(config.routing, embeddedRouter);
  const geocoder = createGeocoder(config, regions, extracts, logger);
  const mailer = createMailer(config.geofenceImport.smtp);
  const basemap = new BasemapFiles(extracts, logger);
  return {
    store, limiter, router, embeddedRouter, extracts, regions, timeZones, ipLocator, mailer,
    places: new CurrentPlaces({ extracts, logger }),
    basemap,
    geocoder: geocoder.adapter,
    geofenceSources: createGeofenceSources(config.geofenceImport.sync),
    close: async () => {
      await limiter.close();
      await router.close();
      await geocoder.close();
      await mailer.close();
      basemap.close();
      await store.close();
    },
  };
}
