// Ours, not Radar's: GET/PATCH /v1/project/settings reads and changes the project settings that the
// spec says live "in the dashboard" (stop detection, buffers, dwell, hours, trips, feature switches);
// GET /v1/project/keys shows the caller's environment's keys (publishable whole, secret as a prefix);
// POST /v1/project/keys/rotate issues new keys for the caller's environment (the dashboard's rotation).
import type { Route } from '../../http/route';
import type { ProjectService } from './project-service';
import { readSettingsPatch } from '../../../core/input/project-settings';

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
    {
      // The caller's environment only, as rotation: a test secret key never learns of live keys.
      method: 'GET', path: '/v1/project/keys', auth: 'secret', rate,
      handler: async ({ auth }) => {
        const keys = await projects.environmentKeys(auth.projectId, auth.live);
        return { body: { keys: keys.map((k) => ({ kind: k.kind, live: k.live, ...(k.kind === 'publishable' ? { key: k.display } : {}), display: k.display, createdAt: k.createdAt })) } };
      },
    },
    {
      method: 'POST', path: '/v1/project/keys/rotate', auth: 'secret', rate: { name: 'project-keys', perSecond: 1 },
      handler: async ({ auth, now }) => {
        const keys = await projects.rotateEnvironmentKeys(auth.projectId, auth.live, now);
        return { body: { keys: keys.map((k) => ({ key: k.key, live: k.record.live, kind: k.record.kind })) } };
      },
    },
  ];
}
