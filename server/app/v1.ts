// Every endpoint of the v1 API in one table: read this file to see the whole surface.
import type { Services } from './services';
import type { Route } from '../http/route';
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

export function v1Routes(s: Services): Route[] {
  return [
    ...trackRoutes(s.track),
    ...eventRoutes(s),
    ...userRoutes(s.store),
    ...geofenceRoutes(s.store, s.geofences),
    ...searchUsersRoutes(s.store, s.router),
    ...routingRoutes(new RoutingService(s.router)),
    ...matchRoutes(s.router),
    ...dataRoutes(s.extracts, s.embeddedRouter, s.store, s.geofences),
    ...settingsRoutes(s.store),
    ...projectRoutes(s.projects),
    ...sdkRoutes(s),
    ...[...s.features.values()].flatMap((f) => f.routes ?? []),
  ];
}
