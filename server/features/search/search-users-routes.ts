// GET /v1/search/users: users near a point, by straight-line distance or, with `mode`, by travel time.
import type { Router } from '../../../ports/router';
import { readBracketFilters, readEnum, readLatLng, readNumber, required } from '../../http/params';
import type { Route } from '../../http/route';
import { haversineMeters } from '../../../core/geo/sphere';
import { searchBoxes } from '../../../core/geofencing/geofence-index';
import type { Scope, Store } from '../../../ports/store';
import type { UserDoc } from '../../../core/model/user';
import { USERS } from '../../api/collections';
import type { LngLat } from '../../../core/types';
import { publicView } from '../../../core/model/views';
import { readLimit } from '../../api/list-query';
import { withinTravelTime } from './within-travel-time';

/** Candidates read from the bounding box before exact filtering. */
const MAX_CANDIDATES = 20_000;
/** Halvings of the search radius tried when the box holds more candidates than that. */
const MAX_SHRINKS = 12;

interface Ranked {
  u: UserDoc;
  d: number;
}

/**
 * Users within `radiusM` of `near` on the sphere, nearest first, or undefined when the boxes around the
 * disc hold more than MAX_CANDIDATES users (the answer would be an arbitrary subset). The boxes are the
 * geofence index's: they widen towards the poles, cover the pole itself and split at the antimeridian.
 */
async function usersWithin(store: Store, scope: Scope, near: LngLat, radiusM: number, metadata: Record<string, string | number | boolean> | undefined): Promise<Ranked[] | undefined> {
  const byId = new Map<string, UserDoc>();
  for (const box of searchBoxes(near, radiusM)) {
    const docs = await store.within(USERS, scope, { minLng: box.minX, minLat: box.minY, maxLng: box.maxX, maxLat: box.maxY }, MAX_CANDIDATES, { metadata });
    if (docs.length >= MAX_CANDIDATES) return undefined;
    for (const doc of docs) byId.set(doc._id, doc);
  }
  if (byId.size >= MAX_CANDIDATES) return undefined;
  return [...byId.values()]
    .map((u) => ({ u, d: haversineMeters(near, u.location.coordinates) }))
    .filter(({ d }) => d <= radiusM)
    .sort((a, b) => a.d - b.d || (a.u._id < b.u._id ? -1 : 1));
}

/**
 * The users within `reachM`, nearest first. When the disc holds too many candidates the radius is halved
 * until it does not; every user of that smaller disc is nearer than any user left out, so the answer is
 * the true nearest ones (fewer than `limit` only when one halving drops the count from over 20,000 to
 * under `limit`, an extreme density step).
 */
async function nearestUsers(store: Store, scope: Scope, near: LngLat, reachM: number, limit: number, metadata: Record<string, string | number | boolean> | undefined): Promise<Ranked[]> {
  let radius = reachM;
  for (let i = 0; i <= MAX_SHRINKS; i++) {
    const ranked = await usersWithin(store, scope, near, radius, metadata);
    if (ranked) return ranked;
    radius /= 2;
  }
  return [];
}

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
        const ranked = await nearestUsers(store, scope, near, reachM, limit, metadata);
        const picked = mode
          ? await withinTravelTime(router, near, ranked.map(({ u }) => ({ item: u, at: (u.location as { coordinates: LngLat }).coordinates })), radius, mode, limit)
          : ranked.slice(0, limit).map(({ u }) => u);
        return { body: { users: picked.map(publicView) } };
      },
    },
  ];
}
