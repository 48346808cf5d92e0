// Geofence geometry helpers used when a geofence is written: the circle approximation stored in
// `geometry`, a polygon's centre and approximate radius, and ring validation. Evaluation never
// uses these; it works on the shapes prepared in `geofencing/prepared-geofence.ts`.
import type { LngLat, Polygon } from './types';
import { EARTH_RADIUS_M, haversineMeters } from './geo/sphere';

/** Segments of the stored circle approximation; Radar's own circle geometries have 32. */
export const CIRCLE_SEGMENTS = 32;
export const MIN_RING_COORDINATES = 4;
export const MAX_RING_COORDINATES = 2000;

const DEG = 180 / Math.PI;
const RAD = Math.PI / 180;

/**
 * Closed ring approximating a circle, [lng, lat], counter-clockwise, first point due east.
 * The points are offsets in a local equirectangular frame of the centre (an ellipse in degrees),
 * which reproduces Radar's stored circle geometries exactly. Evaluation tests circles as true
 * circles, so this ring is only what clients see.
 *
 * @example circleGeometry([-73.98706, 40.7041029], 100).coordinates[0][0] // [-73.98587369704403, 40.7041029]
 */
export function circleGeometry(center: LngLat, radiusM: number): Polygon {
  const dLat = (radiusM / EARTH_RADIUS_M) * DEG;
  const dLng = dLat / Math.cos(center[1] * RAD);
  const ring: LngLat[] = [];
  for (let i = 0; i < CIRCLE_SEGMENTS; i++) {
    const theta = (2 * Math.PI * i) / CIRCLE_SEGMENTS;
    ring.push([center[0] + dLng * Math.cos(theta), center[1] + dLat * Math.sin(theta)]);
  }
  ring.push([ring[0][0], ring[0][1]]);
  return { type: 'Polygon', coordinates: [ring] };
}

/**
 * Area centroid of a closed ring (shoelace formula), so a concave ring's centre follows its mass
 * rather than its vertex count. Computed in degrees relative to the first vertex: over the small
 * extent of a geofence the equirectangular projection is affine, and centroids are preserved by
 * affine maps. A degenerate (zero-area) ring falls back to the mean of its distinct vertices.
 */
export function polygonCentroid(ring: LngLat[]): LngLat {
  const n = ringLength(ring);
  if (n === 0) throw new Error('polygonCentroid: empty ring');
  const x0 = ring[0][0];
  const y0 = ring[0][1];
  let twiceArea = 0;
  let cx = 0;
  let cy = 0;
  for (let i = 0; i < n; i++) {
    const ax = ring[i][0] - x0;
    const ay = ring[i][1] - y0;
    const b = ring[(i + 1) % n];
    const bx = b[0] - x0;
    const by = b[1] - y0;
    const cross = ax * by - bx * ay;
    twiceArea += cross;
    cx += (ax + bx) * cross;
    cy += (ay + by) * cross;
  }
  if (twiceArea === 0) {
    let sx = 0;
    let sy = 0;
    for (let i = 0; i < n; i++) {
      sx += ring[i][0];
      sy += ring[i][1];
    }
    return [sx / n, sy / n];
  }
  return [x0 + cx / (3 * twiceArea), y0 + cy / (3 * twiceArea)];
}

/**
 * Approximate radius in metres: the largest distance from `center` to a vertex, rounded up to a
 * whole metre so a disk of this radius still covers the ring.
 */
export function polygonApproxRadius(ring: LngLat[], center: LngLat): number {
  let max = 0;
  for (const p of ring) max = Math.max(max, haversineMeters(center, p));
  return Math.ceil(max);
}

/**
 * True when consecutive longitudes jump by more than 180°, i.e. the ring is drawn across the
 * antimeridian. Such rings are rejected at creation with a clear message (see validateRing), so the
 * engine's planar maths, which assumes longitudes are continuous within a ring, never meets them.
 */
export function crossesAntimeridian(ring: LngLat[]): boolean {
  for (let i = 1; i < ring.length; i++) {
    if (Math.abs(ring[i][0] - ring[i - 1][0]) > 180) return true;
  }
  return false;
}

/**
 * Checks a polygon's outer ring. Returns a message for the API's 400 answer, or undefined when the
 * ring is usable. Consecutive duplicate vertices are tolerated (exports often contain them).
 */
export function validateRing(ring: unknown): string | undefined {
  if (!Array.isArray(ring)) return 'must be an array of [longitude, latitude] coordinates';
  if (ring.length < MIN_RING_COORDINATES) {
    return `must be a closed ring of at least ${MIN_RING_COORDINATES} coordinates, got ${ring.length}`;
  }
  if (ring.length > MAX_RING_COORDINATES) {
    return `must have at most ${MAX_RING_COORDINATES} coordinates, got ${ring.length}`;
  }
  for (let i = 0; i < ring.length; i++) {
    const problem = coordinateProblem(ring[i]);
    if (problem) return `coordinate ${i} ${problem}`;
  }
  const coords = ring as LngLat[];
  const first = coords[0];
  const last = coords[coords.length - 1];
  if (first[0] !== last[0] || first[1] !== last[1]) {
    return 'must be closed: the first and last coordinates must be equal';
  }
  if (crossesAntimeridian(coords)) {
    return 'must not cross the antimeridian (longitude ±180); split it into two geofences';
  }
  // Collinearity first: a flat ring also "intersects itself", but that message would mislead.
  if (allCollinear(coords)) return 'must enclose an area (all coordinates are on one line)';
  const crossing = findSelfIntersection(coords);
  if (crossing) return `must not intersect itself (edges ${crossing[0]} and ${crossing[1]} cross)`;
  return undefined;
}

