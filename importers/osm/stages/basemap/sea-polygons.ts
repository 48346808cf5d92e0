// The sea inside an extract's box, from its coastline chains. OSM has no sea polygons: the sea is what lies
// on the right of natural=coastline ways (land on the left). Each chain is cut to the box; every run of it
// inside then enters at the box's edge and leaves at it, with water on its right. A sea polygon follows a
// run to where it leaves, then the box's edge clockwise (keeping the water on the right) to the next run
// that enters, and so on until it is back at its first run. A closed chain inside the box is an island
// when it runs counter-clockwise (land inside: a hole in the sea around it) and water when clockwise.
// A chain that ends inside the box without closing (broken or clipped data, an extract cut by a polygon
// instead of its box, tiles of a made-up region) cannot be closed along the edge. An end near the edge (a
// way cut at the box keeps its last node inside) is carried straight to it and counted; one farther in
// would make the walk along the edge enclose land it cannot tell from sea, so then no sea is made at all
// (the coastlines stay drawn as lines, as before) and the ends are counted: missing water, never water
// painted over land.
// Coordinates are flat [x0, y0, x1, y1, …] integers (1e-7 degree); rings are open (last point ≠ first).
import { clipLine } from '../../../../core/geo/rect-clip';

export type Box = readonly [west: number, south: number, east: number, north: number];

export interface Sea {
  /** Each polygon as its outer ring, then its holes (islands). */
  polygons: number[][][];
  /** Chain ends short of the box's edge, carried straight to it. */
  carriedEnds: number;
  /** Chain ends too far inside the box to carry: when any, `polygons` is empty. */
  openEnds: number;
}

/** How far inside the box a chain's end may be carried to its edge: 1 % of its larger side, at least 0.002°. */
export function carryLimit(box: Box): number {
  return Math.max(20_000, 0.01 * Math.max(box[2] - box[0], box[3] - box[1]));
}

