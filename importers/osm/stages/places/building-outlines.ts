// Building outlines for POIs mapped as a node inside a building (the common case for shops and cafés):
// a node place takes the outline of the smallest building containing it, when it is the only place in
// that building. A mall or an office tower holding many places gives none of them its outline: each
// would otherwise claim the whole building and every visitor would "enter" all of them at once.
import type { LngLat } from '../../../../core/types';

interface Building {
  ring: LngLat[];
  west: number;
  south: number;
  east: number;
  north: number;
  area: number;
}

/** Grid cell size in degrees (~1 km): buildings are small, so each sits in one or a few cells. */
const CELL_DEG = 0.01;

function cellKey(x: number, y: number): number {
  return (x + 20_000) * 40_000 + (y + 20_000);
}

export class BuildingOutlines {
  private readonly buildings: Building[] = [];

  /** Lets the kept outlines go (the stage has written its file). */
  clear(): void {
    this.buildings.length = 0;
  }

  get size(): number {
    return this.buildings.length;
  }

  add(ring: LngLat[]): void {
    let west = Infinity;
    let south = Infinity;
    let east = -Infinity;
    let north = -Infinity;
    for (const [lng, lat] of ring) {
      if (lng < west) west = lng;
      if (lng > east) east = lng;
      if (lat < south) south = lat;
      if (lat > north) north = lat;
    }
    this.buildings.push({ ring, west, south, east, north, area: Math.abs(ringArea(ring)) });
  }

  /**
   * For each point, the ring of the smallest building containing it, or undefined; a building
   * containing more than one of the points is given to none of them.
   */
  assign(points: ReadonlyArray<LngLat>, onProgress?: (done: number, total: number) => void): Array<LngLat[] | undefined> {
    const grid = new Map<number, number[]>();
    this.buildings.forEach((b, i) => {
      for (let x = Math.floor(b.west / CELL_DEG); x <= Math.floor(b.east / CELL_DEG); x++) {
        for (let y = Math.floor(b.south / CELL_DEG); y <= Math.floor(b.north / CELL_DEG); y++) {
          const key = cellKey(x, y);
          const list = grid.get(key);
          if (list) list.push(i);
          else grid.set(key, [i]);
        }
      }
    });
    const chosen = points.map(([lng, lat], k) => {
      if (onProgress && k % 10_000 === 0) onProgress(k, points.length);
      let best = -1;
      for (const i of grid.get(cellKey(Math.floor(lng / CELL_DEG), Math.floor(lat / CELL_DEG))) ?? []) {
        const b = this.buildings[i];
        if (lng < b.west || lng > b.east || lat < b.south || lat > b.north) continue;
        if (!insideRing(b.ring, lng, lat)) continue;
        if (best < 0 || b.area < this.buildings[best].area) best = i;
      }
      return best;
    });
    const uses = new Map<number, number>();
    for (const i of chosen) if (i >= 0) uses.set(i, (uses.get(i) ?? 0) + 1);
    return chosen.map((i) => (i >= 0 && uses.get(i) === 1 ? this.buildings[i].ring : undefined));
  }
}

/** Even-odd test in degrees: buildings are far too small for the projection to matter. */
export function insideRing(ring: LngLat[], x: number, y: number): boolean {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i];
    const [xj, yj] = ring[j];
    if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function ringArea(ring: LngLat[]): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) sum += (ring[j][0] - ring[i][0]) * (ring[j][1] + ring[i][1]);
  return sum / 2;
}
