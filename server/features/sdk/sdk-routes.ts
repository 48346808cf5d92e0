// The remaining calls Radar's mobile and web SDKs make (fixtures NOTES.md), so an unmodified SDK never
// meets a 404: client logs, the nearby-region sync for on-device monitoring, beacon search and event
// verification.
import type { Geofences } from '../../../ports/geofences';
import type { Logger } from '../../../ports/logger';
import type { PlaceViews } from '../../../ports/places';
import { put, type Store } from '../../../ports/store';
import { BEACONS, EVENTS } from '../../api/collections';

/** What the SDK endpoints read. */
interface SdkNeeds {
  store: Store;
  logger: Logger;
  geofences: Geofences;
  places: PlaceViews;
}
import { BadRequest, NotFound } from '../../http/errors';
import { readLatLng, readNumber, readString, required } from '../../http/params';
import type { Route } from '../../http/route';
import { haversineMeters } from '../../../core/geo/sphere';
import type { LngLat } from '../../../core/types';
import { publicView } from '../../../core/model/views';
import { publicGeofence } from '../../../core/model/views';
import { readLimit } from '../../api/list-query';
import { publicEvent } from '../../../core/model/views';

/** Geofences sent to a device for monitoring on the device; enough for a city, bounded for the payload. */
const SYNC_GEOFENCE_RADIUS_M = 10_000;
const SYNC_GEOFENCE_LIMIT = 100;
/** The spec's beacon sync area. */
const SYNC_BEACON_RADIUS_M = 1_000;
/** Places sent for offline use: the nearest, within the beacons' kilometre. */
const SYNC_PLACES_RADIUS_M = 1_000;
const SYNC_PLACES_LIMIT = 100;
const MAX_LOG_LINES = 500;

/** Beacons within `radiusM` of `point`, nearest first. */
async function beaconsNear(s: SdkNeeds, scope: { projectId: string; live: boolean }, point: LngLat, radiusM: number, limit: number) {
  const dLat = radiusM / 111_320;
  const dLng = radiusM / (111_320 * Math.max(0.01, Math.cos((point[1] * Math.PI) / 180)));
  const docs = await s.store.within(BEACONS, scope, { minLat: point[1] - dLat, maxLat: point[1] + dLat, minLng: point[0] - dLng, maxLng: point[0] + dLng }, 10_000);
  return docs
    .map((b) => ({ b, d: haversineMeters(point, b.geometry.coordinates) }))
    .filter(({ b, d }) => d <= radiusM && b.enabled !== false)
    .sort((x, y) => x.d - y.d)
    .slice(0, limit)
    .map(({ b }) => publicView(b));
}

/** The SDKs send the point as latitude/longitude numbers in the body. */
function bodyPoint(body: Record<string, unknown>): LngLat {
  const latitude = required(readNumber(body.latitude, 'latitude', { min: -90, max: 90 }), 'latitude');
  const longitude = required(readNumber(body.longitude, 'longitude', { min: -180, max: 180 }), 'longitude');
  return [longitude, latitude];
}

export function sdkRoutes(s: SdkNeeds): Route[] {
  return [
    {
      // Client-side log lines; kept in our log stream (with the request id), answered so SDKs don't retry.
      method: 'POST', path: '/v1/logs', auth: 'publishable', rate: { name: 'logs', perSecond: 10 },
      handler: async ({ body, requestId, scope }) => {
        const logs = body.logs;
        if (logs !== undefined && !Array.isArray(logs)) throw new BadRequest('logs', 'logs must be an array');
        const lines = (logs ?? []) as unknown[];
        if (lines.length > MAX_LOG_LINES) throw new BadRequest('logs', `logs can hold at most ${MAX_LOG_LINES} lines`);
        s.logger.info('sdk logs', { requestId, projectId: scope.projectId, lines: lines.length });
        return {};
      },
    },
    {
      method: 'POST', path: '/v1/sync/region', auth: 'publishable', rate: { name: 'sync-region', perSecond: 10 },
      handler: async ({ body, scope, now }) => {
        const point = bodyPoint(body);
        const index = await s.geofences.index(scope);
        const geofences = index
          .nearest(point, { radiusM: SYNC_GEOFENCE_RADIUS_M, limit: SYNC_GEOFENCE_LIMIT, filter: (g) => g.enabled })
          .map(({ geofence }) => publicGeofence(geofence));
        const beacons = await beaconsNear(s, scope, point, SYNC_BEACON_RADIUS_M, 100);
        const places = await s.places.near(scope, point, SYNC_PLACES_RADIUS_M, SYNC_PLACES_LIMIT, now);
        return { body: { geofences, places, beacons, region: { latitude: point[1], longitude: point[0], radius: SYNC_GEOFENCE_RADIUS_M } } };
      },
    },
    {
      method: 'GET', path: '/v1/search/beacons', auth: 'publishable', rate: { name: 'search-beacons', perSecond: 100 },
      handler: async ({ query, scope }) => {
        const near = required(readLatLng(query.near, 'near'), 'near');
        const radius = readNumber(query.radius, 'radius', { min: 1, max: 10_000 }) ?? SYNC_BEACON_RADIUS_M;
        const limit = readLimit(query, 100, 10);
        return { body: { beacons: await beaconsNear(s, scope, near, radius, limit) } };
      },
    },
    {
      // The SDK's verdict on an event (accepted 1, rejected -1, unverified 0), kept on the event.
      method: 'PUT', path: '/v1/events/:id/verification', auth: 'publishable', rate: { name: 'events', perSecond: 10 },
      handler: async ({ params, body, scope, now }) => {
        const verification = required(readNumber(body.verification, 'verification', { integer: true, min: -1, max: 1 }), 'verification');
        const event = await s.store.get(EVENTS, scope, params.id);
        if (!event) throw new NotFound(`No event with _id "${params.id}"`, 'id');
        const updated: typeof event = { ...event, verification, verifiedAt: now.toISOString(), updatedAt: now.toISOString() };
        const placeId = readString(body.verifiedPlaceId, 'verifiedPlaceId', { maxLength: 64 });
        if (placeId !== undefined && placeId !== '') {
          const place = await s.places.verifiedPlace(scope, event, placeId, now);
          if (!place) throw new BadRequest('verifiedPlaceId', `verifiedPlaceId "${placeId}" is neither the event's place, one of its alternatePlaces, nor an imported place`);
          updated.verifiedPlaceId = placeId;
          updated.verifiedPlace = place;
        }
        await s.store.write([put(EVENTS, scope, updated)]);
        return { body: { event: publicEvent(updated) } };
      },
    },
  ];
}
