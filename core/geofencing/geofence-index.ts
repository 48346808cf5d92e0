// In-memory spatial index of the geofences of ONE project and environment (DESIGN §3 step 4):
// an R-tree over each geofence's bounding box (fence-tree.ts) plus a map by _id. Derived shapes are
// computed once in set()/load(), so queries and evaluation only do arithmetic.
import type { Geofence, LngLat } from '../types';
import { METERS_PER_DEGREE } from '../geo/planar';
import { EARTH_RADIUS_M, haversineMeters } from '../geo/sphere';
import { ringProximity } from '../geo/planar-ring';
import { derivePrepared, rememberPrepared, type PreparedGeofence } from './prepared-geofence';
import { FenceTree, type Box } from './fence-tree';
import { circleGeometry } from '../geofence-shape';

const RAD = Math.PI / 180;
/** Beyond this, a polygon's local projection is no longer trusted for distances (see distanceTo). */
const PLANAR_DISTANCE_LIMIT_M = 20000;
/** First search radius of nearest() without a radius; widened fourfold until enough are found. */
const FIRST_SEARCH_RADIUS_M = 1000;
/** Half the earth's circumference: a search this wide already covers every geofence. */
const WHOLE_EARTH_M = Math.PI * EARTH_RADIUS_M;

export interface NearestOptions {
  /** Only geofences within this many metres (distance to the shape, 0 inside). */
  radiusM?: number;
  limit: number;
  filter?: (g: Geofence) => boolean;
}

export interface NearestGeofence {
  geofence: Geofence;
  /** Metres from the point to the geofence; 0 when the point is inside. */
  distanceM: number;
}

export class GeofenceIndex {
  private readonly tree = new FenceTree();
  private readonly byId = new Map<string, PreparedGeofence>();

  get size(): number {
    return this.byId.size;
  }

  get(id: string): Geofence | undefined {
    const fence = this.byId.get(id);
    return fence && whole(fence);
  }

  /** Inserts `g`, or replaces the geofence with the same _id. */
  set(g: Geofence): void {
    const old = this.byId.get(g._id);
    if (old) this.tree.remove(old);
    const fence = prepareForIndex(g);
    this.byId.set(g._id, fence);
    this.tree.insert(fence);
  }

  /** Removes the geofence with this _id; false when there was none. */
  delete(id: string): boolean {
    const old = this.byId.get(id);
    if (!old) return false;
    this.tree.remove(old);
    this.byId.delete(id);
    return true;
  }

  /**
   * Replaces the whole content (one packed R-tree, several times faster than inserting one by one).
   * Geofences are prepared in Z-order of their centres, so the objects a query touches, which are
   * spatially close, were allocated close together: fewer cache misses per query and evaluation.
   */
  load(all: Geofence[]): void {
    const latest = new Map<string, Geofence>();
    for (const g of all) latest.set(g._id, g); // a repeated _id: last wins
    const prepared = [...latest.values()].map((g) => [zOrderKey(g), g] as const);
    prepared.sort((a, b) => a[0] - b[0]);
    this.loadPrepared(prepared.map(([, g]) => prepareForIndex(g)));
  }

  /**
   * load() from forms made by prepareForIndex(): a loader reading many geofences prepares each batch
   * as it reads it, so the full documents are garbage at once instead of piling up until load().
   */
  loadPrepared(fences: PreparedGeofence[]): void {
    this.byId.clear();
    for (const fence of fences) this.byId.set(fence._id, fence); // a repeated _id: last wins
    this.tree.load(fences.length === this.byId.size ? fences.slice() : [...this.byId.values()]);
  }

  /**
   * Geofences whose bounding box comes within `radiusM` of `point`: every geofence whose shape may
   * lie within that distance (a superset; evaluation does the exact test).
   */
  near(point: LngLat, radiusM: number): Geofence[] {
    const found = this.nearPrepared(point, radiusM);
    const out: Geofence[] = new Array(found.length);
    for (let i = 0; i < found.length; i++) out[i] = whole(found[i]);
    return out;
  }

  /**
   * near() returning the prepared forms, which evaluateGeofences() accepts as candidates without
   * looking each one up again: a WeakMap lookup per candidate, which made the plain path about 40 %
   * slower per update in bench/engine-geofencing.ts. Use it (with getPrepared) on the track path.
   */
  nearPrepared(point: LngLat, radiusM: number): PreparedGeofence[] {
    const boxes = searchBoxes(point, radiusM);
    const found = this.tree.search(boxes[0]);
    if (boxes.length === 1) return found;
    // Across the antimeridian: a second box; a fence spanning all longitudes is in both. A set, not
    // includes(): with tens of thousands of fences in both boxes the scan was quadratic (317 ms a lookup).
    const seen = new Set(found);
    for (const fence of this.tree.search(boxes[1])) {
      if (seen.has(fence)) continue;
      seen.add(fence);
      found.push(fence);
    }
    return found;
  }

  /** The fences whose bounding box meets the box (degrees, west < east): what a map view shows. */
  inBox(box: Box): PreparedGeofence[] {
    return this.tree.search(box);
  }

