// Exact area shared by a disk and another shape, in the plane. Used for the share of a location's
// accuracy disk that lies inside a geofence (the confidence rule): exact rather than sampled, so the
// answer is deterministic and the f >= 0.5 threshold is sharp.

/**
 * Area of the intersection of two disks with radii r1, r2 whose centres are d apart
 * (the circular-lens formula).
 */
export function diskDiskOverlapArea(d: number, r1: number, r2: number): number {
  if (d >= r1 + r2) return 0;
  const small = Math.min(r1, r2);
  if (d <= Math.abs(r1 - r2)) return Math.PI * small * small;
  const a1 = Math.acos(clamp((d * d + r1 * r1 - r2 * r2) / (2 * d * r1)));
  const a2 = Math.acos(clamp((d * d + r2 * r2 - r1 * r1) / (2 * d * r2)));
  const kite = 0.5 * Math.sqrt(Math.max(0, (-d + r1 + r2) * (d + r1 - r2) * (d - r1 + r2) * (d + r1 + r2)));
  return r1 * r1 * a1 + r2 * r2 * a2 - kite;
}

/**
 * Area of the intersection of a closed flat ring [x0, y0, ...] with the disk of radius r centred at
 * (cx, cy). Sums, over the edges, the signed area of (triangle centre–a–b) ∩ disk, so concave rings
 * work; the absolute value makes the ring's winding irrelevant. Each edge is cut where it meets the
 * circle: parts inside the disk contribute their triangle, parts outside contribute a circular
 * sector of the angle they subtend.
 */
export function ringDiskOverlapArea(xy: Float64Array, cx: number, cy: number, r: number): number {
  const r2 = r * r;
  let sum = 0;
  const n = xy.length - 2;
  for (let i = 0; i < n; i += 2) {
    sum += edgeTriangleDiskArea(xy[i] - cx, xy[i + 1] - cy, xy[i + 2] - cx, xy[i + 3] - cy, r, r2);
  }
  return Math.abs(sum);
}

/** Signed area of triangle (origin, a, b) ∩ disk of radius r at the origin. */
function edgeTriangleDiskArea(ax: number, ay: number, bx: number, by: number, r: number, r2: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const a2 = ax * ax + ay * ay;
  const b2 = bx * bx + by * by;
  if (a2 <= r2 && b2 <= r2) return 0.5 * (ax * by - ay * bx);
  // |a + t d|^2 = r^2  →  (d·d) t^2 + 2 (a·d) t + (a·a − r^2) = 0
  const qa = dx * dx + dy * dy;
  if (qa === 0) return 0;
  const qb = ax * dx + ay * dy;
  const qc = a2 - r2;
  const disc = qb * qb - qa * qc;
  if (disc <= 0) return sector(ax, ay, bx, by, r2);
  const root = Math.sqrt(disc);
  const t1 = Math.max(0, (-qb - root) / qa);
  const t2 = Math.min(1, (-qb + root) / qa);
  if (t1 >= t2) return sector(ax, ay, bx, by, r2);
  // a → p1 outside (sector), p1 → p2 inside (triangle), p2 → b outside (sector).
  const p1x = ax + t1 * dx;
  const p1y = ay + t1 * dy;
  const p2x = ax + t2 * dx;
  const p2y = ay + t2 * dy;
  return sector(ax, ay, p1x, p1y, r2) + 0.5 * (p1x * p2y - p1y * p2x) + sector(p2x, p2y, bx, by, r2);
}

/** Signed area of the circular sector between directions a and b (zero when a == b). */
function sector(ax: number, ay: number, bx: number, by: number, r2: number): number {
  const cross = ax * by - ay * bx;
  const dot = ax * bx + ay * by;
  if (cross === 0 && dot >= 0) return 0;
  return 0.5 * r2 * Math.atan2(cross, dot);
}

function clamp(x: number): number {
  return x < -1 ? -1 : x > 1 ? 1 : x;
}
