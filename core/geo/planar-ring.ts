// Point against a ring in a local planar frame (metres). The ring is a flat [x0, y0, x1, y1, ...]
// array, closed (last point == first), as produced by planar.ts projectRing.

/** Where a point lies relative to a ring: inside (boundary counts as inside) and how far from it. */
export interface RingProximity {
  inside: boolean;
  /** Distance to the nearest edge, metres. */
  distance: number;
}

/**
 * Even-odd point-in-ring and the distance to the nearest edge, in one pass over the edges.
 * A point on an edge (distance 0) counts as inside, so the boundary belongs to the geofence.
 * Writes into `out` when given, so hot loops need not allocate.
 */
export function ringProximity(
  xy: Float64Array,
  px: number,
  py: number,
  out: RingProximity = { inside: false, distance: 0 },
): RingProximity {
  let inside = false;
  let best = Infinity;
  const n = xy.length - 2;
  for (let i = 0; i < n; i += 2) {
    const ax = xy[i];
    const ay = xy[i + 1];
    const bx = xy[i + 2];
    const by = xy[i + 3];
    // Ray casting to +x (W. Randolph Franklin's pnpoly): count edges straddling the horizontal line.
    if (ay > py !== by > py && px < ((bx - ax) * (py - ay)) / (by - ay) + ax) inside = !inside;
    const d2 = segmentDistanceSquared(ax, ay, bx, by, px, py);
    if (d2 < best) best = d2;
  }
  const distance = Math.sqrt(best);
  out.inside = inside || distance === 0;
  out.distance = distance;
  return out;
}

/** Squared distance from (px, py) to the segment a–b. */
export function segmentDistanceSquared(ax: number, ay: number, bx: number, by: number, px: number, py: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  let t = 0;
  const len2 = dx * dx + dy * dy;
  if (len2 > 0) {
    t = ((px - ax) * dx + (py - ay) * dy) / len2;
    if (t < 0) t = 0;
    else if (t > 1) t = 1;
  }
  const ex = ax + t * dx - px;
  const ey = ay + t * dy - py;
  return ex * ex + ey * ey;
}

/** Signed area (counter-clockwise positive) of a closed flat ring. */
export function ringSignedArea(xy: Float64Array): number {
  let sum = 0;
  const n = xy.length - 2;
  for (let i = 0; i < n; i += 2) sum += xy[i] * xy[i + 3] - xy[i + 2] * xy[i + 1];
  return sum / 2;
}
