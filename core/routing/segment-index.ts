// Nearest point on the network: a uniform grid over every straight piece of every segment (a piece
// is listed in each cell its bounding box touches), searched in growing rings of cells until no
// unvisited cell can hold anything closer. Distances are metres in a local equirectangular plane,
// exact enough within the snap radius.
import { FixedProjection, type FixedPlace } from './fixed-mercator';
import type { Network } from './network';
import { finish, inChunks, type Steps } from './steps';

const CELL_DEG = 0.005;
const M_PER_DEG = 111_320;
/**
 * How much nearer than the planar nearest OSRM's rounding can put another piece: its fixed point moves a
 * point by up to about 7 cm per coordinate, and Web Mercator's scale drifts from the local plane's by about
 * 1e-4 of the distance per kilometre; pieces within this margin (and a thousandth) are ranked OSRM's way.
 */
const PLACE_MARGIN_M = 0.5;

export interface Snap {
  segment: number;
  /** Metres from the segment's start to the snapped point. */
  along: number;
  lon: number;
  lat: number;
  /** Metres from the query point. */
  distance: number;
  /** Bearing (degrees clockwise from north) of the segment's piece at the snapped point, in segment order. */
  bearing: number;
  /**
   * Other segments whose nearest point is this same place (`nearestPlace`), one snap each: a point nearest
   * a junction is on every road there, and a route may leave or reach it along whichever serves best.
   */
  ties?: Snap[];
}

/**
 * The index's tables, built from the network alone (`segmentIndexTables`): the gateway builds them in
 * steps while it answers, tools at once.
 */
export interface SegmentIndexTables {
  west: number;
  south: number;
  cols: number;
  rows: number;
  /** Cell → first entry in cellItems (CSR, cols × rows + 1). */
  cellFirst: Uint32Array;
  /** Point index p of each piece (p to p+1) listed in a cell. */
  cellItems: Uint32Array;
  /** Segment of each point index (the piece from point p to p+1 belongs to pieceSegment[p]). */
  pieceSegment: Uint32Array;
  /** Metres from its segment's start to each point. */
  pointAlong: Float32Array;
}

/** The tables of the network's index, in steps (steps.ts): on a region, tens of millions of points. */
export function* segmentIndexTables(n: Network): Steps<SegmentIndexTables> {
  const points = n.pointLon.length;
  const segments = n.segmentFrom.length;
  const { pointLon, pointLat, segmentStart } = n;
  const pieceSegment = new Uint32Array(points);
  const pointAlong = new Float32Array(points);
  let west = Infinity, south = Infinity, east = -Infinity, north = -Infinity;
  yield* inChunks(points, (from, to) => {
    for (let p = from; p < to; p++) {
      const lon = pointLon[p] / 1e7, lat = pointLat[p] / 1e7;
      if (lon < west) west = lon;
      if (lon > east) east = lon;
      if (lat < south) south = lat;
      if (lat > north) north = lat;
    }
  });
  if (points === 0) west = south = east = north = 0;
  const cols = Math.max(1, Math.ceil((east - west) / CELL_DEG) + 1);
  const rows = Math.max(1, Math.ceil((north - south) / CELL_DEG) + 1);
  // Each point's cell once.
  const pointCol = new Uint32Array(points);
  const pointRow = new Uint32Array(points);
  yield* inChunks(points, (from, to) => {
    for (let p = from; p < to; p++) {
      pointCol[p] = Math.min(cols - 1, Math.max(0, Math.floor((pointLon[p] / 1e7 - west) / CELL_DEG)));
      pointRow[p] = Math.min(rows - 1, Math.max(0, Math.floor((pointLat[p] / 1e7 - south) / CELL_DEG)));
    }
  });
  const counts = new Uint32Array(cols * rows + 1);
  yield* inChunks(segments, (from, to) => {
    for (let s = from; s < to; s++) {
      let along = 0;
      const first = segmentStart[s], end = segmentStart[s + 1];
      for (let p = first; p < end; p++) {
        pieceSegment[p] = s;
        if (p > first) along += planarMetres(pointLon[p - 1] / 1e7, pointLat[p - 1] / 1e7, pointLon[p] / 1e7, pointLat[p] / 1e7);
        pointAlong[p] = along;
      }
      // Scale to the segment's stored (haversine) length so offsets agree with it.
      const total = along;
      if (total > 0) for (let p = first; p < end; p++) pointAlong[p] *= n.segmentLength[s] / total;
      // A piece is listed in every cell its bounding box touches.
      for (let p = first; p < end - 1; p++) {
        const c0 = Math.min(pointCol[p], pointCol[p + 1]), c1 = Math.max(pointCol[p], pointCol[p + 1]);
        const r0 = Math.min(pointRow[p], pointRow[p + 1]), r1 = Math.max(pointRow[p], pointRow[p + 1]);
        for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) counts[r * cols + c + 1]++;
      }
    }
  });
  for (let i = 0; i < cols * rows; i++) counts[i + 1] += counts[i];
  const cellItems = new Uint32Array(counts[cols * rows]);
  const pos = counts.slice(0, cols * rows);
  yield* inChunks(segments, (from, to) => {
    for (let s = from; s < to; s++) {
      for (let p = segmentStart[s]; p < segmentStart[s + 1] - 1; p++) {
        const c0 = Math.min(pointCol[p], pointCol[p + 1]), c1 = Math.max(pointCol[p], pointCol[p + 1]);
        const r0 = Math.min(pointRow[p], pointRow[p + 1]), r1 = Math.max(pointRow[p], pointRow[p + 1]);
        for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) cellItems[pos[r * cols + c]++] = p;
      }
    }
  });
  return { west, south, cols, rows, cellFirst: counts, cellItems, pieceSegment, pointAlong };
}

