// The composition root: configuration → adapters (adapters.ts, the one file that picks them) → services
// and features → Express app.
import express, { type Express } from 'express';
import helmet from 'helmet';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { EventOutbox } from '../../ports/event-outbox';
import { createMaxmindIpLocator } from '../../adapters/ip-locator/maxmind/maxmind-ip-locator';
import type { IpLocator } from '../../ports/ip-locator';
import { createEmbeddedRegions } from '../../adapters/regions/embedded/embedded-regions';
import { createGeoTzTimeZones } from '../../adapters/time-zones/geo-tz/geo-tz-time-zones';
import type { TimeZoneLookup } from '../../ports/time-zones';
import type { ReloadableRegions } from '../features/regions/current-regions';
import { GeofenceService } from '../features/geofences/geofence-service';
import { createEmbeddedRouter, type EmbeddedRouter } from '../../adapters/router/embedded/embedded-router';
import { CurrentPlaces } from '../../adapters/places/embedded/current-places';
import { PlacesService } from '../features/places/places-service';
import type { RouterSelection } from '../features/routing/router-selection';
import { createGeocoder, createGeofenceSources, createLimiter, createMailer, createRouter, createStore } from './adapters';
import { metricsEndpoint } from '../features/webhooks/metrics-endpoint';
import { healthEndpoints } from '../features/health/health-endpoints';
import { Readiness } from '../features/health/readiness';
import { DiskProbe } from '../features/health/disk-probe';
import { TrackService } from '../features/track/track-service';
import type { Services } from './services';
import { FEATURES } from './features';
import { Scheduler } from '../jobs/scheduler';
import { ExtractCatalog } from '../../adapters/extracts/extract-catalog';
import { ProjectService } from '../features/projects/project-service';
import { v1Routes } from './v1';
import type { GatewayConfig } from '../config';
import { Authenticator } from '../http/auth';
import { errorHandler } from '../http/envelope';
import { StoreFaults } from '../http/store-faults';
import { NotFound } from '../http/errors';
import { consoleLogger, type Logger } from '../../ports/logger';
import { answerClientError } from '../http/client-error';
import { cors } from '../http/cors';
import { dashboardFiles } from '../http/dashboard-files';
import { fixedHeaders } from '../http/fixed-headers';
import { readTlsPair, reloadingHttpsServer } from '../http/tls-files';
import { requestBody } from '../http/request-body';
import { requestId } from '../http/request-id';
import { wireRoutes } from '../http/wire';
import { apiDocs } from '../http/api-docs';
import { openApiDocument } from '../http/openapi';
import { ROUTE_DOCS } from '../api/route-docs';
import { packageInfo } from '../features/health/package-version';

export type { Services } from './services';

export async function createServices(config: GatewayConfig, logger: Logger = consoleLogger()): Promise<Services> {
  const timeZones = createGeoTzTimeZones();
  // Before the store opens: a wrong database path stops start-up with nothing to clean up.
  const ipLocator = createMaxmindIpLocator({ ...config.ipGeocode, timeZones });
  const regions = createEmbeddedRegions({ dataDir: config.dataDir });
  const store = await createStore(config, logger);
  for (const f of FEATURES) for (const c of f.collections ?? []) await store.define(c);
  for (const warning of store.warnings) logger.warn('store', { warning });
  const limiter = await createLimiter(config, logger).catch(async (err: unknown) => {
    await store.close();
    throw err;
  });
  const auth = new Authenticator(store);
  const projects = new ProjectService(store);
  projects.onChange((id) => auth.forget(id));
  // Keys rotated or settings changed by another node or the CLI (PostgreSQL): drop what auth cached.
  store.onRemoteChange((change) => {
    if (change.collection === 'projects' && change.projectId !== undefined) auth.forget(change.projectId);
    else if (change.collection === '*') auth.forgetAll();
  });
  // Operating hours are read in the geofence's own zone.
  const geofences = new GeofenceService(store, (point) => timeZones.zoneAt(point));
  const track = new TrackService(store, geofences, { hotUsers: config.trackHotUsers });
  const scheduler = new Scheduler(logger);
  const extracts = new ExtractCatalog({ dataDir: config.dataDir, checkMs: config.extracts.reloadCheckMs });
  const embeddedRouter = createEmbeddedRouter(extracts, { loadWaitMs: config.extracts.loadWaitMs });
  const router = createRouter(config.routing, embeddedRouter);
  const geocoder = createGeocoder(config, regions, extracts, logger);
  const mailer = createMailer(config.geofenceImport.smtp);
  const geofenceSources = createGeofenceSources(config.geofenceImport.sync);
  geofences.makeIsochronesWith(async (center, mode, minutes) => (await router.isochrone({ center, mode, minutes }))[0]);
  const places = new PlacesService(store, new CurrentPlaces({ extracts, logger }));
  // Features that write events (trips, conversions) are set up before the one that keeps the outbox
  // (webhooks, last in the pipeline); they use it only when serving, after every feature is set up.
  let provided: EventOutbox | undefined;
  const outbox: EventOutbox = { opsFor: async (...args) => (provided ? provided.opsFor(...args) : []) };
  const services: Services = {
    config, store, limiter, logger, auth, projects, geofences, track, router, regions, timeZones, ipLocator, places, scheduler, extracts, embeddedRouter,
    geocoder: geocoder.adapter, mailer, geofenceSources, storeFaults: new StoreFaults(store), outbox, features: new Map(),
    closeAdapters: async () => {
      await limiter.close();
      await router.close();
      await geocoder.close();
      await mailer.close();
      await store.close();
    },
  };
  for (const f of FEATURES) {
    const instance = await f.setup(services);
    services.features.set(f.name, instance);
    for (const step of instance.trackSteps ?? []) track.use(step);
    provided ??= instance.outbox;
  }
  return services;
}

