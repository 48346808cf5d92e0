// Per-geofence data derived once, when the geofence enters the index, so that evaluating a location
// update is arithmetic only: no GeoJSON walking, no date parsing, no projection of rings.
//
// One class with the same fields for circles and polygons, on purpose: these objects are also the
// R-tree's items, and rbush's hot loops (intersects, the bulk-load sorts) slow down several-fold
// when the items they touch come in many shapes (V8 megamorphic property access).
//
// Few number fields, on purpose: V8 keeps each number field of an object as a separate 16-byte box,
// so circles and polygons share their centre fields, and times that are almost always absent sit in
// a shared object.
import type { Geofence } from '../types';
import { METERS_PER_DEGREE, localProjection, projectRing } from '../geo/planar';

const RAD = Math.PI / 180;
const NO_RING = new Float64Array(0);

export type FenceKind = 'circle' | 'polygon';

export interface Expiry {
  disableAtMs: number;
  deleteAtMs: number;
}

// Not frozen: a frozen object has another hidden class than the others, and eligibility reads both.
const NO_EXPIRY: Expiry = { disableAtMs: Infinity, deleteAtMs: Infinity };

export class PreparedGeofence {
  /** Bounding box in degrees, read by rbush. */
  minX = 0;
  minY = 0;
  maxX = 0;
  maxY = 0;
  /** Circles are tested as true circles on the sphere; polygons (and isochrones) as a planar ring. */
  kind: FenceKind = 'circle';
  /**
   * Circle: centre (degrees), radius (metres), cos(centre latitude). Polygon: the projection
   * reference (the ring's bounding-box centre) and its cosine; radius 0.
   */
  centerLng = 0;
  centerLat = 0;
  radiusM = 0;
  cosCenterLat = 1;
  /** Polygon ring, closed, [x0, y0, x1, y1, ...] in metres east / north of (lng0, lat0). */
  xy: Float64Array = NO_RING;
  /**
   * Polygon ring, closed, [lng0, lat0, lng1, lat1, ...] in degrees: for great-circle distances to
   * far-away points and to give the stored ring back. Shares one buffer with `xy`: a ring as arrays
   * of [lng, lat] arrays took 64 bytes a vertex, this takes 16.
   */
  lngLat: Float64Array = NO_RING;
  /** disableAfter and deleteAfter; NO_EXPIRY (shared) when neither is set. */
  expiry: Expiry = NO_EXPIRY;
  /** The geofence has operating hours (at least one day given), so events carry currentlyOperating. */
  hasOperatingHours = false;
  /** userIds plus the deprecated userId; undefined when unrestricted. */
  allowedUserIds: ReadonlySet<string> | undefined = undefined;
  // Copies of the geofence fields every candidate needs, so evaluation touches this object only and
  // not the Geofence (a cache miss per candidate, measured as the largest single cost of an update).
  readonly _id: string;
  readonly enabled: boolean;
  readonly stopDetection: boolean | undefined;
  readonly dwellThreshold: number | undefined;
  /** IP ranges; undefined when unrestricted. */
  readonly ipRanges: string[] | undefined;

  /** idHash(_id): lets evaluation match visits to candidates without touching the id strings. */
  readonly idHash: number;

  /**
   * The index dropped the stored `geometry` (evaluation never reads it): a circle's ring that is
   * exactly circleGeometry(centre, radius), about 3 KiB, or a polygon's ring, which `lngLat` holds.
   * `geofence.geometry` is then absent and GeofenceIndex rebuilds it for the callers that return
   * whole geofences.
   */
  geometryOmitted = false;

  /** Scratch field of evaluateGeofences (single-threaded, never re-entered): the update that last saw it. */
  seenStamp = 0;

  /** The geofence as evaluation reads it (the index's copy may lack `geometry`, see geometryOmitted). */
  /** Polygon projection reference and metres per degree there (planar.ts localProjection). */
  get lng0(): number {
    return this.centerLng;
  }

  get lat0(): number {
    return this.centerLat;
  }

  get kx(): number {
    return METERS_PER_DEGREE * this.cosCenterLat;
  }

  get ky(): number {
    return METERS_PER_DEGREE;
  }

