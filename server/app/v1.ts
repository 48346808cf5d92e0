// Every endpoint of the v1 API in one table: read this file to see the whole surface.
import type { Route } from '../http/route';
import type { EventOutbox } from '../../ports/event-outbox';
import type { Logger } from '../../ports/logger';
import type { Store } from '../../ports/store';
import type { ExtractCatalog } from '../../adapters/extracts/extract-catalog';
import type { BasemapFiles } from '../../adapters/basemap/basemap-files';
import type { EmbeddedRouter } from '../../adapters/router/embedded/embedded-router';
import type { GeofenceService } from '../features/geofences/geofence-service';
import type { PlacesService } from '../features/places/places-service';
import type { ProjectService } from '../features/projects/project-service';
import type { RouterSelection } from '../features/routing/router-selection';
import type { TrackService } from '../features/track/track-service';
import { eventRoutes } from '../features/events/events-routes';
import { geofenceRoutes } from '../features/geofences/geofences-routes';
import { projectRoutes } from '../features/projects/project-routes';
import { RoutingService } from '../features/routing/routing-service';
import { dataRoutes } from '../features/data/data-routes';
import { matchRoutes } from '../features/routing/match-routes';
import { routingRoutes } from '../features/routing/routing-routes';
import { sdkRoutes } from '../features/sdk/sdk-routes';
import { searchUsersRoutes } from '../features/search/search-users-routes';
import { settingsRoutes } from '../features/settings/settings-routes';
import { trackRoutes } from '../features/track/track-routes';
import { userRoutes } from '../features/users/users-routes';

/** What the route lists below use, and nothing else: the composition root (index.ts) picks each. */
export interface V1Parts {
  store: Store;
  logger: Logger;
  track: TrackService;
  geofences: GeofenceService;
  projects: ProjectService;
  places: PlacesService;
  router: RouterSelection;
  embeddedRouter: EmbeddedRouter;
  extracts: ExtractCatalog;
  basemap: BasemapFiles;
  outbox: EventOutbox;
  /** The installed features' routes, in feature order. */
  featureRoutes: readonly Route[];
}

export function v1Routes(p: V1Parts): Route[] {
  return [
    ...trackRoutes(p.track),
    ...eventRoutes({ store: p.store, outbox: p.outbox }),
    ...userRoutes(p.store),
    ...geofenceRoutes(p.store, p.geofences),
    ...searchUsersRoutes(p.store, p.router),
    ...routingRoutes(new RoutingService(p.router)),
    ...matchRoutes(p.router),
    ...dataRoutes(p.extracts, p.embeddedRouter, p.store, p.geofences, p.basemap),
    ...settingsRoutes(p.store),
    ...projectRoutes(p.projects),
    ...sdkRoutes({ store: p.store, logger: p.logger, geofences: p.geofences, places: p.places }),
    ...p.featureRoutes,
  ];
}
