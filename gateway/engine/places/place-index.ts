// Places near a point: typed arrays of coordinates sorted by grid cell, and a cell → range table.
// A radius query walks the cells its bounding box covers and measures great-circle distances; with
// cells of ~1 km and a 10 km cap, a query touches at most a few hundred cells.
import { EARTH_RADIUS_M } from '../geo/sphere';
import type { LngLat } from '../types';
import type { Place } from './place';

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
  filter?: (place: Place) => boolean;
}

function cellOf(lng: number, lat: number): number {
  const x = Math.floor((lng + 180) / CELL_DEG);
  const y = Math.floor((lat + 90) / CELL_DEG);
  return y * CELLS_PER_TURN + x;
}

export class PlaceIndex {
  private readonly lng: Float64Array;
  private readonly lat: Float64Array;
  private readonly cosLat: Float64Array;
  private readonly places: Place[];
  /** cell → [start, end) into the arrays above. */
  private readonly cells = new Map<number, number>();
  private readonly cellEnd: Int32Array;
  private readonly byId = new Map<string, Place>();

  constructor(input: readonly Place[]) {
    const order = input
      .filter((p) => Number.isFinite(p.lng) && Number.isFinite(p.lat))
      .map((p) => ({ p, cell: cellOf(p.lng, p.lat) }))
      .sort((a, b) => a.cell - b.cell);
    const n = order.length;
    this.places = order.map((o) => o.p);
    this.lng = new Float64Array(n);
    this.lat = new Float64Array(n);
    this.cosLat = new Float64Array(n);
    this.cellEnd = new Int32Array(n);
    let runStart = 0;
    for (let i = 0; i < n; i++) {
      const p = this.places[i];
      this.lng[i] = p.lng;
      this.lat[i] = p.lat;
      this.cosLat[i] = Math.cos(p.lat * RAD);
      this.byId.set(p._id, p);
      if (i === n - 1 || order[i + 1].cell !== order[i].cell) {
        this.cells.set(order[i].cell, runStart);
        for (let k = runStart; k <= i; k++) this.cellEnd[k] = i + 1;
        runStart = i + 1;
      }
    }
  }

  get size(): number {
    return this.places.length;
  }

  get(id: string): Place | undefined {
    return this.byId.get(id);
  }

  all(): readonly Place[] {
    return this.places;
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
    const found: NearbyPlace[] = [];
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
          const place = this.places[i];
          if (q.filter && !q.filter(place)) continue;
          found.push({ place, distanceM: d });
        }
      }
    }
    found.sort((a, b) => a.distanceM - b.distanceM || (a.place._id < b.place._id ? -1 : 1));
    if (found.length > q.limit) found.length = q.limit;
    return found;
  }
}