  /** Epoch ms of disableAfter / deleteAfter; Infinity when unset or unreadable. */
  get disableAtMs(): number {
    return this.expiry.disableAtMs;
  }

  get deleteAtMs(): number {
    return this.expiry.deleteAtMs;
  }

  constructor(public geofence: Geofence) {
    this._id = geofence._id;
    this.idHash = idHash(geofence._id);
    this.enabled = geofence.enabled;
    this.stopDetection = geofence.stopDetection;
    this.dwellThreshold = geofence.dwellThreshold;
    this.ipRanges = geofence.ip && geofence.ip.length > 0 ? geofence.ip : undefined;
  }
}

/** 32-bit FNV-1a over the UTF-16 code units of an id. */
export function idHash(id: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) {
    h ^= id.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h | 0;
}

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
  const p = derivePrepared(g);
  cache.set(g, p);
  return p;
}

/**
 * Makes prepareGeofence(g) answer `p`: for a geofence given out whole by the index, whose prepared
 * form the index already holds.
 */
export function rememberPrepared(g: Geofence, p: PreparedGeofence): void {
  cache.set(g, p);
}

/** Derived data for `g`, not cached (the index keeps its own). */
export function derivePrepared(g: Geofence): PreparedGeofence {
  const p = new PreparedGeofence(g);
  if (g.disableAfter !== undefined || g.deleteAfter !== undefined) {
    p.expiry = { disableAtMs: parseTime(g.disableAfter), deleteAtMs: parseTime(g.deleteAfter) };
  }
  p.hasOperatingHours = g.operatingHours !== undefined && Object.keys(g.operatingHours).length > 0;
  const users = [...(g.userIds ?? []), ...(g.userId ? [g.userId] : [])];
  p.allowedUserIds = users.length > 0 ? new Set(users) : undefined;
  if (g.type === 'circle') prepareCircle(p, g);
  else preparePolygon(p, g);
  return p;
}

function prepareCircle(p: PreparedGeofence, g: Geofence): void {
  const [lng, lat] = g.geometryCenter.coordinates;
  const radiusM = g.geometryRadius;
  p.kind = 'circle';
  p.centerLng = lng;
  p.centerLat = lat;
  p.radiusM = radiusM;
  p.cosCenterLat = Math.cos(lat * RAD);
  const dLat = radiusM / METERS_PER_DEGREE;
  p.minY = Math.max(-90, lat - dLat);
  p.maxY = Math.min(90, lat + dLat);
  // The box must hold the circle's widest point, which lies at the latitude nearest a pole.
  const widestCos = Math.cos(Math.max(Math.abs(p.minY), Math.abs(p.maxY)) * RAD);
  const dLng = widestCos > 1e-9 ? radiusM / (METERS_PER_DEGREE * widestCos) : 360;
  p.minX = lng - dLng;
  p.maxX = lng + dLng;
  // A circle over the antimeridian or a pole gets the whole longitude range: rare, and still
  // correct because the exact test follows.
  if (p.minX < -180 || p.maxX > 180) {
    p.minX = -180;
    p.maxX = 180;
  }
}

function preparePolygon(p: PreparedGeofence, g: Geofence): void {
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
  p.kind = 'polygon';
  p.minX = minX;
  p.minY = minY;
  p.maxX = maxX;
  p.maxY = maxY;
  p.centerLng = projection.lng0;
  p.centerLat = projection.lat0;
  p.cosCenterLat = Math.cos(projection.lat0 * RAD); // so that kx is projection.kx
  // One buffer for both forms of the ring: one allocation per polygon instead of two.
  const both = new Float64Array(ring.length * 4);
  const lngLat = both.subarray(0, ring.length * 2);
  for (let i = 0; i < ring.length; i++) {
    lngLat[2 * i] = ring[i][0];
    lngLat[2 * i + 1] = ring[i][1];
  }
  p.lngLat = lngLat;
  p.xy = both.subarray(ring.length * 2);
  projectRing(projection, ring, p.xy);
}

function parseTime(iso: string | undefined): number {
  if (iso === undefined) return Infinity;
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? Infinity : ms;
}
