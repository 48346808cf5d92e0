// GET /v1/search/places: places near a point by chain, category or IATA code, nearest first.
import type { Route } from '../../http/route';
import type { PlacesService } from './places-service';
import { readSearchPlaces } from './search-places-input';

export function searchPlacesRoutes(places: PlacesService): Route[] {
  return [
    {
      method: 'GET', path: '/v1/search/places', auth: 'publishable', rate: { name: 'search-places', perSecond: 150 },
      handler: async ({ query, scope, now }) => ({ body: { places: await places.search(scope, readSearchPlaces(query), now) } }),
    },
  ];
}