  /** inBox() one fence (and its box) at a time, without the list: counting a crowded view. */
  forEachInBox(box: Box, visit: (fence: PreparedGeofence, minX: number, minY: number, maxX: number, maxY: number) => void): void {
    this.tree.visit(box, visit);
  }

  /** The box around every geofence, or undefined when there is none: where a map opens. */
  extent(): Box | undefined {
    if (this.byId.size === 0) return undefined;
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (const f of this.byId.values()) {
      if (f.minX < minX) minX = f.minX;
      if (f.minY < minY) minY = f.minY;
      if (f.maxX > maxX) maxX = f.maxX;
      if (f.maxY > maxY) maxY = f.maxY;
    }
    return { minX, minY, maxX, maxY };
  }

  /** get() returning the prepared form, for evaluateGeofences()'s lookup. */
  getPrepared(id: string): PreparedGeofence | undefined {
    return this.byId.get(id);
  }

  /**
   * Up to `limit` geofences by distance from `point` to their shape (0 inside), nearest first, ties
   * by _id. Without `radiusM` the search widens until `limit` are found or the index is exhausted.
   */
  nearest(point: LngLat, opts: NearestOptions): NearestGeofence[] {
    const { limit, filter } = opts;
    if (limit <= 0 || this.byId.size === 0) return [];
    let radius = opts.radiusM ?? FIRST_SEARCH_RADIUS_M;
    for (;;) {
      const found: Array<{ fence: PreparedGeofence; distanceM: number }> = [];
      const everything = radius >= WHOLE_EARTH_M;
      const fences = everything ? [...this.byId.values()] : this.nearPrepared(point, radius);
      for (const fence of fences) {
        // The filter reads fields, never the ring: the compact form will do.
        if (filter && !filter(fence.geofence)) continue;
        const distanceM = distanceTo(fence, point);
        if (distanceM <= radius) found.push({ fence, distanceM });
      }
      if (opts.radiusM !== undefined || found.length >= limit || everything) {
        found.sort((a, b) => a.distanceM - b.distanceM || (a.fence._id < b.fence._id ? -1 : a.fence._id > b.fence._id ? 1 : 0));
        return found.slice(0, limit).map(({ fence, distanceM }) => ({ geofence: whole(fence), distanceM }));
      }
      radius *= 4;
    }
  }
}

/**
 * The prepared form the index keeps, for GeofenceIndex.loadPrepared() or set(). The geofence it
 * holds drops its stored `geometry` when that can be rebuilt exactly: a circle's ring that
 * circleGeometry() draws (evaluation reads the centre and radius; the ring was 40 % of the index's
 * memory) or a polygon's single closed ring (kept as `lngLat`). Anything else is kept as given.
 *
 * `owned`: the caller hands `g` over (a loader's freshly parsed document), so it is kept itself,
 * its geometry set to undefined, instead of copied: a copy made by rest-spread also spills most of
 * its fields into a second array.
 */
export function prepareForIndex(g: Geofence, owned = false): PreparedGeofence {
  const fence = derivePrepared(g);
  if (!geometryRebuilds(g, fence)) return fence;
  let held: Geofence;
  if (owned) {
    (g as { geometry: Geofence['geometry'] | undefined }).geometry = undefined;
    held = g;
  } else {
    const { geometry: _stored, ...rest } = g;
    held = rest as Geofence;
  }
  shareStrings(held);
  fence.geofence = held;
  fence.geometryOmitted = true;
  return fence;
}

/**
 * The last project id and timestamps seen: geofences written together (an import, a sync, a batch)
 * follow each other in a scan and share these, so the index keeps one string per run of them
 * instead of one per geofence (40 bytes each).
 */
const lastSeen = { projectId: '', createdAt: '', updatedAt: '' };

function shareStrings(g: Geofence): void {
  if (g.projectId === lastSeen.projectId) g.projectId = lastSeen.projectId;
  else lastSeen.projectId = g.projectId;
  if (g.createdAt === lastSeen.createdAt) g.createdAt = lastSeen.createdAt;
  else lastSeen.createdAt = g.createdAt;
  if (g.updatedAt === g.createdAt) g.updatedAt = g.createdAt;
  else if (g.updatedAt === lastSeen.updatedAt) g.updatedAt = lastSeen.updatedAt;
  else lastSeen.updatedAt = g.updatedAt;
}

function geometryRebuilds(g: Geofence, fence: PreparedGeofence): boolean {
  const geometry = g.geometry as Geofence['geometry'] | undefined;
  if (geometry === undefined) return g.type === 'circle';
  if (g.type === 'circle') return isDrawnCircle(g);
  // A polygon: one ring, closed as stored (else lngLat holds the closing point the ring lacks),
  // plain [lng, lat] vertices, and nothing else in the geometry.
  const rings = geometry.coordinates;
  if (geometry.type !== 'Polygon' || Object.keys(geometry).length !== 2 || rings.length !== 1) return false;
  const ring = rings[0];
  if (fence.lngLat.length !== ring.length * 2) return false;
  for (const vertex of ring) if (vertex.length !== 2) return false;
  return true;
}