export class SegmentIndex {
  private readonly cellFirst: Uint32Array;
  private readonly cellItems: Uint32Array;
  private readonly west: number;
  private readonly south: number;
  private readonly cols: number;
  private readonly rows: number;
  private readonly pieceSegment: Uint32Array;
  private readonly pointAlong: Float32Array;

  /** `tables`: built beforehand from this network (the gateway builds them in steps); else built here at once. */
  constructor(private readonly n: Network, tables: SegmentIndexTables = finish(segmentIndexTables(n))) {
    ({ west: this.west, south: this.south, cols: this.cols, rows: this.rows, cellFirst: this.cellFirst, cellItems: this.cellItems, pieceSegment: this.pieceSegment, pointAlong: this.pointAlong } = tables);
  }

  private col(lon: number): number {
    return Math.min(this.cols - 1, Math.max(0, Math.floor((lon - this.west) / CELL_DEG)));
  }

  private row(lat: number): number {
    return Math.min(this.rows - 1, Math.max(0, Math.floor((lat - this.south) / CELL_DEG)));
  }

  /** Nearest point of a segment `accept` allows, within `maxMetres`; null when none. */
  nearest(lon: number, lat: number, maxMetres: number, accept: (segment: number) => boolean): Snap | null {
    const kx = Math.cos(lat * Math.PI / 180) * M_PER_DEG;
    const ky = M_PER_DEG;
    const cellMetres = CELL_DEG * Math.min(kx, ky);
    const cx = Math.floor((lon - this.west) / CELL_DEG);
    const cy = Math.floor((lat - this.south) / CELL_DEG);
    // Metres from the point to the nearest side of its own cell: every cell of ring r ≥ 1 lies at least
    // that far plus r - 1 cells away (the plane is linear in degrees, so a cell's distance bounds its pieces').
    const fx = (lon - this.west) / CELL_DEG - cx, fy = (lat - this.south) / CELL_DEG - cy;
    const inside = Math.max(0, Math.min(Math.min(fx, 1 - fx) * CELL_DEG * kx, Math.min(fy, 1 - fy) * CELL_DEG * ky));
    const { pointLon, pointLat } = this.n;
    // The point in stored units (1e-7°) and metres per stored unit, for the pieces' boxes.
    const qx = lon * 1e7, qy = lat * 1e7, ux = kx / 1e7, uy = ky / 1e7;
    // Thousands of pieces are looked at per query on a city: only the best one becomes a Snap.
    let best = -1;
    let bestD2 = maxMetres * maxMetres;
    const maxRing = Math.ceil(maxMetres / cellMetres) + 1;
    for (let ring = 0; ring <= maxRing; ring++) {
      // A micrometre below the bound: rounding must not skip a cell holding a piece as near as the best.
      const near = ring === 0 ? 0 : Math.max(0, (ring - 1) * cellMetres + inside - 1e-6);
      if (best >= 0 && near * near > bestD2) break;
      for (let r = cy - ring; r <= cy + ring; r++) {
        if (r < 0 || r >= this.rows) continue;
        const edgeRow = r === cy - ring || r === cy + ring;
        for (let c = cx - ring; c <= cx + ring; c++) {
          if (c < 0 || c >= this.cols) continue;
          // Only the ring's own cells: whole rows at its top and bottom, the two ends of the others.
          if (!edgeRow && c !== cx - ring && c !== cx + ring) continue;
          const cell = r * this.cols + c;
          for (let i = this.cellFirst[cell]; i < this.cellFirst[cell + 1]; i++) {
            const p = this.cellItems[i];
            // The piece's box first: most pieces of a cell lie farther than the best so far, and their box says so
            // without the projection (the box is never farther than the piece; the margin covers rounding).
            const x0 = pointLon[p], x1 = pointLon[p + 1], y0 = pointLat[p], y1 = pointLat[p + 1];
            const gx = (qx < x0 && qx < x1 ? Math.min(x0, x1) - qx : qx > x0 && qx > x1 ? qx - Math.max(x0, x1) : 0) * ux;
            const gy = (qy < y0 && qy < y1 ? Math.min(y0, y1) - qy : qy > y0 && qy > y1 ? qy - Math.max(y0, y1) : 0) * uy;
            if (gx * gx + gy * gy > bestD2 * (1 + 1e-9) + 1e-9) continue;
            const distance = this.distanceTo(p, lon, lat, kx, ky);
            if (distance * distance >= bestD2 || !accept(this.pieceSegment[p])) continue;
            bestD2 = distance * distance;
            best = p;
          }
        }
      }
    }
    return best < 0 ? null : this.project(best, lon, lat, kx, ky);
  }

