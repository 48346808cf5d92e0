// The composition root: configuration → adapters (adapters.ts, the one file that picks them) → shared
// services (shared-services.ts) → features (features.ts, each with the context it names) → Express app.
// What it builds is kept as three records with one job each (`Gateway`): no feature, route list or CLI
// command receives them; each gets the parts it names.
import express, { type Express } from 'express';
import helmet from 'helmet';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdapters, type Adapters } from './adapters';
import { createSharedServices, type SharedServices } from './shared-services';
import { metricsEndpoint } from '../features/webhooks/metrics-endpoint';
import { healthEndpoints } from '../features/health/health-endpoints';
import { Readiness } from '../features/health/readiness';
import { DiskProbe } from '../features/health/disk-probe';
import { FEATURES } from './features';
import { v1Routes } from './v1';
import type { GatewayConfig } from '../config';
import type { FeatureInstance, InstalledFeatures } from '../feature';
import type { Route } from '../http/route';
import { errorHandler } from '../http/envelope';
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
import { fillFlaggedUsers, flaggedUsersKeptSince } from '../api/flagged-users';
import { packageInfo } from '../features/health/package-version';

export type { Adapters } from './adapters';
export type { SharedServices } from './shared-services';

/** What the composition root built: the adapters, the shared services and the installed features. */
export interface Gateway {
  config: GatewayConfig;
  logger: Logger;
  adapters: Adapters;
  shared: SharedServices;
  installed: InstalledFeatures;
}

export async function createGateway(config: GatewayConfig, logger: Logger = consoleLogger()): Promise<Gateway> {
  const adapters = await createAdapters(config, logger);
  for (const f of FEATURES) for (const c of f.collections) await adapters.store.define(c);
  for (const warning of adapters.store.warnings) logger.warn('store', { warning });
  // Before any project this gateway creates: those have their flagged-users rows from the start.
  await flaggedUsersKeptSince(adapters.store);
  const shared = createSharedServices(config, adapters, logger);
  const features = new Map<string, FeatureInstance>();
  for (const f of FEATURES) {
    const instance = await f.install({ config, logger, adapters, shared });
    features.set(f.name, instance);
    for (const step of instance.trackSteps ?? []) shared.track.use(step);
    if (instance.outbox) shared.provideOutbox(instance.outbox);
  }
  return { config, logger, adapters, shared, installed: { features } };
}

/** Every v1 endpoint of a built gateway, each route list given the parts it uses. */
export function gatewayRoutes({ logger, adapters, shared, installed }: Gateway): Route[] {
  return v1Routes({
    store: adapters.store,
    logger,
    track: shared.track,
    geofences: shared.geofences,
    projects: shared.projects,
    places: shared.places,
    router: adapters.router,
    embeddedRouter: adapters.embeddedRouter,
    extracts: adapters.extracts,
    basemap: adapters.basemap,
    outbox: shared.outbox,
    featureRoutes: [...installed.features.values()].flatMap((f) => f.routes ?? []),
  });
}

/**
 * Every environment's geofence index built once the gateway listens, in the background (GeofenceService
 * preload), not by each environment's first request. Logged when it starts (the environments found), every
 * few seconds while it reads (geofences read, rate), and when done with its counts and time.
 */
function preloadGeofenceIndexes({ shared, logger }: Gateway): void {
  // After the caller's own start-up (the CLI's "listening" line, which a supervisor may wait for). The
  // read yields between batches, so requests are answered while it runs (those needing an index wait).
  setImmediate(() => {
    const started = process.hrtime.bigint();
    const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
    let logged = -1;
    shared.geofences.preload((p) => {
      if (logged < 0) {
        logger.info('geofence indexes building', { environments: p.environments });
        logged = 0;
      } else if (seconds() - logged >= PROGRESS_EVERY_S) {
        logged = seconds();
        logger.info('geofence indexes building', { ...p, seconds: round2(logged), perSecond: Math.round(p.geofences / Math.max(logged, 1e-3)) });
      }
    }).then(({ environments, geofences }) => {
      const s = seconds();
      logger.info('geofence indexes built', { environments, geofences, seconds: round2(s), perSecond: Math.round(geofences / Math.max(s, 1e-3)) });
    }, (err: unknown) => {
      // Not fatal: each environment's first request builds its index, as before.
      logger.warn('geofence indexes not built at start', { error: err instanceof Error ? err.message : String(err) });
    });
  });
}

