// Places near a point: typed arrays of coordinates sorted by grid cell, and a cell → range table.
// A radius query walks the cells its bounding box covers and measures great-circle distances; with
// cells of ~1 km and a 10 km cap, a query touches at most a few hundred cells. The index holds
// positions and (source, row) pairs, not Place objects: a place is made from its source when a query
// answers it, so a region's places cost their compact columns (place-source.ts), not an object each.
import { EARTH_RADIUS_M } from '../geo/sphere';
import type { LngLat } from '../types';
import type { Place, PlaceKind } from './place';
import { arrayPlaceSource, type PlaceSource } from './place-source';

const RAD = Math.PI / 180;
/** Cell size in degrees of latitude and longitude (~1.1 km north–south). */
const CELL_DEG = 0.01;
const CELLS_PER_TURN = 36_000;

export interface NearbyPlace {
  place: Place;
  /** Metres from the query point to the place's centre. */
  distanceM: number;
}

export interface NearQuery {
  radiusM: number;
  limit: number;
  /** Judged on the place's kind, before its Place is made: only the places answered are made. */
  filter?: (place: PlaceKind) => boolean;
}

function cellOf(lng: number, lat: number): number {
  const x = Math.floor((lng + 180) / CELL_DEG);
  const y = Math.floor((lat + 90) / CELL_DEG);
  return y * CELLS_PER_TURN + x;
}

export class PlaceIndex {
  private readonly sources: readonly PlaceSource[];
  /** Per indexed place, sorted by grid cell: its source, its row there, and its position. */
  private readonly src: Uint16Array;
  private readonly row: Uint32Array;
  private readonly lng: Float64Array;
  private readonly lat: Float64Array;
  private readonly cosLat: Float64Array;
  /** cell → [start, end) into the arrays above. */
  private readonly cells = new Map<number, number>();
  private readonly cellEnd: Int32Array;

  /**
   * Plain places (tests, bundled data), or sources read compactly from imported extracts. A place held
   * by several sources (overlapping extracts) is indexed once, from the first source holding it.
   */
  constructor(input: readonly Place[] | { sources: readonly PlaceSource[] }) {
    this.sources = 'sources' in input ? input.sources : [arrayPlaceSource(input)];
    if (this.sources.length > 0xffff) throw new Error('too many place sources');
    let total = 0;
    for (const s of this.sources) total += s.size;
    // Cells and positions of the kept places, then an order by cell.
    const keptSrc = new Uint16Array(total);
    const keptRow = new Uint32Array(total);
    const keptCell = new Float64Array(total);
    let n = 0;
    this.sources.forEach((source, si) => {
      for (let r = 0; r < source.size; r++) {
        const lng = source.lngAt(r);
        const lat = source.latAt(r);
        if (!Number.isFinite(lng) || !Number.isFinite(lat)) continue;
        if (si > 0 && this.heldEarlier(source.idAt(r), si)) continue;
        keptSrc[n] = si;
        keptRow[n] = r;
        keptCell[n] = cellOf(lng, lat);
        n++;
      }
    });
    const order = new Uint32Array(n);
    for (let i = 0; i < n; i++) order[i] = i;
    order.sort((a, b) => keptCell[a] - keptCell[b] || a - b);
    this.src = new Uint16Array(n);
    this.row = new Uint32Array(n);
    this.lng = new Float64Array(n);
    this.lat = new Float64Array(n);
    this.cosLat = new Float64Array(n);
    this.cellEnd = new Int32Array(n);
    let runStart = 0;
    for (let i = 0; i < n; i++) {
      const k = order[i];
      const source = this.sources[keptSrc[k]];
      this.src[i] = keptSrc[k];
      this.row[i] = keptRow[k];
      this.lng[i] = source.lngAt(keptRow[k]);
      this.lat[i] = source.latAt(keptRow[k]);
      this.cosLat[i] = Math.cos(this.lat[i] * RAD);
      if (i === n - 1 || keptCell[order[i + 1]] !== keptCell[k]) {
        this.cells.set(keptCell[k], runStart);
        for (let j = runStart; j <= i; j++) this.cellEnd[j] = i + 1;
        runStart = i + 1;
      }
    }
  }

