// Douglas–Peucker on flat [lon, lat, …] coordinates in 1e-7 degrees, with the tolerance in metres
// (longitude scaled by the cosine of the latitude): the base map keeps a lake's shore at the detail its
// zoom band can show, not every surveyed node.

const UNITS_PER_METRE = 1e7 / 111_320;

/** The line's points kept within `metres` of the original; its ends always kept. */
export function simplifyLine(line: ArrayLike<number>, metres: number): number[] {
  const n = line.length / 2;
  if (n <= 2) return Array.from(line);
  const tol = metres * UNITS_PER_METRE;
  const xScale = Math.cos(((line[1] / 1e7) * Math.PI) / 180);
  const keep = new Uint8Array(n);
  keep[0] = 1;
  keep[n - 1] = 1;
  const stack: number[] = [0, n - 1];
  while (stack.length > 0) {
    const last = stack.pop()!;
    const first = stack.pop()!;
    const ax = line[2 * first] * xScale, ay = line[2 * first + 1];
    const bx = line[2 * last] * xScale, by = line[2 * last + 1];
    const dx = bx - ax, dy = by - ay;
    const len2 = dx * dx + dy * dy;
    let worst = -1;
    let worstD = tol * tol;
    for (let i = first + 1; i < last; i++) {
      const px = line[2 * i] * xScale - ax, py = line[2 * i + 1] - ay;
      let d: number;
      if (len2 === 0) d = px * px + py * py;
      else {
        const t = Math.max(0, Math.min(1, (px * dx + py * dy) / len2));
        const qx = px - t * dx, qy = py - t * dy;
        d = qx * qx + qy * qy;
      }
      if (d > worstD) {
        worstD = d;
        worst = i;
      }
    }
    if (worst >= 0) {
      keep[worst] = 1;
      stack.push(first, worst, worst, last);
    }
  }
  const out: number[] = [];
  for (let i = 0; i < n; i++) if (keep[i]) out.push(line[2 * i], line[2 * i + 1]);
  return out;
}

/**
 * An open ring simplified the same way: cut at its first point and the point farthest from it, so each
 * half has two distinct ends. Fewer than 3 points left: empty (the ring is below the band's detail).
 */
export function simplifyRing(ring: ArrayLike<number>, metres: number): number[] {
  const n = ring.length / 2;
  if (n < 3) return [];
  let far = 1;
  let farD = -1;
  for (let i = 1; i < n; i++) {
    const dx = ring[2 * i] - ring[0], dy = ring[2 * i + 1] - ring[1];
    const d = dx * dx + dy * dy;
    if (d > farD) {
      farD = d;
      far = i;
    }
  }
  const first = simplifyLine(Array.prototype.slice.call(ring, 0, 2 * far + 2) as number[], metres);
  const second = simplifyLine([...(Array.prototype.slice.call(ring, 2 * far) as number[]), ring[0], ring[1]], metres);
  const out = first.concat(second.slice(2, second.length - 2));
  return out.length >= 6 ? out : [];
}
