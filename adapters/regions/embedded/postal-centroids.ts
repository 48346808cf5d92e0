/**
 * Postal-code points (one per code) grouped by scope ("US-NY", "PR", "CA"), with a
 * nearest-point search restricted to one scope and a maximum distance. A uniform
 * grid of 0.05° cells searched ring by ring: a handful of cells per query in cities,
 * bounded by the maximum distance in empty country.
 */
export interface PostalPoint {
  readonly code: string;
  readonly scope: string;
  readonly lng: number;
  readonly lat: number;
}

const CELL_DEGREES = 0.05;
const METERS_PER_DEGREE = 111_320;
const COLS = Math.round(360 / CELL_DEGREES);

export class PostalCentroids {
  private readonly points: PostalPoint[];
  private readonly scopeOf: Uint16Array;
  private readonly scopeIds = new Map<string, number>();
  private readonly cells = new Map<number, Uint32Array>();

  constructor(points: ReadonlyArray<PostalPoint>) {
    this.points = points.filter((p) => Number.isFinite(p.lat) && Number.isFinite(p.lng) && Math.abs(p.lat) <= 90 && Math.abs(p.lng) <= 180);
    this.scopeOf = new Uint16Array(this.points.length);
    const lists = new Map<number, number[]>();
    this.points.forEach((p, i) => {
      let id = this.scopeIds.get(p.scope);
      if (id === undefined) {
        id = this.scopeIds.size;
        this.scopeIds.set(p.scope, id);
      }
      this.scopeOf[i] = id;
      const key = cellKey(colOf(p.lng), rowOf(p.lat));
      const list = lists.get(key);
      if (list === undefined) lists.set(key, [i]);
      else list.push(i);
    });
    for (const [key, list] of lists) this.cells.set(key, Uint32Array.from(list));
  }

  get size(): number {
    return this.points.length;
  }

  /** Nearest point of `scope` within `maxMeters` of [lng, lat] (equirectangular distance). */
  nearest(lng: number, lat: number, scope: string, maxMeters: number): PostalPoint | undefined {
    const scopeId = this.scopeIds.get(scope);
    if (scopeId === undefined) return undefined;
    const kx = METERS_PER_DEGREE * Math.cos((lat * Math.PI) / 180);
    const c0 = colOf(lng);
    const r0 = rowOf(lat);
    let best = -1;
    let bestMeters = maxMeters;
    for (let ring = 0; ; ring++) {
      // Cells of this ring are at least (ring - 1) whole cells away from the point.
      const reachLat = Math.min(89.99, Math.abs(lat) + ring * CELL_DEGREES);
      const floorMeters = Math.max(0, ring - 1) * CELL_DEGREES * METERS_PER_DEGREE * Math.cos((reachLat * Math.PI) / 180);
      if (floorMeters > bestMeters || ring > COLS / 2) break;
      for (let r = r0 - ring; r <= r0 + ring; r++) {
        if (r < 0 || r * CELL_DEGREES > 180) continue;
        const edgeRow = r === r0 - ring || r === r0 + ring;
        for (let c = c0 - ring; c <= c0 + ring; c += edgeRow || ring === 0 ? 1 : 2 * ring) {
          const list = this.cells.get(cellKey(((c % COLS) + COLS) % COLS, r));
          if (list === undefined) continue;
          for (const i of list) {
            if (this.scopeOf[i] !== scopeId) continue;
            const p = this.points[i];
            let dLng = Math.abs(p.lng - lng);
            if (dLng > 180) dLng = 360 - dLng;
            const dx = dLng * kx;
            const dy = (p.lat - lat) * METERS_PER_DEGREE;
            const meters = Math.sqrt(dx * dx + dy * dy);
            if (meters <= bestMeters) {
              bestMeters = meters;
              best = i;
            }
          }
        }
      }
    }
    return best < 0 ? undefined : this.points[best];
  }
}

function colOf(lng: number): number {
  return Math.min(COLS - 1, Math.max(0, Math.floor((lng + 180) / CELL_DEGREES)));
}

function rowOf(lat: number): number {
  return Math.max(0, Math.floor((lat + 90) / CELL_DEGREES));
}

function cellKey(col: number, row: number): number {
  return row * COLS + col;
}
