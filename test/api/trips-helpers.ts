// Shared by the trips HTTP tests: a destination geofence in Manhattan, points at known distances
// from it, and small request helpers. The geodesic router's car ETA is 1.3 × distance at 40 km/h,
// i.e. about 1.95 minutes per kilometre, so the points below sit on either side of a 5-minute threshold.
import type { TestServer } from '../support/server';

export const STORE = { lat: 40.7831, lng: -73.9712 };
/** ~10 km south: car ETA ≈ 19.5 min. */
export const FAR = { lat: STORE.lat - 0.09, lng: STORE.lng };
/** ~6 km south: car ETA ≈ 11.7 min. */
export const MIDWAY = { lat: STORE.lat - 0.054, lng: STORE.lng };
/** ~1.5 km south: car ETA ≈ 2.9 min. */
export const NEAR = { lat: STORE.lat - 0.0135, lng: STORE.lng };
/** Inside the 100 m store geofence. */
export const AT_STORE = { lat: STORE.lat + 0.0002, lng: STORE.lng };

export type TrackPoint = { lat: number; lng: number };

export interface TripEventBody {
  _id: string;
  type: string;
  createdAt: string;
  trip?: { _id: string; externalId: string; status: string };
  user?: { _id?: string; userId?: string };
  geofence?: { externalId: string };
}

export async function putStore(server: TestServer, sk: string, externalId = 'store-1', extra: Record<string, unknown> = {}): Promise<string> {
  const r = await server.request('PUT', `/v1/geofences/store/${externalId}`, {
    key: sk, body: { description: `Store ${externalId}`, type: 'circle', coordinates: [STORE.lng, STORE.lat], radius: 100, ...extra },
  });
  expect(r.status).toBe(200);
  return r.body.geofence._id;
}

export function track(server: TestServer, pk: string, userId: string, at: TrackPoint, extra: Record<string, unknown> = {}) {
  return server.request('POST', '/v1/track', {
    key: pk, body: { deviceId: `device-${userId}`, userId, latitude: at.lat, longitude: at.lng, accuracy: 5, foreground: true, ...extra },
  });
}

export function types(events: TripEventBody[]): string[] {
  return events.map((e) => e.type);
}

export function tripTypes(events: TripEventBody[]): string[] {
  return types(events).filter((t) => t.includes('trip'));
}