  /** Whether a source before `si` holds this id with a position (it is indexed from there). */
  private heldEarlier(id: string, si: number): boolean {
    for (let e = 0; e < si; e++) {
      const r = this.sources[e].rowOf(id);
      if (r >= 0 && Number.isFinite(this.sources[e].lngAt(r)) && Number.isFinite(this.sources[e].latAt(r))) return true;
    }
    return false;
  }

  get size(): number {
    return this.src.length;
  }

  get(id: string): Place | undefined {
    for (const source of this.sources) {
      const r = source.rowOf(id);
      if (r < 0) continue;
      if (!Number.isFinite(source.lngAt(r)) || !Number.isFinite(source.latAt(r))) continue;
      return source.placeAt(r);
    }
    return undefined;
  }

  /** Every indexed place, made one by one: for small sets and tools, not for a region per request. */
  all(): Place[] {
    return Array.from(this.src, (s, i) => this.sources[s].placeAt(this.row[i]));
  }

  /** Places within radiusM of `point` that pass the filter, nearest first, at most `limit`. */
  near(point: LngLat, q: NearQuery): NearbyPlace[] {
    const [lng0, lat0] = point;
    const dLat = q.radiusM / (EARTH_RADIUS_M * RAD);
    const cos0 = Math.cos(lat0 * RAD);
    // Near the poles the longitude span becomes the whole turn.
    const dLng = cos0 < 1e-6 ? 180 : Math.min(180, dLat / cos0);
    const south = Math.max(-90, lat0 - dLat);
    const north = Math.min(90 - 1e-9, lat0 + dLat);
    const y0 = Math.floor((south + 90) / CELL_DEG);
    const y1 = Math.floor((north + 90) / CELL_DEG);
    const x0 = Math.floor((lng0 - dLng + 180) / CELL_DEG);
    let x1 = Math.floor((lng0 + dLng + 180) / CELL_DEG);
    // A span of the whole turn must visit each column once.
    if (x1 - x0 >= CELLS_PER_TURN) x1 = x0 + CELLS_PER_TURN - 1;
    // Positions and distances first; places are made only for the answers, nearest first.
    const at: number[] = [];
    const dist: number[] = [];
    const sinHalf = (a: number) => Math.sin(a * RAD * 0.5);
    for (let y = y0; y <= y1; y++) {
      for (let xx = x0; xx <= x1; xx++) {
        // Wrap across the antimeridian.
        const x = ((xx % CELLS_PER_TURN) + CELLS_PER_TURN) % CELLS_PER_TURN;
        const start = this.cells.get(y * CELLS_PER_TURN + x);
        if (start === undefined) continue;
        const end = this.cellEnd[start];
        for (let i = start; i < end; i++) {
          const sLat = sinHalf(this.lat[i] - lat0);
          const sLng = sinHalf(this.lng[i] - lng0);
          const h = sLat * sLat + cos0 * this.cosLat[i] * sLng * sLng;
          const d = 2 * EARTH_RADIUS_M * Math.asin(Math.min(1, Math.sqrt(h)));
          if (d > q.radiusM) continue;
          at.push(i);
          dist.push(d);
        }
      }
    }
    const order = at.map((_, k) => k);
    order.sort((a, b) => dist[a] - dist[b] || (this.idOf(at[a]) < this.idOf(at[b]) ? -1 : 1));
    const found: NearbyPlace[] = [];
    for (const k of order) {
      if (found.length >= q.limit) break;
      const source = this.sources[this.src[at[k]]];
      if (q.filter && !q.filter(source.kindAt(this.row[at[k]]))) continue;
      found.push({ place: source.placeAt(this.row[at[k]]), distanceM: dist[k] });
    }
    return found;
  }

  private idOf(i: number): string {
    return this.sources[this.src[i]].idAt(this.row[i]);
  }
}
