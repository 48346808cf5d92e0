/**
 * One polygon (outer ring plus holes) prepared for fast point-in-polygon tests.
 *
 * Edges are bucketed into horizontal bands; a ray cast from the point only needs the
 * edges of the point's band, so a test costs a few dozen edge checks even on a
 * 60,000-vertex coastline. Even-odd crossing over all rings handles holes.
 */

/** [longitude, latitude] rings, GeoJSON Polygon coordinates (first ring outer, rest holes). */
export type PolygonRings = ReadonlyArray<ReadonlyArray<ReadonlyArray<number>>>;

export interface BBox {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

const METERS_PER_DEGREE = 111_320;
/** Aim for about this many edges per band: more bands cost memory, fewer cost time. */
const EDGES_PER_BAND = 4;
const MAX_BANDS = 1 << 16;

export class BandedPolygon {
  readonly bbox: BBox;
  readonly vertexCount: number;
  private readonly xs: Float64Array;
  private readonly ys: Float64Array;
  private readonly bandHeight: number;
  private readonly bandCount: number;
  /** CSR layout: edges of band b are bandEdges[bandStart[b] .. bandStart[b+1]); edge k joins vertex k to k+1. */
  private readonly bandStart: Uint32Array;
  private readonly bandEdges: Uint32Array;

  constructor(rings: PolygonRings) {
    const xs: number[] = [];
    const ys: number[] = [];
    const edges: number[] = [];
    for (const ring of rings) {
      if (ring.length < 3) continue;
      const first = xs.length;
      for (const position of ring) {
        xs.push(position[0]);
        ys.push(position[1]);
      }
      // Close open rings so that every edge is (k, k+1) inside one ring.
      if (xs[first] !== xs[xs.length - 1] || ys[first] !== ys[ys.length - 1]) {
        xs.push(xs[first]);
        ys.push(ys[first]);
      }
      for (let k = first; k < xs.length - 1; k++) edges.push(k);
    }
    this.xs = Float64Array.from(xs);
    this.ys = Float64Array.from(ys);
    this.vertexCount = xs.length;
    let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
    for (let i = 0; i < xs.length; i++) {
      if (xs[i] < minX) minX = xs[i];
      if (xs[i] > maxX) maxX = xs[i];
      if (ys[i] < minY) minY = ys[i];
      if (ys[i] > maxY) maxY = ys[i];
    }
    this.bbox = { minX, minY, maxX, maxY };

    this.bandCount = Math.max(1, Math.min(MAX_BANDS, Math.ceil(edges.length / EDGES_PER_BAND)));
    const height = (maxY - minY) / this.bandCount;
    this.bandHeight = height > 0 ? height : 1;
    const counts = new Uint32Array(this.bandCount + 1);
    for (const k of edges) {
      for (let b = this.bandOf(Math.min(ys[k], ys[k + 1])), last = this.bandOf(Math.max(ys[k], ys[k + 1])); b <= last; b++) {
        counts[b + 1]++;
      }
    }
    for (let b = 0; b < this.bandCount; b++) counts[b + 1] += counts[b];
    this.bandStart = counts;
    this.bandEdges = new Uint32Array(counts[this.bandCount]);
    const cursor = counts.slice(0, this.bandCount);
    for (const k of edges) {
      for (let b = this.bandOf(Math.min(ys[k], ys[k + 1])), last = this.bandOf(Math.max(ys[k], ys[k + 1])); b <= last; b++) {
        this.bandEdges[cursor[b]++] = k;
      }
    }
  }

  private bandOf(y: number): number {
    const b = Math.floor((y - this.bbox.minY) / this.bandHeight);
    return b < 0 ? 0 : b >= this.bandCount ? this.bandCount - 1 : b;
  }

  /** Bytes held by the typed arrays (the bulk of this object's memory). */
  get byteLength(): number {
    return this.xs.byteLength + this.ys.byteLength + this.bandStart.byteLength + this.bandEdges.byteLength;
  }

  contains(x: number, y: number): boolean {
    const { minX, minY, maxX, maxY } = this.bbox;
    if (x < minX || x > maxX || y < minY || y > maxY) return false;
    const b = this.bandOf(y);
    const xs = this.xs, ys = this.ys, edges = this.bandEdges;
    let inside = false;
    for (let i = this.bandStart[b], end = this.bandStart[b + 1]; i < end; i++) {
      const k = edges[i];
      const ya = ys[k], yc = ys[k + 1];
      if (ya > y !== yc > y) {
        const xa = xs[k];
        if (x < xa + ((y - ya) * (xs[k + 1] - xa)) / (yc - ya)) inside = !inside;
      }
    }
    return inside;
  }

  /**
   * Distance in meters from the point to the nearest edge when one is within
   * `maxMeters`, else Infinity. Local equirectangular projection: accurate to well
   * under 1% at the few-kilometre ranges this is for.
   */
  distanceToBoundary(x: number, y: number, maxMeters: number): number {
    const kx = METERS_PER_DEGREE * Math.cos((y * Math.PI) / 180);
    const ky = METERS_PER_DEGREE;
    const dy = maxMeters / ky;
    const dx = kx > 1e-9 ? maxMeters / kx : 360;
    const { minX, minY, maxX, maxY } = this.bbox;
    if (x < minX - dx || x > maxX + dx || y < minY - dy || y > maxY + dy) return Infinity;
    let best = maxMeters * maxMeters;
    let found = false;
    const xs = this.xs, ys = this.ys, edges = this.bandEdges;
    for (let b = this.bandOf(y - dy), last = this.bandOf(y + dy); b <= last; b++) {
      for (let i = this.bandStart[b], end = this.bandStart[b + 1]; i < end; i++) {
        const k = edges[i];
        const ax = (xs[k] - x) * kx, ay = (ys[k] - y) * ky;
        const ex = (xs[k + 1] - x) * kx - ax, ey = (ys[k + 1] - y) * ky - ay;
        const len2 = ex * ex + ey * ey;
        let t = len2 > 0 ? -(ax * ex + ay * ey) / len2 : 0;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        const px = ax + t * ex, py = ay + t * ey;
        const d2 = px * px + py * py;
        if (d2 <= best) {
          best = d2;
          found = true;
        }
      }
    }
    return found ? Math.sqrt(best) : Infinity;
  }
}