  /**
   * The nearest place on a segment `accept` allows within `maxMetres`, as OSRM snaps (fixed-mercator.ts):
   * the segment OSRM ranks nearest, with every other allowed segment whose nearest point rounds to the same
   * place as its `ties`; null when none. Pieces the planar search finds within a few decimetres of the
   * nearest are ranked OSRM's way, which only decides between near-equal ones.
   */
  nearestPlace(lon: number, lat: number, maxMetres: number, accept: (segment: number) => boolean): Snap | null {
    const planar = this.nearest(lon, lat, maxMetres, accept);
    if (planar === null) return null;
    const reach = planar.distance * 1.001 + PLACE_MARGIN_M;
    const kx = Math.cos(lat * Math.PI / 180) * M_PER_DEG;
    const ky = M_PER_DEG;
    const c0 = this.col(lon - reach / kx), c1 = this.col(lon + reach / kx);
    const r0 = this.row(lat - reach / ky), r1 = this.row(lat + reach / ky);
    const fixed = new FixedProjection(lon, lat);
    const { pointLon, pointLat } = this.n;
    const near: Array<{ piece: number; distance: number; place: FixedPlace }> = [];
    // The search box in stored units (1e-7°), a unit wider each side: a piece wholly outside it is farther than reach.
    const west = (lon - reach / kx) * 1e7 - 1, east = (lon + reach / kx) * 1e7 + 1;
    const south = (lat - reach / ky) * 1e7 - 1, north = (lat + reach / ky) * 1e7 + 1;
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const cell = r * this.cols + c;
        for (let i = this.cellFirst[cell]; i < this.cellFirst[cell + 1]; i++) {
          const p = this.cellItems[i];
          const x0 = pointLon[p], x1 = pointLon[p + 1], y0 = pointLat[p], y1 = pointLat[p + 1];
          if ((x0 < west && x1 < west) || (x0 > east && x1 > east) || (y0 < south && y1 < south) || (y0 > north && y1 > north)) continue;
          // Once per piece: in the first of its cells this scan visits.
          const pr = Math.min(this.row(pointLat[p] / 1e7), this.row(pointLat[p + 1] / 1e7));
          const pc = Math.min(this.col(pointLon[p] / 1e7), this.col(pointLon[p + 1] / 1e7));
          if (r !== Math.max(r0, pr) || c !== Math.max(c0, pc)) continue;
          const distance = this.distanceTo(p, lon, lat, kx, ky);
          if (distance > reach || !accept(this.pieceSegment[p])) continue;
          near.push({ piece: p, distance, place: fixed.place(pointLon[p], pointLat[p], pointLon[p + 1], pointLat[p + 1]) });
        }
      }
    }
    // OSRM's order; between equal squared distances, the planar one.
    near.sort((a, b) => a.place.squared - b.place.squared || a.distance - b.distance);
    const best = near[0].place;
    const segments = new Set<number>();
    const snaps: Snap[] = [];
    for (const { piece, place } of near) {
      if (place.x !== best.x || place.y !== best.y || segments.has(this.pieceSegment[piece])) continue;
      segments.add(this.pieceSegment[piece]);
      snaps.push(this.project(piece, lon, lat, kx, ky));
    }
    const [first, ...ties] = snaps;
    return ties.length > 0 ? { ...first, ties } : first;
  }

  /**
   * The nearest point of every segment `accept` allows within `maxMetres`, nearest first (equal
   * distances in the order the segments were met), at most `limit` of them: the candidate positions of
   * a trace point for map matching.
   */
  within(lon: number, lat: number, maxMetres: number, accept: (segment: number) => boolean, limit: number): Snap[] {
    const kx = Math.cos(lat * Math.PI / 180) * M_PER_DEG;
    const ky = M_PER_DEG;
    const c0 = this.col(lon - maxMetres / kx), c1 = this.col(lon + maxMetres / kx);
    const r0 = this.row(lat - maxMetres / ky), r1 = this.row(lat + maxMetres / ky);
    const found = this.found ??= new FoundSegments(this.n.segmentFrom.length);
    found.clear();
    const n = this.n;
    // The search box in stored units (1e-7°), a unit wider each side: a piece wholly outside it is farther
    // than maxMetres (by more than rounding), so most of a cell's pieces go on two integer comparisons.
    const west = (lon - maxMetres / kx) * 1e7 - 1, east = (lon + maxMetres / kx) * 1e7 + 1;
    const south = (lat - maxMetres / ky) * 1e7 - 1, north = (lat + maxMetres / ky) * 1e7 + 1;
    const { pointLon, pointLat } = n;
    for (let r = r0; r <= r1; r++) {
      for (let c = c0; c <= c1; c++) {
        const cell = r * this.cols + c;
        for (let i = this.cellFirst[cell]; i < this.cellFirst[cell + 1]; i++) {
          const p = this.cellItems[i];
          const x0 = pointLon[p], x1 = pointLon[p + 1], y0 = pointLat[p], y1 = pointLat[p + 1];
          if ((x0 < west && x1 < west) || (x0 > east && x1 > east) || (y0 < south && y1 < south) || (y0 > north && y1 > north)) continue;
          // A piece is listed in every cell its box touches: look at it only in the first of those this scan visits.
          const pr = Math.min(this.row(n.pointLat[p] / 1e7), this.row(n.pointLat[p + 1] / 1e7));
          const pc = Math.min(this.col(n.pointLon[p] / 1e7), this.col(n.pointLon[p + 1] / 1e7));
          if (r !== Math.max(r0, pr) || c !== Math.max(c0, pc)) continue;
          const distance = this.distanceTo(p, lon, lat, kx, ky);
          if (distance > maxMetres) continue;
          const segment = this.pieceSegment[p];
          const slot = found.slotOf(segment);
          if ((slot >= 0 && found.distance[slot] <= distance) || !accept(segment)) continue;
          found.put(slot, segment, p, distance);
        }
      }
    }
    const order = found.nearestFirst(limit);
    return order.map((slot) => this.project(found.piece[slot], lon, lat, kx, ky));
  }

  private found: FoundSegments | undefined;

  // What the last `distanceTo` computed besides the distance: the share t along the piece, the offset of the
  // nearest point from (lon, lat) and the piece's direction, in metres. Fields, not a returned object, so the
  // candidate scan allocates nothing; `project` reads them, so a snap and the scan agree to the last bit.
  private closestT = 0;
  private closestX = 0;
  private closestY = 0;
  private pieceDx = 0;
  private pieceDy = 0;

  /** Metres from (lon, lat) to piece p (point p to p+1), in the local plane of kx, ky metres per degree. */
  private distanceTo(p: number, lon: number, lat: number, kx: number, ky: number): number {
    const n = this.n;
    const ax = (n.pointLon[p] / 1e7 - lon) * kx, ay = (n.pointLat[p] / 1e7 - lat) * ky;
    const bx = (n.pointLon[p + 1] / 1e7 - lon) * kx, by = (n.pointLat[p + 1] / 1e7 - lat) * ky;
    const dx = bx - ax, dy = by - ay;
    const len2 = dx * dx + dy * dy;
    let t = len2 > 0 ? -(ax * dx + ay * dy) / len2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    const px = ax + t * dx, py = ay + t * dy;
    this.closestT = t;
    this.closestX = px;
    this.closestY = py;
    this.pieceDx = dx;
    this.pieceDy = dy;
    return Math.sqrt(px * px + py * py);
  }

  /** The nearest point of piece p to (lon, lat): `distanceTo`'s answer with what a snap reports. */
  private project(p: number, lon: number, lat: number, kx: number, ky: number): Snap {
    const distance = this.distanceTo(p, lon, lat, kx, ky);
    const t = this.closestT, px = this.closestX, py = this.closestY, dx = this.pieceDx, dy = this.pieceDy;
    return {
      segment: this.pieceSegment[p], along: this.pointAlong[p] + t * (this.pointAlong[p + 1] - this.pointAlong[p]),
      lon: lon + px / kx, lat: lat + py / ky, distance,
      bearing: (Math.atan2(dx, dy) * 180 / Math.PI + 360) % 360,
    };
  }

  /** Metres from the segment's start to point p (of that segment). */
  alongAt(p: number): number {
    return this.pointAlong[p];
  }
}

