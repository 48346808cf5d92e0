// The nightly sync's endpoints (secret key): settings (GET, PUT replaces, PATCH merges, DELETE), a run
// now, and the run history. Saving enabled settings starts one sync right away; `?wait=true` answers
// after it with its record, otherwise the answer comes at once and the run reports by mail and in
// GET's lastRun.
import { NotFound } from '../../http/errors';
import { readBoolean } from '../../http/params';
import type { RequestContext, Route } from '../../http/route';
import { readDateRange, readLimit } from '../../api/list-query';
import type { SyncRunner } from './sync-runner';
import type { SyncSettingsService } from './sync-service';
import type { SyncStore } from './sync-store';

const PATH = '/v1/geofence-sync';

export function syncRoutes(settings: SyncSettingsService, runner: SyncRunner, syncStore: SyncStore): Route[] {
  const rate = { name: 'geofence-sync', perSecond: 10 };

  const save = (merge: boolean) => async (ctx: RequestContext) => {
    const wait = readBoolean(ctx.query.wait, 'wait') ?? false;
    const projectId = ctx.scope.projectId;
    const doc = await settings.save(projectId, ctx.body, { merge, mayWriteLive: ctx.auth.live, now: ctx.now });
    if (!doc.enabled) return { body: { sync: settings.viewFor(doc, ctx.auth.live), runStarted: false } };
    if (!wait) {
      runner.start(projectId, 'saved');
      return { body: { sync: settings.viewFor(doc, ctx.auth.live), runStarted: true } };
    }
    const run = await runner.run(projectId, 'saved');
    return { body: { sync: settings.viewFor(await settings.get(projectId), ctx.auth.live), runStarted: true, run: run ?? null } };
  };

  return [
    {
      method: 'GET', path: PATH, auth: 'secret', rate,
      handler: async (ctx) => ({ body: { sync: settings.viewFor(await settings.get(ctx.scope.projectId), ctx.auth.live) } }),
    },
    { method: 'PUT', path: PATH, auth: 'secret', rate, handler: save(false) },
    { method: 'PATCH', path: PATH, auth: 'secret', rate, handler: save(true) },
    {
      method: 'DELETE', path: PATH, auth: 'secret', rate,
      handler: async (ctx) => {
        if (!(await settings.remove(ctx.scope.projectId, ctx.auth.live))) throw new NotFound('This project has no geofence sync settings');
        return {};
      },
    },
    {
      method: 'POST', path: `${PATH}/run`, auth: 'secret', rate,
      handler: async (ctx) => {
        const wait = readBoolean(ctx.query.wait ?? ctx.body.wait, 'wait') ?? false;
        const existing = await settings.get(ctx.scope.projectId);
        if (!existing) throw new NotFound('This project has no geofence sync settings: PUT /v1/geofence-sync first');
        settings.checkRun(existing, ctx.auth.live);
        if (!wait) {
          runner.start(ctx.scope.projectId, 'manual');
          return { status: 202, body: { runStarted: true } };
        }
        const run = await runner.run(ctx.scope.projectId, 'manual');
        return { body: { runStarted: true, run: run ?? null } };
      },
    },
    {
      method: 'GET', path: `${PATH}/runs`, auth: 'secret', rate,
      handler: async (ctx) => {
        const limit = readLimit(ctx.query, 100, 20);
        const before = readDateRange(ctx.query, 'createdAt')?.before;
        const { runs, hasMore } = await syncStore.runs(ctx.scope.projectId, limit, before);
        // A test key sees the test half of each run only (see SyncSettingsService.viewFor).
        const shown = ctx.auth.live ? runs : runs.map((run) => ({ ...run, environments: run.environments.filter((e) => e.environment !== 'live') }));
        return { meta: { hasMore }, body: { runs: shown } };
      },
    },
  ];
}
