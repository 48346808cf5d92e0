// Every endpoint of the v1 API in one table: read this file to see the whole surface.
import type { Services } from '../app';
import type { Route } from '../http/route';
import { eventRoutes } from './events/events-routes';
import { geofenceRoutes } from './geofences/geofences-routes';
import { projectRoutes } from './projects/project-routes';
import { RoutingService } from './routing/routing-service';
import { dataRoutes } from './data/data-routes';
import { matchRoutes } from './routing/match-routes';
import { routingRoutes } from './routing/routing-routes';
import { sdkRoutes } from './sdk/sdk-routes';
import { searchUsersRoutes } from './search/search-users-routes';
import { settingsRoutes } from './settings/settings-routes';
import { trackRoutes } from './track/track-routes';
import { userRoutes } from './users/users-routes';

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