/**
 * The flagged-users rows of environments from before they were kept, filled once in the background
 * (flagged-users.ts): until an environment's fill ends, fraud=true there is the bounded scan it was.
 * Logged when it fills anything, with its counts; a failure is logged and the next start tries again.
 */
function fillFlaggedUsersInBackground({ adapters, logger }: Gateway): void {
  setImmediate(() => {
    const started = process.hrtime.bigint();
    const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
    let logged = 0;
    fillFlaggedUsers(adapters.store, (p) => {
      if (seconds() - logged >= PROGRESS_EVERY_S) {
        logged = seconds();
        logger.info('flagged users filling', { ...p, seconds: round2(logged) });
      }
    }).then((p) => {
      if (p.filled > 0) logger.info('flagged users filled', { ...p, seconds: round2(seconds()) });
    }, (err: unknown) => {
      logger.warn('flagged users not filled', { error: err instanceof Error ? err.message : String(err) });
    });
  });
}

const PROGRESS_EVERY_S = 5;
const round2 = (x: number) => Math.round(x * 100) / 100;

/** Background work of a serving gateway: expiry of geofences past deleteAfter. */
function scheduleJobs({ config, adapters, shared, installed }: Gateway): void {
  const { scheduler, geofences } = shared;
  scheduler.every(config.jobIntervalMs, { name: 'geofence-expiry', run: (now) => geofences.deleteExpired(now) });
  // Subscribers (router, geocoder, places) hear of a finished import within the period, requests or not.
  scheduler.every(config.extracts.reloadCheckMs, { name: 'extract-catalog', run: async (now) => (adapters.extracts.check(now.getTime()) ? 1 : 0) });
  for (const instance of installed.features.values()) {
    for (const { periodMs, job } of instance.jobs ?? []) scheduler.every(periodMs, job);
  }
}

export function createApp(gateway: Gateway): Express {
  const { config, logger, adapters, shared, installed } = gateway;
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
  app.get('/metrics', metricsEndpoint({ features: installed.features, config: { metricsToken: config.metricsToken }, storeFaults: shared.storeFaults }));
  // The browser dashboard: static files; it calls the API below with the signed-in key.
  app.use(dashboardFiles());
  // GET /, /health, /ready: no key, outside /v1 (docs/operations.md).
  const faults = shared.storeFaults;
  const probe = config.store === 'postgres' ? undefined : new DiskProbe(config.dataDir);
  app.use(healthEndpoints(new Readiness(adapters.store, adapters.regions, { faults, probe }, adapters.router)));
  const routes = gatewayRoutes(gateway);
  app.use(apiDocs(() => openApiDocument(routes, { version: packageInfo().version, docs: ROUTE_DOCS })));
  app.use(wireRoutes(routes, { auth: shared.auth, limiter: adapters.limiter, rateLimitScale: config.rateLimitScale }));
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
  gateway: Gateway;
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

/** Closes what createGateway opened (scheduler, features, then the adapters: rate limiter, router, geocoder, mailer, store), in that order. */
export async function closeGateway({ shared, installed, adapters }: Gateway): Promise<void> {
  await shared.scheduler.stop();
  for (const instance of installed.features.values()) await instance.stop?.();
  await adapters.close();
}

/** Starts the gateway; port 0 picks a free one (tests). With config.tls it speaks HTTPS. */
export async function startServer(config: GatewayConfig, logger?: Logger): Promise<RunningServer> {
  // A certificate that cannot be used stops start-up before anything is opened.
  if (config.tls) readTlsPair(config.tls);
  const gateway = await createGateway(config, logger);
  const app = createApp(gateway);
  const secure = config.tls ? reloadingHttpsServer(config.tls, app, gateway.logger) : undefined;
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
    await closeGateway(gateway);
    throw listenProblem(err as NodeJS.ErrnoException, config);
  }
  scheduleJobs(gateway);
  preloadGeofenceIndexes(gateway);
  fillFlaggedUsersInBackground(gateway);
  const { port } = server.address() as AddressInfo;
  const host = config.host === '0.0.0.0' || config.host === '::' ? '127.0.0.1' : config.host;
  return {
    url: `${secure ? 'https' : 'http'}://${host}:${port}`,
    port,
    gateway,
    close: async () => {
      secure?.stopWatching();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
      await closeGateway(gateway);
    },
  };
}

