// Ours, not Radar's: GET/PATCH /v1/project/settings reads and changes the project settings that the
// spec says live "in the dashboard" (stop detection, buffers, dwell, hours, trips, feature switches).
import type { Route } from '../../http/route';
import type { ProjectService } from './project-service';
import { readSettingsPatch } from './project-settings';

export function projectRoutes(projects: ProjectService): Route[] {
  const rate = { name: 'project-settings', perSecond: 10 };
  return [
    {
      method: 'GET', path: '/v1/project/settings', auth: 'secret', rate,
      handler: async ({ auth }) => ({ body: { settings: await projects.settings(auth.projectId) } }),
    },
    {
      method: 'PATCH', path: '/v1/project/settings', auth: 'secret', rate,
      handler: async ({ auth, body }) => ({ body: { settings: await projects.updateSettings(auth.projectId, readSettingsPatch(body)) } }),
    },
  ];
}