function isDrawnCircle(g: Geofence): boolean {
  const stored = g.geometry?.coordinates?.[0];
  if (!stored) return false;
  const drawn = circleGeometry(g.geometryCenter.coordinates, g.geometryRadius).coordinates[0];
  if (stored.length !== drawn.length) return false;
  for (let i = 0; i < drawn.length; i++) {
    if (stored[i]?.[0] !== drawn[i][0] || stored[i]?.[1] !== drawn[i][1]) return false;
  }
  return true;
}

/**
 * The geofence as stored, its geometry rebuilt when the index dropped it. The copy is remembered as
 * prepared, so evaluateGeofences() given it finds the index's form instead of deriving it again.
 */
function whole(fence: PreparedGeofence): Geofence {
  const g = fence.geofence;
  if (!fence.geometryOmitted) return g;
  // Spread keeps the key order, with `geometry` where it was when the geofence was kept in place.
  const out = { ...g, geometry: fence.kind === 'circle' ? circleGeometry(g.geometryCenter.coordinates, g.geometryRadius) : polygonOf(fence.lngLat) };
  rememberPrepared(out, fence);
  return out;
}

function polygonOf(lngLat: Float64Array): Geofence['geometry'] {
  const ring: LngLat[] = new Array(lngLat.length / 2);
  for (let i = 0; i < ring.length; i++) ring[i] = [lngLat[2 * i], lngLat[2 * i + 1]];
  return { type: 'Polygon', coordinates: [ring] };
}

/**
 * Morton (Z-order) key of a geofence's centre on a 2^16 × 2^16 world grid (~600 m cells at the
 * equator): enough to group neighbours, which is all the allocation order needs.
 */
function zOrderKey(g: Geofence): number {
  const [lng, lat] = g.geometryCenter.coordinates;
  const x = Math.min(65535, Math.max(0, Math.floor(((lng + 180) / 360) * 65536)));
  const y = Math.min(65535, Math.max(0, Math.floor(((lat + 90) / 180) * 65536)));
  return (spreadBits(x) | (spreadBits(y) << 1)) >>> 0;
}

/** The 16 bits of v moved to the even bit positions (0, 2, 4, ...). */
function spreadBits(v: number): number {
  v = (v | (v << 8)) & 0x00ff00ff;
  v = (v | (v << 4)) & 0x0f0f0f0f;
  v = (v | (v << 2)) & 0x33333333;
  return (v | (v << 1)) & 0x55555555;
}

/**
 * Query boxes (degrees) covering every point within `radiusM` of `point`. The longitude half-width is
 * taken at the box's latitude nearest a pole, where a metre spans the most longitude, so the box
 * stays a superset at high latitudes; it becomes the full range near a pole and splits in two at
 * the antimeridian.
 */
export function searchBoxes(point: LngLat, radiusM: number): Box[] {
  const [lng, lat] = point;
  const dLat = radiusM / METERS_PER_DEGREE;
  const minY = Math.max(-90, lat - dLat);
  const maxY = Math.min(90, lat + dLat);
  const widestCos = Math.cos(Math.max(Math.abs(minY), Math.abs(maxY)) * RAD);
  const dLng = widestCos > 1e-9 ? radiusM / (METERS_PER_DEGREE * widestCos) : 360;
  if (dLng >= 180) return [{ minX: -180, minY, maxX: 180, maxY }];
  const minX = lng - dLng;
  const maxX = lng + dLng;
  if (minX < -180) return [{ minX: minX + 360, minY, maxX: 180, maxY }, { minX: -180, minY, maxX, maxY }];
  if (maxX > 180) return [{ minX, minY, maxX: 180, maxY }, { minX: -180, minY, maxX: maxX - 360, maxY }];
  return [{ minX, minY, maxX, maxY }];
}

/**
 * Metres from `point` to the geofence (0 inside). Circles on the sphere. Polygons in their local
 * projection when the point is near; farther away the projection distorts, so the great-circle
 * distance to the nearest vertex is used instead (off by at most half an edge, which is negligible
 * at that range).
 */
export function distanceTo(fence: PreparedGeofence, point: LngLat): number {
  if (fence.kind === 'circle') {
    return Math.max(0, haversineMeters(point, [fence.centerLng, fence.centerLat]) - fence.radiusM);
  }
  let dLng = point[0] - fence.lng0;
  if (dLng > 180) dLng -= 360;
  else if (dLng < -180) dLng += 360;
  const { inside, distance } = ringProximity(fence.xy, dLng * fence.kx, (point[1] - fence.lat0) * fence.ky);
  if (inside) return 0;
  if (distance <= PLANAR_DISTANCE_LIMIT_M) return distance;
  let best = Infinity;
  const ring = fence.lngLat;
  for (let i = 0; i < ring.length; i += 2) best = Math.min(best, haversineMeters(point, [ring[i], ring[i + 1]]));
  return best;
}
