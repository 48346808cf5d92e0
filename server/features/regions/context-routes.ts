// GET /v1/context: what is at a point, without tracking anyone (spec "Context"). The answer sits under
// `context` (the mobile SDKs read it there) and again at the top level (the JS SDK reads it there).
//
// - geofences: the track engine, statelessly (context-geofences.ts);
// - country, state, dma, postalCode: the Regions data, whatever the project's `regions` setting
//   (that setting governs what track stores on users; a context lookup is asked for explicitly);
//   any other imported boundary type appears under its own name (e.g. `county`);
// - place: the place at the point (api/places), whatever the project's `places` setting; left out
//   where there is none, as Radar does (radar-python's Context model fails on a null place).
import type { Region } from '../../../ports/regions';
import type { RequestContext, Route } from '../../http/route';
import { latLng, paramSpec, text } from '../../http/params/param-spec';
import type { Geofences } from '../../../ports/geofences';
import type { PlaceViews } from '../../../ports/places';
import { contextGeofence, geofencesAt } from './context-geofences';
import type { CurrentRegions } from './current-regions';
import { USER_REGION_TYPES } from './region-transitions';

const CONTEXT = paramSpec('query', {
  coordinates: latLng().required(),
  userId: text({ maxLength: 256 }).describe('the caller\'s userId, for geofences restricted to users'),
});

export function contextRoutes(geofences: Geofences, regions: CurrentRegions, places: PlaceViews): Route[] {
  return [
    {
      method: 'GET', path: '/v1/context', auth: 'publishable', rate: { name: 'context', perSecond: 10 }, input: CONTEXT,
      handler: async (ctx) => {
        const context = await contextAt(ctx, geofences, regions, places);
        return { body: { context, ...context } };
      },
    },
  ];
}

async function contextAt(ctx: RequestContext, geofences: Geofences, regions: CurrentRegions, places: PlaceViews): Promise<Record<string, unknown>> {
  const { coordinates: point, userId } = CONTEXT.readFrom(ctx);
  const inside = await geofencesAt(geofences, { scope: ctx.scope, point, at: ctx.now, userId, ip: ctx.ip, settings: ctx.auth.settings });
  const place = await places.placeAt(ctx.scope, point, ctx.now);
  const context: Record<string, unknown> = { live: ctx.scope.live, geofences: inside.map(contextGeofence) };
  if (place) context.place = place;
  const found = regions.lookup(point, ctx.now);
  // Radar's four first, in its order; then the operator's own types by name.
  const types = [...USER_REGION_TYPES, ...Object.keys(found).filter((t) => !(USER_REGION_TYPES as readonly string[]).includes(t)).sort()];
  for (const type of types) {
    const region: Region | undefined = found[type];
    if (region !== undefined) context[type] = { ...region };
  }
  return context;
}
