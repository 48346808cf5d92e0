// The area a user can be "in" for a place: its outline when it has one (its own way or relation, or
// the building it alone occupies), else a circle round its centre whose radius fits its category.
// Shaped as a geofence, so place confidence is the geofence confidence rule (engine/geofencing/position):
// 3 when the whole accuracy disk is inside, 2 when at least half is, 1 otherwise.
import { circleGeometry } from '../geofence-shape';
import { prepareGeofence, type PreparedGeofence } from '../geofencing/prepared-geofence';
import type { Geofence } from '../types';
import type { Place } from './place';

/**
 * Radius (metres) of a place without outline, by its most specific category that has a row. Sized to
 * the usual footprint of such places: a café is a shop front, an airport is kilometres across.
 */
export const CATEGORY_RADIUS_M: Readonly<Record<string, number>> = {
  airport: 1500,
  university: 250,
  'sports-venue-stadium': 150,
  'golf-course': 300,
  zoo: 200,
  'amusement-park-ride': 200,
  park: 120,
  'outdoor-places': 80,
  hospital: 120,
  'shopping-mall': 120,
  campground: 120,
  'big-box-retailer': 70,
  supermarket: 45,
  'department-store': 60,
  hotel: 45,
  'hotel-lodging': 40,
  school: 80,
  'train-station': 80,
  // Mapped as entrances: a stair on the pavement.
  'subway-station': 15,
  'gas-station': 35,
  parking: 40,
  'transportation-terminal': 60,
};
export const DEFAULT_PLACE_RADIUS_M = 25;
/** Largest radius above: how far from a point to look for candidate places. */
export const MAX_PLACE_RADIUS_M = Math.max(DEFAULT_PLACE_RADIUS_M, ...Object.values(CATEGORY_RADIUS_M));

export function placeRadiusM(place: Place): number {
  for (let i = place.categories.length - 1; i >= 0; i--) {
    const r = CATEGORY_RADIUS_M[place.categories[i]];
    if (r !== undefined) return r;
  }
  return DEFAULT_PLACE_RADIUS_M;
}

/** The place's area as a geofence (circle or polygon), for geofences made from a placeId too. */
export function placeGeofenceShape(place: Place): Pick<Geofence, 'type' | 'geometry' | 'geometryCenter' | 'geometryRadius'> {
  const center = { type: 'Point' as const, coordinates: [place.lng, place.lat] as [number, number] };
  if (place.outline && place.outline.length >= 4) {
    return { type: 'polygon', geometry: { type: 'Polygon', coordinates: [place.outline] }, geometryCenter: center, geometryRadius: Math.round(placeReachM(place)) };
  }
  const radius = placeRadiusM(place);
  return { type: 'circle', geometry: circleGeometry([place.lng, place.lat], radius), geometryCenter: center, geometryRadius: radius };
}

function approxMeters(lng0: number, lat0: number, lng: number, lat: number): number {
  const kx = 111_195 * Math.cos((lat0 * Math.PI) / 180);
  return Math.hypot((lng - lng0) * kx, (lat - lat0) * 111_195);
}

const prepared = new WeakMap<Place, PreparedGeofence>();

/** The prepared area of a place, computed on first use and kept as long as the place object lives. */
export function placeArea(place: Place): PreparedGeofence {
  let p = prepared.get(place);
  if (!p) {
    const fence: Geofence = {
      _id: place._id, projectId: '', live: false, tag: 'place', externalId: place._id, description: place.name,
      ...placeGeofenceShape(place), enabled: true, createdAt: '', updatedAt: '',
    };
    p = prepareGeofence(fence);
    prepared.set(place, p);
  }
  return p;
}

/** Farthest point of the place's area from its centre, metres. */
export function placeReachM(place: Place): number {
  if (place.outline && place.outline.length >= 4) {
    let max = 0;
    for (const [lng, lat] of place.outline) max = Math.max(max, approxMeters(place.lng, place.lat, lng, lat));
    return max;
  }
  return placeRadiusM(place);
}
