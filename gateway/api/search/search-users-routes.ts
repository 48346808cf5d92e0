// GET /v1/search/users: users near a point, by straight-line distance or, with `mode`, by travel time.
import type { Router } from '../../../adapters/router/port';
import type { Store } from '../../../adapters/store/port';
import { readBracketFilters, readEnum, readLatLng, readNumber, required } from '../../http/params';
import type { Route } from '../../http/route';
import { haversineMeters } from '../../engine/geo/sphere';
import type { LngLat } from '../../engine/types';
import { publicView } from '../collections';
import { readLimit } from '../list-query';
import { withinTravelTime } from './within-travel-time';

/** Candidates read from the bounding box before exact filtering. */
const MAX_CANDIDATES = 20_000;

export function searchUsersRoutes(store: Store, router: Router): Route[] {
  return [
    {
      method: 'GET', path: '/v1/search/users', auth: 'secret', rate: { name: 'search-users', perSecond: 100 },
      handler: async ({ scope, query }) => {
        const near = required(readLatLng(query.near, 'near'), 'near');
        const radius = readNumber(query.radius, 'radius', { min: 100, max: 10000 }) ?? 1000;
        const mode = readEnum(query.mode, 'mode', ['car', 'truck', 'foot', 'bike'] as const);
        const limit = readLimit(query, 100, 10);
        const metadata = readBracketFilters(query, 'metadata');
        // With a mode the radius is minutes of travel; the box must hold everything reachable in that time.
        const reachM = mode ? router.reach(radius, mode) : radius;
        const dLat = reachM / 111_320;
        const dLng = reachM / (111_320 * Math.max(0.01, Math.cos((near[1] * Math.PI) / 180)));
        const docs = await store.within('users', scope, {
          minLat: near[1] - dLat, maxLat: near[1] + dLat, minLng: near[0] - dLng, maxLng: near[0] + dLng,
        }, MAX_CANDIDATES, { metadata });
        const ranked = docs
          .map((u) => ({ u, d: haversineMeters(near, (u.location as { coordinates: LngLat }).coordinates) }))
          .filter(({ d }) => d <= reachM)
          .sort((a, b) => a.d - b.d);
        const picked = mode
          ? await withinTravelTime(router, near, ranked.map(({ u }) => ({ item: u, at: (u.location as { coordinates: LngLat }).coordinates })), radius, mode, limit)
          : ranked.slice(0, limit).map(({ u }) => u);
        return { body: { users: picked.map(publicView) } };
      },
    },
  ];
}