/** Background work of a serving gateway: expiry of geofences past deleteAfter. */
function scheduleJobs(s: Services): void {
  s.scheduler.every(s.config.jobIntervalMs, { name: 'geofence-expiry', run: (now) => s.geofences.deleteExpired(now) });
  // Subscribers (router, geocoder, places) hear of a finished import within the period, requests or not.
  s.scheduler.every(s.config.extracts.reloadCheckMs, { name: 'extract-catalog', run: async (now) => (s.extracts.check(now.getTime()) ? 1 : 0) });
  for (const instance of s.features.values()) {
    for (const { periodMs, job } of instance.jobs ?? []) s.scheduler.every(periodMs, job);
  }
}

export function createApp(services: Services): Express {
  const { config, logger } = services;
  const app = express();
  app.disable('x-powered-by');
  app.set('trust proxy', config.trustProxy);
  app.set('query parser', 'simple');
  // Express's default weak ETag hashes every body with SHA-1 (a track answer is several KiB); API answers
  // change with every update and no Radar client revalidates them. The dashboard's files set their own.
  app.set('etag', false);
  app.use(requestId());
  // Resources are fetched cross-origin by the web SDK: CORP same-origin would block them. Helmet's CSP
  // default `upgrade-insecure-requests` is dropped: over plain HTTP from any host but localhost it makes
  // the browser fetch the dashboard's and /docs' scripts and styles over https://, which a gateway
  // without TLS does not answer, leaving blank pages. Served over HTTPS, every URL is https already.
  app.use(fixedHeaders(helmet({
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
  })));
  app.use(cors(config.corsOrigins));
  if (config.logRequests) {
    app.use((req, res, next) => {
      const started = process.hrtime.bigint();
      res.on('finish', () => {
        logger.info('request', {
          requestId: res.getHeader('x-request-id'), method: req.method, path: req.path, status: res.statusCode,
          ms: Number(process.hrtime.bigint() - started) / 1e6,
        });
      });
      next();
    });
  }
  app.use(requestBody(config.bodyLimit));
  // Operators' endpoint, outside /v1: plain text, its own guard (operator token or loopback), no project key.
  app.get('/metrics', metricsEndpoint(services));
  // The browser dashboard: static files; it calls the API below with the signed-in key.
  app.use(dashboardFiles());
  // GET /, /health, /ready: no key, outside /v1 (docs/operations.md).
  const faults = services.storeFaults;
  const probe = config.store === 'postgres' ? undefined : new DiskProbe(config.dataDir);
  app.use(healthEndpoints(new Readiness(services.store, services.regions, { faults, probe }, services.router)));
  const routes = v1Routes(services);
  app.use(apiDocs(() => openApiDocument(routes, { version: packageInfo().version, docs: ROUTE_DOCS })));
  app.use(wireRoutes(routes, { auth: services.auth, limiter: services.limiter, rateLimitScale: config.rateLimitScale }));
  app.use((req) => {
    throw new NotFound(`No endpoint ${req.method} ${req.path}`, 'path');
  });
  app.use(errorHandler(logger, faults));
  return app;
}

export interface RunningServer {
  /** Where a client on this machine reaches it: http://, or https:// with built-in TLS. */
  url: string;
  port: number;
  services: Services;
  close(): Promise<void>;
}

/** The port is taken or not ours to take: said plainly, as what the operator can change. */
export class ListenError extends Error {}

function listenProblem(err: NodeJS.ErrnoException, config: GatewayConfig): Error {
  if (err.code === 'EADDRINUSE') return new ListenError(`port ${config.port} on ${config.host} is already in use by another process: stop it, or choose another port with PORT=`);
  if (err.code === 'EACCES') return new ListenError(`not allowed to listen on port ${config.port} (ports below 1024 need privileges): choose another with PORT=`);
  if (err.code === 'EADDRNOTAVAIL') return new ListenError(`HOST=${config.host} is not an address of this machine`);
  return err;
}

/** Closes what createServices opened (scheduler, features, then the adapters: rate limiter, router, geocoder, mailer, store), in that order. */
export async function closeServices(services: Services): Promise<void> {
  await services.scheduler.stop();
  for (const instance of services.features.values()) await instance.stop?.();
  await services.closeAdapters();
}

/** Starts the gateway; port 0 picks a free one (tests). With config.tls it speaks HTTPS. */
export async function startServer(config: GatewayConfig, logger?: Logger): Promise<RunningServer> {
  // A certificate that cannot be used stops start-up before anything is opened.
  if (config.tls) readTlsPair(config.tls);
  const services = await createServices(config, logger);
  const app = createApp(services);
  const secure = config.tls ? reloadingHttpsServer(config.tls, app, services.logger) : undefined;
  const server = secure?.server ?? http.createServer(app);
  server.keepAliveTimeout = 65_000;
  server.on('clientError', answerClientError);
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.port, config.host, resolve);
    });
  } catch (err) {
    secure?.stopWatching();
    await closeServices(services);
    throw listenProblem(err as NodeJS.ErrnoException, config);
  }
  scheduleJobs(services);
  const { port } = server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return {
    url: `${secure ? 'https' : 'http'}://${host}:${port}`,
    port,
    services,
    close: async () => {
      secure?.stopWatching();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await closeServices(services);
    },
  };
}

