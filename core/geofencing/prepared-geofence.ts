// Per-geofence data derived once, when the geofence enters the index, so that evaluating a location
// update is arithmetic only: no GeoJSON walking, no date parsing, no projection of rings.
//
// One class with the same fields for circles and polygons, on purpose: these objects are also the
// items of the small R-tree of recent writes (fence-tree.ts), and rbush's hot loops (intersects, its
// sorts) slow down several-fold when the items they touch come in many shapes (V8 megamorphic
// property access).
//
// Few fields, on purpose (100k of these are held): V8 keeps each number field of an object in a box
// of its own, so the numbers sit in one array of doubles, circles and polygons share their centre
// slots, and what most geofences lack (times, restrictions) sits in one shared object.
import type { Geofence } from '../types';
import { METERS_PER_DEGREE, localProjection, projectRing } from '../geo/planar';

const RAD = Math.PI / 180;
const NO_RING = new Float64Array(0);

export type FenceKind = 'circle' | 'polygon';

/** What few geofences set; one shared object (NO_RULES) for all the others. */
interface Rules {
  /** Epoch ms of disableAfter / deleteAfter; Infinity when unset or unreadable. */
  disableAtMs: number;
  deleteAtMs: number;
  /** The geofence has operating hours (at least one day given), so events carry currentlyOperating. */
  hasOperatingHours: boolean;
  /** userIds plus the deprecated userId; undefined when unrestricted. */
  allowedUserIds: ReadonlySet<string> | undefined;
  /** IP ranges; undefined when unrestricted. */
  ipRanges: string[] | undefined;
  stopDetection: boolean | undefined;
  dwellThreshold: number | undefined;
}

// Not frozen: a frozen object has another hidden class than the others, and evaluation reads both.
const NO_RULES: Rules = {
  disableAtMs: Infinity, deleteAtMs: Infinity, hasOperatingHours: false, allowedUserIds: undefined, ipRanges: undefined,
  stopDetection: undefined, dwellThreshold: undefined,
};

// Positions in PreparedGeofence.numbers.
const MIN_X = 0;
const MIN_Y = 1;
const MAX_X = 2;
const MAX_Y = 3;
const CENTER_LNG = 4;
const CENTER_LAT = 5;
const RADIUS_M = 6;
const COS_CENTER_LAT = 7;

/** Eight numbers stored unboxed: the 0.5s make the literal an array of doubles, whatever is stored later. */
function numberSlots(): number[] {
  return [0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5, 0.5];
}

export class PreparedGeofence {
  /**
   * Bounding box (degrees), centre (degrees), radius (metres), cos(centre latitude), read through
   * the getters below. A circle's centre and radius; a polygon's projection reference (its ring's
   * bounding-box centre) and radius 0. One array of unboxed doubles: as fields, each number took a
   * box of its own (16 bytes) besides the field.
   */
  private readonly numbers = numberSlots();
  /** Circles are tested as true circles on the sphere; polygons (and isochrones) as a planar ring. */
  kind: FenceKind = 'circle';
  /** Polygon ring, closed, [x0, y0, x1, y1, ...] in metres east / north of (lng0, lat0). */
  xy: Float64Array = NO_RING;
  /**
   * Polygon ring, closed, [lng0, lat0, lng1, lat1, ...] in degrees: for great-circle distances to
   * far-away points and to give the stored ring back. Shares one buffer with `xy`: a ring as arrays
   * of [lng, lat] arrays took 64 bytes a vertex, this takes 16.
   */
  lngLat: Float64Array = NO_RING;
  /** Restrictions and options most geofences lack, read through the getters below. */
  rules: Rules = NO_RULES;
  // Copies of the geofence fields every candidate needs, so evaluation touches this object only and
  // not the Geofence (a cache miss per candidate, measured as the largest single cost of an update).
  readonly _id: string;
  readonly enabled: boolean;

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

  /** `geofence`: as evaluation reads it (the index's copy may lack `geometry`, see geometryOmitted). */
  constructor(public geofence: Geofence) {
    this._id = geofence._id;
    this.idHash = idHash(geofence._id);
    this.enabled = geofence.enabled;
  }

  /** Bounding box in degrees, read by the index's trees. */
  get minX(): number {
    return this.numbers[MIN_X];
  }

  get minY(): number {
    return this.numbers[MIN_Y];
  }

  get maxX(): number {
    return this.numbers[MAX_X];
  }

