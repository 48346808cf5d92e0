// Per-geofence data derived once, when the geofence enters the index, so that evaluating a location
// update is arithmetic only: no GeoJSON walking, no date parsing, no projection of rings.
import type { Geofence, LngLat } from '../types';
import { METERS_PER_DEGREE, localProjection, projectRing } from '../geo/planar';

const RAD = Math.PI / 180;

interface PreparedBase {
  readonly geofence: Geofence;
  /** Bounding box in degrees; also the rbush item's box. */
  readonly minX: number;
  readonly minY: number;
  readonly maxX: number;
  readonly maxY: number;
  /** Epoch ms of disableAfter / deleteAfter; Infinity when unset or unreadable. */
  readonly disableAtMs: number;
  readonly deleteAtMs: number;
  /** The geofence has operating hours (at least one day given), so events carry currentlyOperating. */
  readonly hasOperatingHours: boolean;
  /** userIds plus the deprecated userId; undefined when unrestricted. */
  readonly allowedUserIds: ReadonlySet<string> | undefined;
}

/** Circles are evaluated as true circles on the sphere, never as their stored ring. */
export interface PreparedCircle extends PreparedBase {
  readonly kind: 'circle';
  readonly center: LngLat;
  readonly radiusM: number;
  readonly cosCenterLat: number;
}

/** Polygons (and isochrones) as a ring projected to metres around the ring's bounding-box centre. */
export interface PreparedPolygon extends PreparedBase {
  readonly kind: 'polygon';
  readonly lng0: number;
  readonly lat0: number;
  /** Metres per degree of longitude at lat0, and of latitude. */
  readonly kx: number;
  readonly ky: number;
  /** Closed ring [x0, y0, x1, y1, ...] in metres east / north of (lng0, lat0). */
  readonly xy: Float64Array;
  /** The ring in degrees, for great-circle distances to far-away points. */
  readonly ring: LngLat[];
}

export type PreparedGeofence = PreparedCircle | PreparedPolygon;

// Geofences are immutable values: a write replaces the object. Keying derived data by object
// identity lets evaluateGeofences() take plain Geofence arrays yet find the precomputed shapes.
const cache = new WeakMap<Geofence, PreparedGeofence>();

/**
 * Derived data for `g`, computed on first use and cached by object identity. Pass `refresh` when the
 * same object may have been mutated (GeofenceIndex.set does).
 */
export function prepareGeofence(g: Geofence, refresh = false): PreparedGeofence {
  if (!refresh) {
    const hit = cache.get(g);
    if (hit) return hit;
  }
  const prepared = g.type === 'circle' ? prepareCircle(g) : preparePolygon(g);
  cache.set(g, prepared);
  return prepared;
}

function base(g: Geofence): Omit<PreparedBase, 'minX' | 'minY' | 'maxX' | 'maxY'> {
  const users = [...(g.userIds ?? []), ...(g.userId ? [g.userId] : [])];
  return {
    geofence: g,
    disableAtMs: parseTime(g.disableAfter),
    deleteAtMs: parseTime(g.deleteAfter),
    hasOperatingHours: g.operatingHours !== undefined && Object.keys(g.operatingHours).length > 0,
    allowedUserIds: users.length > 0 ? new Set(users) : undefined,
  };
}

function prepareCircle(g: Geofence): PreparedCircle {
  const center = g.geometryCenter.coordinates;
  const radiusM = g.geometryRadius;
  const dLat = radiusM / METERS_PER_DEGREE;
  const minY = Math.max(-90, center[1] - dLat);
  const maxY = Math.min(90, center[1] + dLat);
  // The box must hold the circle's widest point, which lies at the latitude nearest a pole.
  const widestCos = Math.cos(Math.max(Math.abs(minY), Math.abs(maxY)) * RAD);
  const dLng = widestCos > 1e-9 ? radiusM / (METERS_PER_DEGREE * widestCos) : 360;
  let minX = center[0] - dLng;
  let maxX = center[0] + dLng;
  // A circle over the antimeridian or a pole gets the whole longitude range: rare, and still
  // correct because the exact test follows.
  if (minX < -180 || maxX > 180) {
    minX = -180;
    maxX = 180;
  }
  return {
    ...base(g),
    kind: 'circle',
    minX,
    minY,
    maxX,
    maxY,
    center,
    radiusM,
    cosCenterLat: Math.cos(center[1] * RAD),
  };
}

function preparePolygon(g: Geofence): PreparedPolygon {
  const given = g.geometry.coordinates[0];
  const first = given[0];
  const last = given[given.length - 1];
  // Stored rings are validated closed; a computed one (isochrone) might not be, and the planar
  // routines rely on the closing point.
  const ring = first[0] === last[0] && first[1] === last[1] ? given : [...given, first];
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const [lng, lat] of ring) {
    if (lng < minX) minX = lng;
    if (lng > maxX) maxX = lng;
    if (lat < minY) minY = lat;
    if (lat > maxY) maxY = lat;
  }
  const projection = localProjection([(minX + maxX) / 2, (minY + maxY) / 2]);
  return {
    ...base(g),
    kind: 'polygon',
    minX,
    minY,
    maxX,
    maxY,
    lng0: projection.lng0,
    lat0: projection.lat0,
    kx: projection.kx,
    ky: projection.ky,
    xy: projectRing(projection, ring),
    ring,
  };
}

function parseTime(iso: string | undefined): number {
  if (iso === undefined) return Infinity;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? Infinity : ms;
}
