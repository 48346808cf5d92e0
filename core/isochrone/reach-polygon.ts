// The area reachable within a travel time, as one polygon: the road stretches a time-bounded search
// reached are drawn into a grid around the start, widened by a cell so neighbouring roads join, holes
// (blocks between reached roads) filled, and the outline of the part that holds the start traced along
// cell edges and simplified. Pure; the search itself is the caller's.
//
// Why a grid and not a concave hull of reached points: a hull's shape depends on a parameter tuned per
// density, while the grid's only parameter is its cell size, chosen from the reached extent so the
// outline has about the same detail for a 5-minute walk and a 20-minute drive.

import { Polylines } from './polylines';

export type LngLat = [number, number];

export interface ReachPolygonOptions {
  /** Cells across the longer side of the reached extent (detail of the outline). */
  cellsAcross: number;
  /** Bounds on the cell size, metres. */
  minCellMeters: number;
  maxCellMeters: number;
}

export const DEFAULT_REACH_OPTIONS: ReachPolygonOptions = { cellsAcross: 160, minCellMeters: 20, maxCellMeters: 400 };

const METERS_PER_DEGREE = 111320;

/**
 * `lines`: reached road stretches, each a polyline of [lng, lat] (or all of them in one Polylines) (the last one of a partly reached road
 * ends where the time ran out). Returns one closed ring, counter-clockwise, [lng, lat].
 */
export function reachPolygon(center: LngLat, lines: LngLat[][] | Polylines, options: ReachPolygonOptions = DEFAULT_REACH_OPTIONS): LngLat[] {
  const flat = lines instanceof Polylines ? lines : Polylines.from(lines);
  const coords = flat.coords;
  const kx = METERS_PER_DEGREE * Math.cos((center[1] * Math.PI) / 180);
  const ky = METERS_PER_DEGREE;
  // Local planar metres around the centre.
  let minX = 0, maxX = 0, minY = 0, maxY = 0;
  for (let p = 0; p < flat.points; p++) {
    const x = (coords[2 * p] - center[0]) * kx, y = (coords[2 * p + 1] - center[1]) * ky;
    if (x < minX) minX = x; if (x > maxX) maxX = x; if (y < minY) minY = y; if (y > maxY) maxY = y;
  }
  const extent = Math.max(maxX - minX, maxY - minY);
  const cell = Math.min(options.maxCellMeters, Math.max(options.minCellMeters, extent / options.cellsAcross));
  // A margin of two cells so the widened drawing never touches the grid's edge.
  const x0 = minX - 2 * cell, y0 = minY - 2 * cell;
  const w = Math.ceil((maxX - minX) / cell) + 5;
  const h = Math.ceil((maxY - minY) / cell) + 5;
  const grid = new Uint8Array(w * h);
  const mark = (x: number, y: number) => {
    const cx = Math.floor((x - x0) / cell), cy = Math.floor((y - y0) / cell);
    for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
      const gx = cx + dx, gy = cy + dy;
      if (gx >= 0 && gy >= 0 && gx < w && gy < h) grid[gy * w + gx] = 1;
    }
  };
  mark(0, 0);
  for (let l = 0; l < flat.count; l++) {
    const first = flat.starts[l];
    for (let i = first; i < flat.end(l); i++) {
      const ax = (coords[2 * i] - center[0]) * kx, ay = (coords[2 * i + 1] - center[1]) * ky;
      mark(ax, ay);
      if (i === first) continue;
      const bx = (coords[2 * i - 2] - center[0]) * kx, by = (coords[2 * i - 1] - center[1]) * ky;
      const steps = Math.ceil(Math.hypot(ax - bx, ay - by) / (cell / 2));
      for (let s = 1; s < steps; s++) mark(bx + ((ax - bx) * s) / steps, by + ((ay - by) * s) / steps);
    }
  }
  keepComponentOf(grid, w, h, Math.floor(-x0 / cell), Math.floor(-y0 / cell));
  fillHoles(grid, w, h);
  const corners = traceOutline(grid, w, h);
  const ring = simplify(corners.map(([gx, gy]) => [x0 + gx * cell, y0 + gy * cell] as LngLat), cell * 0.6);
  const out = ring.map(([x, y]) => [round7(center[0] + x / kx), round7(center[1] + y / ky)] as LngLat);
  if (signedArea(out) < 0) out.reverse();
  out.push([out[0][0], out[0][1]]);
  return out;
}

function round7(v: number): number {
  return Math.round(v * 1e7) / 1e7;
}