  get maxY(): number {
    return this.numbers[MAX_Y];
  }

  get centerLng(): number {
    return this.numbers[CENTER_LNG];
  }

  get centerLat(): number {
    return this.numbers[CENTER_LAT];
  }

  get radiusM(): number {
    return this.numbers[RADIUS_M];
  }

  get cosCenterLat(): number {
    return this.numbers[COS_CENTER_LAT];
  }

  /** Polygon projection reference and metres per degree there (planar.ts localProjection). */
  get lng0(): number {
    return this.numbers[CENTER_LNG];
  }

  get lat0(): number {
    return this.numbers[CENTER_LAT];
  }

  get kx(): number {
    return METERS_PER_DEGREE * this.numbers[COS_CENTER_LAT];
  }

  get ky(): number {
    return METERS_PER_DEGREE;
  }

  get disableAtMs(): number {
    return this.rules.disableAtMs;
  }

  get deleteAtMs(): number {
    return this.rules.deleteAtMs;
  }

  get hasOperatingHours(): boolean {
    return this.rules.hasOperatingHours;
  }

  get allowedUserIds(): ReadonlySet<string> | undefined {
    return this.rules.allowedUserIds;
  }

  get ipRanges(): string[] | undefined {
    return this.rules.ipRanges;
  }

  get stopDetection(): boolean | undefined {
    return this.rules.stopDetection;
  }

  get dwellThreshold(): number | undefined {
    return this.rules.dwellThreshold;
  }

  /** Sets the box, centre, radius and cos(centre latitude); only the prepare functions below call it. */
  place(minX: number, minY: number, maxX: number, maxY: number, centerLng: number, centerLat: number, radiusM: number, cosCenterLat: number): void {
    const n = this.numbers;
    n[MIN_X] = minX;
    n[MIN_Y] = minY;
    n[MAX_X] = maxX;
    n[MAX_Y] = maxY;
    n[CENTER_LNG] = centerLng;
    n[CENTER_LAT] = centerLat;
    n[RADIUS_M] = radiusM;
    n[COS_CENTER_LAT] = cosCenterLat;
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
  const hasOperatingHours = g.operatingHours !== undefined && Object.keys(g.operatingHours).length > 0;
  const users = [...(g.userIds ?? []), ...(g.userId ? [g.userId] : [])];
  const ipRanges = g.ip && g.ip.length > 0 ? g.ip : undefined;
  if (g.disableAfter !== undefined || g.deleteAfter !== undefined || hasOperatingHours || users.length > 0 || ipRanges
    || g.stopDetection !== undefined || g.dwellThreshold !== undefined) {
    p.rules = {
      disableAtMs: parseTime(g.disableAfter), deleteAtMs: parseTime(g.deleteAfter), hasOperatingHours,
      allowedUserIds: users.length > 0 ? new Set(users) : undefined, ipRanges,
      stopDetection: g.stopDetection, dwellThreshold: g.dwellThreshold,
    };
  }
  if (g.type === 'circle') prepareCircle(p, g);
  else preparePolygon(p, g);
  return p;
}

function prepareCircle(p: PreparedGeofence, g: Geofence): void {
  const [lng, lat] = g.geometryCenter.coordinates;
  const radiusM = g.geometryRadius;
  p.kind = 'circle';
  const dLat = radiusM / METERS_PER_DEGREE;
  const minY = Math.max(-90, lat - dLat);
  const maxY = Math.min(90, lat + dLat);
  // The box must hold the circle's widest point, which lies at the latitude nearest a pole.
  const widestCos = Math.cos(Math.max(Math.abs(minY), Math.abs(maxY)) * RAD);
  const dLng = widestCos > 1e-9 ? radiusM / (METERS_PER_DEGREE * widestCos) : 360;
  let minX = lng - dLng;
  let maxX = lng + dLng;
  // A circle over the antimeridian or a pole gets the whole longitude range: rare, and still
  // correct because the exact test follows.
  if (minX < -180 || maxX > 180) {
    minX = -180;
    maxX = 180;
  }
  p.place(minX, minY, maxX, maxY, lng, lat, radiusM, Math.cos(lat * RAD));
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
  // cos(lat0), so that the kx getter gives projection.kx.
  p.place(minX, minY, maxX, maxY, projection.lng0, projection.lat0, 0, Math.cos(projection.lat0 * RAD));
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