function planarMetres(lon1: number, lat1: number, lon2: number, lat2: number): number {
  const kx = Math.cos(((lat1 + lat2) / 2) * Math.PI / 180) * M_PER_DEG;
  const dx = (lon2 - lon1) * kx, dy = (lat2 - lat1) * M_PER_DEG;
  return Math.sqrt(dx * dx + dy * dy);
}

/**
 * The segments one `within` query has met, each with its nearest piece so far, in the order first met;
 * reused between queries (a stamp per segment says which query a slot belongs to).
 */
class FoundSegments {
  private readonly stamp: Uint32Array;
  private readonly slot: Uint32Array;
  private generation = 0;
  count = 0;
  segment: number[] = [];
  piece: number[] = [];
  distance: number[] = [];

  constructor(segments: number) {
    this.stamp = new Uint32Array(segments);
    this.slot = new Uint32Array(segments);
  }

  clear(): void {
    this.generation++;
    if (this.generation === 0xffffffff) {
      this.stamp.fill(0);
      this.generation = 1;
    }
    this.count = 0;
  }

  /** The segment's slot in this query, or -1. */
  slotOf(segment: number): number {
    return this.stamp[segment] === this.generation ? this.slot[segment] : -1;
  }

  put(slot: number, segment: number, piece: number, distance: number): void {
    if (slot < 0) {
      slot = this.count++;
      this.stamp[segment] = this.generation;
      this.slot[segment] = slot;
      this.segment[slot] = segment;
    }
    this.piece[slot] = piece;
    this.distance[slot] = distance;
  }

  /** Slots by distance, equal ones in the order first met (a stable sort), at most `limit`. */
  nearestFirst(limit: number): number[] {
    const order: number[] = [];
    for (let i = 0; i < this.count; i++) order.push(i);
    order.sort((a, b) => this.distance[a] - this.distance[b] || a - b);
    return order.length > limit ? order.slice(0, limit) : order;
  }
}