/** Clears every filled cell not 8-connected to (sx, sy): stray islands are not "reachable from here". */
function keepComponentOf(grid: Uint8Array, w: number, h: number, sx: number, sy: number): void {
  const seen = new Uint8Array(w * h);
  const stack = [sy * w + sx];
  seen[sy * w + sx] = 1;
  while (stack.length) {
    const i = stack.pop()!;
    const x = i % w, y = (i - x) / w;
    for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) {
      const nx = x + dx, ny = y + dy;
      if (nx < 0 || ny < 0 || nx >= w || ny >= h) continue;
      const j = ny * w + nx;
      if (!seen[j] && grid[j]) { seen[j] = 1; stack.push(j); }
    }
  }
  for (let i = 0; i < grid.length; i++) if (!seen[i]) grid[i] = 0;
}

/** Fills every empty cell not 4-connected to the grid's border. */
function fillHoles(grid: Uint8Array, w: number, h: number): void {
  const outside = new Uint8Array(w * h);
  const stack: number[] = [];
  for (let x = 0; x < w; x++) { stack.push(x, (h - 1) * w + x); }
  for (let y = 0; y < h; y++) { stack.push(y * w, y * w + w - 1); }
  while (stack.length) {
    const i = stack.pop()!;
    if (outside[i] || grid[i]) continue;
    outside[i] = 1;
    const x = i % w, y = (i - x) / w;
    if (x > 0) stack.push(i - 1);
    if (x < w - 1) stack.push(i + 1);
    if (y > 0) stack.push(i - w);
    if (y < h - 1) stack.push(i + w);
  }
  for (let i = 0; i < grid.length; i++) if (!outside[i]) grid[i] = 1;
}

// Directions in grid coordinates (y grows downwards): east, south, west, north.
const DX = [1, 0, -1, 0];
const DY = [0, 1, 0, -1];

/**
 * Follows the outline along cell edges with the filled cells on the right-hand side, from the top-left
 * corner of the first filled cell; returns the corners where the outline turns.
 */
function traceOutline(grid: Uint8Array, w: number, h: number): Array<[number, number]> {
  const filled = (x: number, y: number) => x >= 0 && y >= 0 && x < w && y < h && grid[y * w + x] === 1;
  let start = -1;
  for (let i = 0; i < grid.length && start < 0; i++) if (grid[i]) start = i;
  if (start < 0) return [];
  const sx = start % w, sy = (start - sx) / w;
  let x = sx, y = sy, dir = 0;
  const corners: Array<[number, number]> = [];
  // Cells ahead-left and ahead-right of corner (x, y) for each direction.
  const aheadLeft = (d: number) => [[x, y - 1], [x, y], [x - 1, y], [x - 1, y - 1]][d];
  const aheadRight = (d: number) => [[x, y], [x - 1, y], [x - 1, y - 1], [x, y - 1]][d];
  for (let steps = 0; steps < 4 * (w + 1) * (h + 1); steps++) {
    const [lx, ly] = aheadLeft(dir);
    const [rx, ry] = aheadRight(dir);
    let next: number;
    if (filled(lx, ly)) next = (dir + 3) % 4;
    else if (filled(rx, ry)) next = dir;
    else next = (dir + 1) % 4;
    if (next !== dir || corners.length === 0) corners.push([x, y]);
    dir = next;
    x += DX[dir];
    y += DY[dir];
    if (x === sx && y === sy) break;
  }
  return corners;
}

/** Douglas–Peucker on a closed ring (planar metres). */
function simplify(ring: LngLat[], tolerance: number): LngLat[] {
  if (ring.length <= 4) return ring;
  const keep = new Uint8Array(ring.length);
  keep[0] = 1;
  // Split the ring at its farthest point from the first, so both halves are open polylines.
  let far = 0, farD = -1;
  for (let i = 1; i < ring.length; i++) {
    const d = Math.hypot(ring[i][0] - ring[0][0], ring[i][1] - ring[0][1]);
    if (d > farD) { farD = d; far = i; }
  }
  keep[far] = 1;
  const stack: Array<[number, number]> = [[0, far], [far, ring.length]];
  while (stack.length) {
    const [a, b] = stack.pop()!;
    const pb = ring[b % ring.length];
    let best = -1, bestD = tolerance;
    for (let i = a + 1; i < b; i++) {
      const d = segmentDistance(ring[i], ring[a], pb);
      if (d > bestD) { bestD = d; best = i; }
    }
    if (best >= 0) { keep[best] = 1; stack.push([a, best], [best, b]); }
  }
  return ring.filter((_, i) => keep[i]);
}

function segmentDistance(p: LngLat, a: LngLat, b: LngLat): number {
  const vx = b[0] - a[0], vy = b[1] - a[1];
  const len2 = vx * vx + vy * vy;
  const t = len2 === 0 ? 0 : Math.max(0, Math.min(1, ((p[0] - a[0]) * vx + (p[1] - a[1]) * vy) / len2));
  return Math.hypot(p[0] - (a[0] + t * vx), p[1] - (a[1] + t * vy));
}

function signedArea(ring: LngLat[]): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) sum += ring[j][0] * ring[i][1] - ring[i][0] * ring[j][1];
  return sum / 2;
}
