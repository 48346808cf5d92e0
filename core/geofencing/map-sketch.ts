// What the dashboard's map needs of the geofences and users in its view, and no more: shapes whose
// bounding box meets the view (not only those whose centre is in it), rings thinned to the pixel at the
// view's zoom and rounded to about a metre, and, when the view holds more than can be drawn one by one,
// counts per grid cell instead. With 100,000 geofences the old first load read every geofence through
// the list endpoint (8.9 MiB); a view's sketch is bounded by MAX_SHAPES whatever the environment holds.
import type { PreparedGeofence } from './prepared-geofence';

export interface ViewBox {
  west: number;
  south: number;
  east: number;
  north: number;
}

export interface GeofenceSketch {
  _id: string;
  tag?: string;
  externalId?: string;
  description: string;
  type: string;
  enabled: boolean;
  center: [number, number];
  /** Metres for circles, minutes for isochrones, absent for polygons. */
  radius?: number;
  mode?: string;
  /** Polygons and isochrones drawn larger than a few pixels: the ring, thinned and rounded. */
  ring?: Array<[number, number]>;
  /** [west, south, east, north]: a shape whose ring was left out is still drawn at its size. */
  bbox: [number, number, number, number];
}

/** [longitude, latitude, count] of a grid cell holding at least one item, at the items' mean position. */
export type Cell = [number, number, number];

/** Grid cells across the view when items are counted instead of listed (about 40 px apart on a laptop). */
export const GRID = 32;
/** Below this many pixels across, a polygon is drawn as its box and its ring is not sent. */
const MIN_RING_PX = 6;

/** Degrees per screen pixel of longitude at this web-mercator zoom (256-pixel tiles). */
export function degreesPerPixel(zoom: number): number {
  return 360 / (256 * 2 ** zoom);
}

function round(v: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(v * f) / f;
}

/**
 * A ring thinned by radial distance: a vertex closer than `tolerance` degrees to the last kept one is
 * dropped (the closing vertex is always kept). Cheap, and at one pixel indistinguishable on screen.
 */
export function thinRing(lngLat: Float64Array, tolerance: number, digits: number): Array<[number, number]> {
  const n = lngLat.length / 2;
  const out: Array<[number, number]> = [];
  let lastX = NaN, lastY = NaN;
  for (let i = 0; i < n; i++) {
    const x = lngLat[2 * i], y = lngLat[2 * i + 1];
    const last = i === n - 1;
    if (!last && out.length > 0 && Math.abs(x - lastX) < tolerance && Math.abs(y - lastY) < tolerance) continue;
    out.push([round(x, digits), round(y, digits)]);
    lastX = x;
    lastY = y;
  }
  // A ring thinned below a triangle keeps its first three corners and closes.
  if (out.length < 4 && n >= 4) return [0, 1, 2, n - 1].map((i) => [round(lngLat[2 * i], digits), round(lngLat[2 * i + 1], digits)] as [number, number]);
  return out;
}

export function sketchGeofence(fence: PreparedGeofence, zoom: number): GeofenceSketch {
  const g = fence.geofence;
  const dpp = degreesPerPixel(zoom);
  // Rounding to a tenth of a pixel, but never coarser than ~1 m (5 decimals) nor finer than 7.
  const digits = Math.min(7, Math.max(5, Math.ceil(-Math.log10(dpp / 10))));
  const out: GeofenceSketch = {
    _id: g._id, description: g.description, type: g.type, enabled: g.enabled !== false,
    center: [round(g.geometryCenter.coordinates[0], 6), round(g.geometryCenter.coordinates[1], 6)],
    bbox: [round(fence.minX, 6), round(fence.minY, 6), round(fence.maxX, 6), round(fence.maxY, 6)],
  };
  if (g.tag) out.tag = g.tag;
  if (g.externalId) out.externalId = g.externalId;
  if (g.type !== 'polygon') out.radius = g.geometryRadius;
  if (g.mode) out.mode = g.mode;
  if (fence.kind === 'polygon') {
    const spanPx = Math.max(fence.maxX - fence.minX, fence.maxY - fence.minY) / dpp;
    const ring = fence.lngLat.length ? fence.lngLat : ringOf(g.geometry?.coordinates?.[0]);
    if (spanPx >= MIN_RING_PX && ring.length >= 8) out.ring = thinRing(ring, dpp, digits);
  }
  return out;
}

function ringOf(ring: number[][] | undefined): Float64Array {
  if (!ring) return new Float64Array(0);
  const out = new Float64Array(ring.length * 2);
  ring.forEach(([x, y], i) => { out[2 * i] = x; out[2 * i + 1] = y; });
  return out;
}

/**
 * Counts per cell of a GRID × GRID grid over the view, each cell at the mean position of what it holds.
 * Sums in typed arrays, nothing allocated per item: a city view adds 100,000 geofences (a Map of
 * arrays and two closures per item took ~300 ms of such a request on a loaded machine).
 */
export class CellCounter {
  private readonly counts = new Uint32Array(GRID * GRID);
  private readonly sumX = new Float64Array(GRID * GRID);
  private readonly sumY = new Float64Array(GRID * GRID);
  private readonly cellW: number;
  private readonly cellH: number;
  total = 0;

  constructor(private readonly box: ViewBox) {
    this.cellW = (box.east - box.west) / GRID;
    this.cellH = (box.north - box.south) / GRID;
  }

  add(x: number, y: number): void {
    const { box } = this;
    const cx = Math.min(GRID - 1, Math.max(0, Math.floor((x - box.west) / this.cellW)));
    const cy = Math.min(GRID - 1, Math.max(0, Math.floor((y - box.south) / this.cellH)));
    const key = cy * GRID + cx;
    this.counts[key]++;
    this.sumX[key] += x;
    this.sumY[key] += y;
    this.total++;
  }

  /**
   * A fence counts at the centre of its box clamped into the view: a big shape centred outside the
   * view is counted where it shows.
   */
  addBox(minX: number, minY: number, maxX: number, maxY: number): void {
    const { box } = this;
    this.add(Math.min(box.east, Math.max(box.west, (minX + maxX) / 2)), Math.min(box.north, Math.max(box.south, (minY + maxY) / 2)));
  }

  /** The cells holding anything, row by row from the south-west. */
  cells(): Cell[] {
    const out: Cell[] = [];
    for (let key = 0; key < this.counts.length; key++) {
      const n = this.counts[key];
      if (n > 0) out.push([round(this.sumX[key] / n, 5), round(this.sumY[key] / n, 5), n]);
    }
    return out;
  }
}