/** Sea polygons in `box` from coastline chains (flat coordinates, in the ways' direction). */
export function seaPolygons(chains: ReadonlyArray<ReadonlyArray<number>>, box: Box, carryWithin = carryLimit(box)): Sea {
  const [west, south, east, north] = box;
  const width = east - west, height = north - south;
  let openEnds = 0;
  const perimeter = 2 * (width + height);
  const runs: number[][] = [];
  const islands: number[][] = [];
  const polygons: number[][][] = [];
  let carriedEnds = 0;
  let boxIsSea = false;
  const inBox = (x: number, y: number) => x >= west && x <= east && y >= south && y <= north;
  const onEdge = (x: number, y: number) => x === west || x === east || y === south || y === north;
  /** The nearest point of the edge, counted as carried; undefined (counted as open) when too far. */
  const toEdge = (x: number, y: number): [number, number] | undefined => {
    const d = [x - west, east - x, y - south, north - y];
    const least = d.indexOf(Math.min(...d));
    if (d[least] > carryWithin) {
      openEnds++;
      return undefined;
    }
    carriedEnds++;
    return least === 0 ? [west, y] : least === 1 ? [east, y] : least === 2 ? [x, south] : [x, north];
  };

  for (const chain of chains) {
    const n = chain.length / 2;
    if (n < 2) continue;
    const closed = n >= 4 && chain[0] === chain[2 * n - 2] && chain[1] === chain[2 * n - 1];
    let line: ArrayLike<number> = chain;
    if (closed) {
      const ring = chain.slice(0, 2 * n - 2);
      let outside = -1;
      for (let k = 0; k < ring.length && outside < 0; k += 2) if (!inBox(ring[k], ring[k + 1])) outside = k;
      if (outside < 0) {
        if (signedArea(ring) > 0) islands.push(ring);
        else polygons.push([ring]);
        continue;
      }
      // Opened at a point outside the box, so that no run inside is split in two at the chain's start.
      line = [...ring.slice(outside), ...ring.slice(0, outside), ring[outside], ring[outside + 1]];
      const cut = clipLine(line, west, south, east, north);
      if (cut.length === 0) {
        // Around the box or beside it: a clockwise ring holding the box is water all over it.
        if (signedArea(ring) < 0 && containsPoint(ring, (west + east) / 2, (south + north) / 2)) boxIsSea = true;
        continue;
      }
    }
    for (const run of clipLine(line, west, south, east, north)) {
      const start = onEdge(run[0], run[1]) ? [] : toEdge(run[0], run[1]);
      const m = run.length;
      const end = onEdge(run[m - 2], run[m - 1]) ? [] : toEdge(run[m - 2], run[m - 1]);
      if (start && end) runs.push([...start, ...run, ...end]);
    }
  }

  if (openEnds > 0) return { polygons: [], carriedEnds, openEnds };

  // Position along the edge, clockwise from the north-west corner.
  const along = (x: number, y: number): number => {
    const d = [north - y, east - x, y - south, x - west];
    const edge = d.indexOf(Math.min(...d));
    return edge === 0 ? x - west : edge === 1 ? width + (north - y) : edge === 2 ? width + height + (east - x) : 2 * width + height + (y - south);
  };
  const corners: Array<[number, number, number]> = [[west, north, 0], [east, north, width], [east, south, width + height], [west, south, 2 * width + height]];
  const entries = runs.map((r) => along(r[0], r[1]));
  const exits = runs.map((r) => along(r[r.length - 2], r[r.length - 1]));
  const used = new Uint8Array(runs.length);
  for (let first = 0; first < runs.length; first++) {
    if (used[first]) continue;
    used[first] = 1;
    const ring = [...runs[first]];
    for (let current = first, guard = 0; guard <= runs.length; guard++) {
      const from = exits[current];
      let next = -1, gap = Infinity;
      for (let j = 0; j < runs.length; j++) {
        if (used[j] && j !== first) continue;
        const d = (entries[j] - from + perimeter) % perimeter;
        if (d < gap) {
          gap = d;
          next = j;
        }
      }
      for (const [x, y] of corners.map(([x, y, t]) => [x, y, (t - from + perimeter) % perimeter]).filter(([, , d]) => d > 0 && d < gap).sort((a, b) => a[2] - b[2])) ring.push(x, y);
      if (next === first) break;
      used[next] = 1;
      ring.push(...runs[next]);
      current = next;
    }
    const open = withoutRepeats(ring);
    if (open.length >= 6) polygons.push([open]);
  }
  if (runs.length === 0 && (boxIsSea || islands.length > 0)) polygons.push([[west, north, east, north, east, south, west, south]]);

  // Each island a hole of the sea polygon around it; one in no sea polygon is land among land.
  for (const island of islands) {
    const around = polygons.find((p) => signedArea(p[0]) < 0 && containsPoint(p[0], island[0], island[1]));
    around?.push(island);
  }
  return { polygons, carriedEnds, openEnds };
}

/** Twice the area, positive when the ring runs counter-clockwise (x east, y north). */
export function signedArea(ring: ArrayLike<number>): number {
  let twice = 0;
  const x0 = ring[0], y0 = ring[1];
  for (let i = 0, j = ring.length - 2; i < ring.length; j = i, i += 2) twice += (ring[j] - x0) * (ring[i + 1] - y0) - (ring[i] - x0) * (ring[j + 1] - y0);
  return twice;
}

/** Whether the point lies inside the open ring (even-odd). */
export function containsPoint(ring: ArrayLike<number>, x: number, y: number): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 2; i < ring.length; j = i, i += 2) {
    const xi = ring[i], yi = ring[i + 1], xj = ring[j], yj = ring[j + 1];
    if ((yi > y) !== (yj > y) && x < xi + ((xj - xi) * (y - yi)) / (yj - yi)) inside = !inside;
  }
  return inside;
}

/** The ring without consecutive repeated points, nor its first point repeated at the end. */
function withoutRepeats(ring: number[]): number[] {
  const out: number[] = [];
  for (let k = 0; k < ring.length; k += 2) {
    if (out.length > 0 && out[out.length - 2] === ring[k] && out[out.length - 1] === ring[k + 1]) continue;
    out.push(ring[k], ring[k + 1]);
  }
  while (out.length > 2 && out[0] === out[out.length - 2] && out[1] === out[out.length - 1]) out.splice(-2);
  return out;
}
