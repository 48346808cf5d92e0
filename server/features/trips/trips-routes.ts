// The trip endpoints (spec: Trips). Create and update are publishable (the SDKs call them); get, list
// and delete are secret (DESIGN §2). Create and update answer `{meta, trip, events}`: the SDKs hand
// the events to the app's delegate.
import type { Route } from '../../http/route';
import { publicEvent } from '../../../core/model/views';
import { publicTrip } from '../../../core/model/views';
import { parseCreateTrip, parseListTrips, parseUpdateTrip, readIncludeLocations } from './trip-input';
import type { TripService } from './trip-service';

export function tripRoutes(trips: TripService): Route[] {
  // Get and delete share the spec's "get/delete trip" budget, as users do.
  const rate = { name: 'trips', perSecond: 10 };
  return [
    {
      method: 'POST', path: '/v1/trips', auth: 'publishable',
      handler: async ({ scope, auth, body, now }) => {
        const { trip, events } = await trips.create(scope, auth.settings, parseCreateTrip(body), now);
        return { body: { trip: publicTrip(trip, false), events: events.map(publicEvent) } };
      },
    },
    {
      method: 'GET', path: '/v1/trips', auth: 'secret',
      handler: async ({ scope, query }) => {
        const q = parseListTrips(query);
        const { trips: docs, hasMore } = await trips.list(scope, q);
        return { meta: { hasMore }, body: { trips: docs.map((t) => publicTrip(t, q.includeLocations)) } };
      },
    },
    {
      method: 'GET', path: '/v1/trips/:id', auth: 'secret', rate,
      handler: async ({ scope, params, query }) => {
        const includeLocations = readIncludeLocations(query);
        return { body: { trip: publicTrip(await trips.find(scope, params.id), includeLocations) } };
      },
    },
    {
      method: 'PATCH', path: '/v1/trips/:id/update', auth: 'publishable',
      handler: async ({ scope, auth, params, body, now }) => {
        const input = parseUpdateTrip(body);
        const { trip, events } = await trips.update(scope, auth.settings, params.id, input, now);
        return { body: { trip: publicTrip(trip, false), events: events.map(publicEvent) } };
      },
    },
    {
      method: 'DELETE', path: '/v1/trips/:id', auth: 'secret', rate,
      handler: async ({ scope, params }) => {
        await trips.remove(scope, params.id);
        return {};
      },
    },
  ];
}

