// Cutting rings and lines to an axis-aligned rectangle, on flat [x0, y0, x1, y1, …] coordinates: the
// base map stores each cell's own piece of a lake or a river, so a box read touches only its cells and
// a large polygon is not copied whole into every cell it covers. A ring is open (its last point is not
// its first again) and filled even-odd, so holes cut separately still fill right.

/** The ring cut to the rectangle (Sutherland–Hodgman, one edge at a time); fewer than 3 points: empty. */
export function clipRing(ring: ArrayLike<number>, west: number, south: number, east: number, north: number): number[] {
  let out = Array.from(ring);
  out = clipEdge(out, (x) => x >= west, (ax, ay, bx, by) => [west, ay + ((by - ay) * (west - ax)) / (bx - ax)]);
  out = clipEdge(out, (x) => x <= east, (ax, ay, bx, by) => [east, ay + ((by - ay) * (east - ax)) / (bx - ax)]);
  out = clipEdge(out, (_x, y) => y >= south, (ax, ay, bx, by) => [ax + ((bx - ax) * (south - ay)) / (by - ay), south]);
  out = clipEdge(out, (_x, y) => y <= north, (ax, ay, bx, by) => [ax + ((bx - ax) * (north - ay)) / (by - ay), north]);
  return out.length >= 6 ? out : [];
}

function clipEdge(
  ring: number[],
  inside: (x: number, y: number) => boolean,
  cross: (ax: number, ay: number, bx: number, by: number) => [number, number],
): number[] {
  const n = ring.length / 2;
  if (n === 0) return ring;
  const out: number[] = [];
  let px = ring[2 * n - 2];
  let py = ring[2 * n - 1];
  let pIn = inside(px, py);
  for (let i = 0; i < n; i++) {
    const x = ring[2 * i];
    const y = ring[2 * i + 1];
    const cIn = inside(x, y);
    if (cIn !== pIn) {
      const [cx, cy] = cross(px, py, x, y);
      out.push(Math.round(cx), Math.round(cy));
    }
    if (cIn) out.push(x, y);
    px = x;
    py = y;
    pIn = cIn;
  }
  return out;
}

/** The runs of the line inside the rectangle (Liang–Barsky per segment), each of at least 2 points. */
export function clipLine(line: ArrayLike<number>, west: number, south: number, east: number, north: number): number[][] {
  const pieces: number[][] = [];
  let run: number[] = [];
  const n = line.length / 2;
  for (let i = 0; i + 1 < n; i++) {
    const ax = line[2 * i], ay = line[2 * i + 1], bx = line[2 * i + 2], by = line[2 * i + 3];
    const dx = bx - ax, dy = by - ay;
    let t0 = 0, t1 = 1;
    let visible = true;
    for (const [p, q] of [[-dx, ax - west], [dx, east - ax], [-dy, ay - south], [dy, north - ay]] as const) {
      if (p === 0) {
        if (q < 0) visible = false;
      } else {
        const r = q / p;
        if (p < 0) t0 = Math.max(t0, r);
        else t1 = Math.min(t1, r);
      }
    }
    if (!visible || t0 > t1) {
      if (run.length >= 4) pieces.push(run);
      run = [];
      continue;
    }
    const sx = Math.round(ax + t0 * dx), sy = Math.round(ay + t0 * dy);
    const ex = Math.round(ax + t1 * dx), ey = Math.round(ay + t1 * dy);
    if (run.length === 0 || run[run.length - 2] !== sx || run[run.length - 1] !== sy) {
      if (run.length >= 4) pieces.push(run);
      run = [sx, sy];
    }
    run.push(ex, ey);
    if (t1 < 1) {
      if (run.length >= 4) pieces.push(run);
      run = [];
    }
  }
  if (run.length >= 4) pieces.push(run);
  return pieces;
}
