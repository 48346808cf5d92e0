// A feature (trips, webhooks, regions, imports…) plugs into the gateway through this one interface:
// its own collections, routes, steps in the track pipeline and background jobs. features.ts lists
// them; app.ts installs them. Adding a feature touches no other feature's code.
import type { EventOutbox } from '../ports/event-outbox';
import type { CollectionSpec } from '../ports/store';
import type { TrackStep } from './track-step';
import type { GatewayConfig } from './config';
import type { Store } from '../ports/store';
import type { RateLimiter } from '../ports/rate-limiter';
import type { Logger } from '../ports/logger';
import type { IpLocator } from '../ports/ip-locator';
import type { TimeZoneLookup } from '../ports/time-zones';
import type { Authenticator } from './http/auth';
import type { StoreFaults } from './http/store-faults';
import type { Scheduler } from './jobs/scheduler';
import type { ProjectService } from './features/projects/project-service';
import type { GeofenceService } from './features/geofences/geofence-service';
import type { TrackService } from './features/track/track-service';
import type { RouterSelection } from './features/routing/router-selection';
import type { ReloadableRegions } from './features/regions/current-regions';
import type { PlacesService } from './features/places/places-service';
import type { ExtractCatalog } from '../adapters/extracts/extract-catalog';
import type { EmbeddedRouter } from '../adapters/router/embedded/embedded-router';
import type { Route } from './http/route';
import type { Job } from './jobs/scheduler';

export interface FeatureInstance {
  routes?: Route[];
  /** Run in list order after geofencing, inside the user's atomic track step. */
  trackSteps?: TrackStep[];
  jobs?: Array<{ periodMs: number; job: Job }>;
  /** Called on shutdown, after the HTTP server stopped taking requests. */
  stop?(): Promise<void>;
  /** The event outbox this feature keeps (webhooks): the composition root hands it to the features that write events. */
  outbox?: EventOutbox;
  /** What the CLI, /metrics and tests reach of this feature's services (read back through the feature's own accessor). */
  runtime?: object;
}

export interface Feature {
  name: string;
  collections?: Record<string, CollectionSpec>;
  setup(services: Services): FeatureInstance | Promise<FeatureInstance>;
}

/** What app.ts (the composition root) builds and hands to every feature's setup. */
export interface Services {
  config: GatewayConfig;
  store: Store;
  limiter: RateLimiter;
  logger: Logger;
  auth: Authenticator;
  projects: ProjectService;
  geofences: GeofenceService;
  track: TrackService;
  /** Per mode: the configured external engine, else the embedded router, else the geodesic estimate. */
  router: RouterSelection;
  /** Bundled region data plus boundaries imported into <dataDir>/regions/; loads on first lookup. */
  regions: ReloadableRegions;
  timeZones: TimeZoneLookup;
  /** IP databases are read on first use. */
  ipLocator: IpLocator;
  /** Places of the imported extracts (and bundled airports); loads on first use, reloads on re-import. */
  places: PlacesService;
  scheduler: Scheduler;
  /** Imported OSM extracts in <dataDir>/extracts/, re-read when an import or removal finishes. */
  extracts: ExtractCatalog;
  /** The road networks of the imported extracts (also inside `router`), for the data endpoints. */
  embeddedRouter: EmbeddedRouter;
  /** Store faults requests met (full or read-only disk, lost database): 503s, readiness, a metric. */
  storeFaults: StoreFaults;
  /** Where events written outside the track step go to be delivered (the webhooks feature's outbox; none: no rows). */
  outbox: EventOutbox;
  /** Installed features, by name. */
  features: Map<string, FeatureInstance>;
}