function coordinateProblem(c: unknown): string | undefined {
  if (!Array.isArray(c) || c.length < 2) return 'must be a [longitude, latitude] pair';
  const [lng, lat] = c as unknown[];
  if (typeof lng !== 'number' || typeof lat !== 'number' || !Number.isFinite(lng) || !Number.isFinite(lat)) {
    return 'must hold two finite numbers';
  }
  if (lng < -180 || lng > 180) return `has longitude ${lng} outside -180..180`;
  if (lat < -90 || lat > 90) return `has latitude ${lat} outside -90..90`;
  return undefined;
}

/** Number of distinct ring positions: the closing duplicate is dropped when present. */
function ringLength(ring: LngLat[]): number {
  const n = ring.length;
  if (n > 1 && ring[0][0] === ring[n - 1][0] && ring[0][1] === ring[n - 1][1]) return n - 1;
  return n;
}

function allCollinear(ring: LngLat[]): boolean {
  const a = ring[0];
  const b = ring.find((p) => p[0] !== a[0] || p[1] !== a[1]);
  if (!b) return true;
  return ring.every((p) => orientation(a, b, p) === 0);
}

/**
 * First pair of non-adjacent edges that touch, or adjacent edges that fold back onto each other.
 * Quadratic with a bounding-box reject: 2000 vertices is ~2 M pair checks, a few milliseconds, paid
 * once per geofence write.
 */
function findSelfIntersection(ring: LngLat[]): [number, number] | undefined {
  // Edges by their start index, skipping zero-length edges from repeated vertices.
  const edges: number[] = [];
  for (let i = 0; i + 1 < ring.length; i++) {
    if (ring[i][0] !== ring[i + 1][0] || ring[i][1] !== ring[i + 1][1]) edges.push(i);
  }
  const m = edges.length;
  for (let a = 0; a < m; a++) {
    const i = edges[a];
    const p1 = ring[i];
    const p2 = ring[i + 1];
    const minX = Math.min(p1[0], p2[0]);
    const maxX = Math.max(p1[0], p2[0]);
    const minY = Math.min(p1[1], p2[1]);
    const maxY = Math.max(p1[1], p2[1]);
    for (let b = a + 1; b < m; b++) {
      const j = edges[b];
      const q1 = ring[j];
      const q2 = ring[j + 1];
      if (Math.max(q1[0], q2[0]) < minX || Math.min(q1[0], q2[0]) > maxX) continue;
      if (Math.max(q1[1], q2[1]) < minY || Math.min(q1[1], q2[1]) > maxY) continue;
      if (b === a + 1) {
        // p2 is q1: the edges meet only there unless the second one runs back along the first.
        if (foldsBack(p1, p2, q2)) return [i, j];
      } else if (a === 0 && b === m - 1) {
        // The closing edge ends where the first one starts (q2 is p1).
        if (foldsBack(q1, q2, p2)) return [i, j];
      } else if (segmentsTouch(p1, p2, q1, q2)) {
        return [i, j];
      }
    }
  }
  return undefined;
}

/** Adjacent edges u→v and v→w overlap when they are collinear and w heads back along u→v. */
function foldsBack(u: LngLat, v: LngLat, w: LngLat): boolean {
  if (orientation(u, v, w) !== 0) return false;
  return (v[0] - u[0]) * (w[0] - v[0]) + (v[1] - u[1]) * (w[1] - v[1]) < 0;
}

function orientation(a: LngLat, b: LngLat, c: LngLat): number {
  const v = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
  return v > 0 ? 1 : v < 0 ? -1 : 0;
}

function onSegment(a: LngLat, b: LngLat, p: LngLat): boolean {
  return (
    Math.min(a[0], b[0]) <= p[0] && p[0] <= Math.max(a[0], b[0]) && Math.min(a[1], b[1]) <= p[1] && p[1] <= Math.max(a[1], b[1])
  );
}

/** Closed-segment intersection test (touching counts), with the classic collinear special cases. */
function segmentsTouch(p1: LngLat, p2: LngLat, q1: LngLat, q2: LngLat): boolean {
  const o1 = orientation(p1, p2, q1);
  const o2 = orientation(p1, p2, q2);
  const o3 = orientation(q1, q2, p1);
  const o4 = orientation(q1, q2, p2);
  if (o1 !== o2 && o3 !== o4) return true;
  if (o1 === 0 && onSegment(p1, p2, q1)) return true;
  if (o2 === 0 && onSegment(p1, p2, q2)) return true;
  if (o3 === 0 && onSegment(q1, q2, p1)) return true;
  if (o4 === 0 && onSegment(q1, q2, p2)) return true;
  return false;
}
