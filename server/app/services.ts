// Everything the composition root (server/app/index.ts) builds once: adapters, the shared services and
// the installed features. Only server/app and the CLI see it whole; a feature's setup gets the part its
// `Needs` names (server/feature.ts), the route table (v1.ts) hands each route list its own parts.
import type { EventOutbox } from '../../ports/event-outbox';
import type { GatewayConfig } from '../config';
import type { Store } from '../../ports/store';
import type { RateLimiter } from '../../ports/rate-limiter';
import type { Logger } from '../../ports/logger';
import type { IpLocator } from '../../ports/ip-locator';
import type { TimeZoneLookup } from '../../ports/time-zones';
import type { Authenticator } from '../http/auth';
import type { StoreFaults } from '../http/store-faults';
import type { Scheduler } from '../jobs/scheduler';
import type { ProjectService } from '../features/projects/project-service';
import type { GeofenceService } from '../features/geofences/geofence-service';
import type { TrackService } from '../features/track/track-service';
import type { RouterSelection } from '../features/routing/router-selection';
import type { ReloadableRegions } from '../features/regions/current-regions';
import type { PlacesService } from '../features/places/places-service';
import type { ExtractCatalog } from '../../adapters/extracts/extract-catalog';
import type { EmbeddedRouter } from '../../adapters/router/embedded/embedded-router';
import type { FeatureInstance } from '../feature';
import type { Geocoder } from '../../ports/geocoder';
import type { Mailer } from '../../ports/mailer';
import type { GeofenceSources } from './adapters';

/** What the composition root builds. */
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
  /** The geocoder WAYMARK_GEOCODER selects (embedded or Pelias). */
  geocoder: Geocoder;
  /** Sync report mails: SMTP, or a mailer that says mail is not configured. */
  mailer: Mailer;
  /** Where geofence syncs download their CSVs, and the address rule they pass. */
  geofenceSources: GeofenceSources;
  /** Installed features, by name. */
  features: Map<string, FeatureInstance>;
  /** Closes the adapters createServices opened (after the features stopped). */
  closeAdapters(): Promise<void>;
}
