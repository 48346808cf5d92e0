// Points of one normalised name on a grid of degree cells, to ask "is there one of this name within
// d metres?" without scanning every place of that name: a tiled or real state has the same street
// name in hundreds of towns, and the scan made the highways' pass quadratic (×20 Baltimore: 58 k
// streets/s falling to 12 k/s).

const CELL_DEGREES = 0.03;
const METERS_PER_DEGREE_LAT = 110_574;
const METERS_PER_DEGREE_LON_AT_EQUATOR = 111_320;

export interface NamedPoint {
  lon: number;
  lat: number;
}

export class SameNameGrid<T extends NamedPoint> {
  /**
   * Per name, its cells by number (cellKey): one lookup of the name, then numbers, where a string key
   * of name and cell for each of the 35 cells a search visits was a sixth of the geocoding stage's
   * finish (profile of Baltimore ×4×4).
   */
  private readonly names = new Map<string, Map<number, T[]>>();

  add(name: string, point: T): void {
    let cells = this.names.get(name);
    if (cells === undefined) this.names.set(name, (cells = new Map()));
    const key = cellKey(Math.floor(point.lon / CELL_DEGREES), Math.floor(point.lat / CELL_DEGREES));
    const list = cells.get(key);
    if (list) list.push(point);
    else cells.set(key, [point]);
  }

  /**
   * The first point of `name` (in insertion order within a cell) for which `isNear(point)` holds,
   * among those that can lie within `meters`. `isNear` decides; the grid only narrows the candidates,
   * so the answer is the one a scan of all points of the name would give when at most one is near,
   * and some near point otherwise.
   */
  findNear(name: string, lon: number, lat: number, meters: number, isNear: (point: T) => boolean): T | undefined {
    // The widest a cell can be in metres is at the pole-ward edge of the rows searched: bound cos(lat)
    // there (capped near the pole, where a degree of longitude is nearly nothing).
    const rows = Math.ceil(meters / METERS_PER_DEGREE_LAT / CELL_DEGREES) + 1;
    const poleward = Math.min(89, Math.abs(lat) + (rows + 1) * CELL_DEGREES);
    const lonMeters = METERS_PER_DEGREE_LON_AT_EQUATOR * Math.cos((poleward * Math.PI) / 180) * CELL_DEGREES;
    const cols = Math.min(Math.ceil(meters / lonMeters) + 1, Math.ceil(360 / CELL_DEGREES));
    const cells = this.names.get(name);
    if (cells === undefined) return undefined;
    const cx = Math.floor(lon / CELL_DEGREES);
    const cy = Math.floor(lat / CELL_DEGREES);
    for (let y = cy - rows; y <= cy + rows; y++) {
      for (let x = cx - cols; x <= cx + cols; x++) {
        const list = cells.get(cellKey(x, y));
        if (list === undefined) continue;
        for (const point of list) if (isNear(point)) return point;
      }
    }
    return undefined;
  }
}

/**
 * A cell's number: one for each cell a search can visit (|x| ≤ 6,000 + 12,000 columns searched,
 * |y| ≤ 3,000 + the rows searched, both inside ±2^15) and never one for two.
 */
function cellKey(x: number, y: number): number {
  return (x + CELL_OFFSET) * CELL_SPAN + (y + CELL_OFFSET);
}

const CELL_OFFSET = 1 << 15;
const CELL_SPAN = 1 << 16;
