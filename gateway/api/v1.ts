// Every endpoint of the v1 API in one table: read this file to see the whole surface.
import type { Services } from '../app';
import type { Route } from '../http/route';
import { beaconRoutes } from './beacons/beacons-routes';
import { projectRoutes } from './projects/project-routes';
import { settingsRoutes } from './settings/settings-routes';
import { userRoutes } from './users/users-routes';

export function v1Routes(s: Services): Route[] {
  return [
    ...userRoutes(s.store),
    ...beaconRoutes(s.store),
    ...settingsRoutes(s.store),
    ...projectRoutes(s.projects),
  ];
}
